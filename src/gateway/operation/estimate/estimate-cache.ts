import type { OperationPlan } from '../plan/operation-plan';
import type { CostEstimate } from './estimate-operation';

/** Estimates remembered per operation plan; past it, the plan's entries start over. */
const MAX_ENTRIES_PER_OPERATION = 64;
/** A key longer than this (the values of long variables the estimate read) is not kept: the estimate is made again. */
const MAX_KEY_LENGTH = 4_096;

type Variables = Readonly<Record<string, unknown>>;

interface OperationEstimates {
  /** Each set of variable names an estimate of the operation read (sorted): the only values its key holds. */
  readonly readSets: Array<readonly string[]>;
  readonly byKey: Map<string, CostEstimate>;
}

/**
 * The estimates of operations sent again: an estimate depends only on the operation, the variables it
 * reads, the strategies it reads with and the data's measures (collection sizes, longest arrays,
 * running backfills). A request with no strategy overrides reuses the estimate made for the same
 * operation plan (plan/operation-plan.ts: the depth it carries was measured with the values of the
 * Boolean variables its key holds), the same `measures` (their versions) and the same
 * values of the variables that estimate read: `addComment(postId: $postId)` is estimated once, not
 * once per post, while `books(first: $n)` is estimated per `n`. The estimate is a function of what it
 * reads, so equal values of those variables give the same estimate.
 */
export class EstimateCache {
  readonly #byOperation = new WeakMap<OperationPlan, OperationEstimates>();

  /** `variables`: coerced; `compute` estimates with the view of them it is given (its reads are recorded). */
  estimate(plan: OperationPlan, variables: Variables, measures: string, compute: (variables: Variables) => CostEstimate): CostEstimate {
    let entry = this.#byOperation.get(plan);
    if (!entry) this.#byOperation.set(plan, (entry = { readSets: [], byKey: new Map() }));
    for (const names of entry.readSets) {
      const key = keyOf(measures, names, variables);
      const known = key.length > MAX_KEY_LENGTH ? undefined : entry.byKey.get(key);
      if (known) return known;
    }
    if (entry.byKey.size >= MAX_ENTRIES_PER_OPERATION) {
      entry.byKey.clear();
      entry.readSets.length = 0;
    }
    const read = new Set<string>();
    const estimate = compute(recordingReads(variables, read));
    const names = [...read].sort();
    if (!entry.readSets.some((known) => known.length === names.length && known.every((name, index) => name === names[index]))) entry.readSets.push(names);
    const key = keyOf(measures, names, variables);
    if (key.length <= MAX_KEY_LENGTH) entry.byKey.set(key, estimate);
    return estimate;
  }
}

function keyOf(measures: string, names: readonly string[], variables: Variables): string {
  let key = measures;
  for (const name of names) key += `|${name}=${Object.hasOwn(variables, name) ? JSON.stringify(variables[name]) : ''}`;
  return key;
}

/** `variables`, read through a view that adds the name of every variable looked at (or listed) to `read`. */
function recordingReads(variables: Variables, read: Set<string>): Variables {
  return new Proxy(variables, {
    get(target, name, receiver) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name, receiver);
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.has(target, name);
    },
    getOwnPropertyDescriptor(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
    ownKeys(target) {
      for (const name of Object.keys(target)) read.add(name);
      return Reflect.ownKeys(target);
    },
  });
}
