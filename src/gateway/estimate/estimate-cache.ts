import type { OperationDefinitionNode } from 'graphql';
import type { CostEstimate } from './estimate-operation';

/** Variable sets remembered per operation; past it, the operation's entries start over. */
const MAX_ENTRIES_PER_OPERATION = 64;

/**
 * The estimates of operations sent again: an estimate depends only on the operation, its variables,
 * the strategies it reads with and the data's measures (collection sizes, longest arrays, running
 * backfills). A request with no strategy overrides reuses the estimate made for the same operation
 * (the parsed document Apollo keeps), the same variables and the same `measures` (the measures'
 * versions): one walk of the operation per distinct request, not one per request.
 */
export class EstimateCache {
  readonly #byOperation = new WeakMap<OperationDefinitionNode, Map<string, CostEstimate | undefined>>();

  estimate(operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>> | undefined, measures: string, compute: () => CostEstimate | undefined): CostEstimate | undefined {
    const key = `${measures}|${variables === undefined ? '' : JSON.stringify(variables)}`;
    let estimates = this.#byOperation.get(operation);
    if (!estimates) this.#byOperation.set(operation, (estimates = new Map()));
    if (estimates.has(key)) return estimates.get(key);
    if (estimates.size >= MAX_ENTRIES_PER_OPERATION) estimates.clear();
    const estimate = compute();
    estimates.set(key, estimate);
    return estimate;
  }
}
