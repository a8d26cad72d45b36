import type { CostEstimate } from '../estimate/estimate-operation';
import type { CostReport } from '../../request/cost/cost-ledger';

/**
 * The self-check "the static estimate is an upper bound": after an operation ran, its measured round
 * trips and documents must not exceed what estimate/ predicted before execution. Queries and mutations
 * alike; a mutation's estimate bounds one attempt of each write unit, so the commands of attempts a
 * transaction retried are left out of the measure (CostLedger.retriedAttempts).
 */

export type CheckedMeasure = 'roundTrips' | 'documents';

/** One measure of one operation that cost more than its estimate. */
export interface EstimateViolation {
  readonly measure: CheckedMeasure;
  readonly estimated: number;
  readonly measured: number;
  readonly operationName: string | undefined;
  /** The operation's source text, to reproduce it. */
  readonly query: string | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

/** Receives every violation the cost plugin finds (see ApolloServerPluginDocjoinCost's `onEstimateViolation`). */
export type EstimateViolationRecorder = (violation: EstimateViolation) => void;

/**
 * The measures of `report` above `estimate`. An operation that ran without an estimate (none was made)
 * is held to zero: whatever it sent was not predicted.
 */
export function findEstimateViolations(
  report: Pick<CostReport, 'roundTrips' | 'documents'>,
  estimate: Pick<CostEstimate, 'roundTrips' | 'documents'> | undefined,
  operation: { readonly operationName?: string; readonly query?: string; readonly variables?: Readonly<Record<string, unknown>> },
): EstimateViolation[] {
  const violations: EstimateViolation[] = [];
  for (const measure of ['roundTrips', 'documents'] as const) {
    const estimated = estimate?.[measure] ?? 0;
    const measured = report[measure];
    if (measured > estimated) {
      violations.push({ measure, estimated, measured, operationName: operation.operationName, query: operation.query, variables: operation.variables });
    }
  }
  return violations;
}

/** One line per violation: the measure, both numbers and the operation. */
export function describeEstimateViolation(violation: EstimateViolation): string {
  const variables = violation.variables && Object.keys(violation.variables).length > 0 ? ` with variables ${JSON.stringify(violation.variables)}` : '';
  const name = violation.operationName ? `${violation.operationName}: ` : '';
  return `${violation.measure} measured ${violation.measured} > estimated ${violation.estimated} for ${name}${oneLine(violation.query ?? '<no query text>')}${variables}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
