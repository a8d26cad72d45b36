/**
 * What `docjoin advise` says about each relation field: plain data, printed as a table by the CLI and
 * written as JSON for tooling.
 */

/** What to do with a relation's storage shape. */
export type AdviceKind =
  /** Nothing in the data or the workload argues for a change. */
  | 'keep'
  /** Copy more fields into the snapshot: the misses the workload shows become hits. */
  | 'widen-snapshot'
  /** Stop copying: keeping the copies true costs more writes than the round trips they save. */
  | 'drop-snapshot'
  /** Copy the fields join reads select into the parent: reads far outnumber the writes the copies cost. */
  | 'add-snapshot'
  /** Read by default with the shape that serves most reads without a query (`@read(strategy:)`). */
  | 'switch-default'
  /** Bound the embedded array (the subset pattern): keep the newest entries, reference the rest. */
  | 'bound-array'
  /** Stop embedding: the children belong in their own collection, pointing at the parent. */
  | 'stop-embedding'
  /** Keep a `@counter` of the list in the parent: its aggregates read a bare count far more often than children come and go. */
  | 'add-counter'
  /** Keep a `@total` of a field of the list in the parent: its aggregates read that field's unfiltered sum (or mean) far more often than children change. */
  | 'add-total'
  /** Read the join with `$lookup` inside its parents' command: the round trips it saves outweigh the copies of shared documents it adds. */
  | 'read-by-lookup';

/**
 * The anti-patterns MongoDB's Atlas advisor names, when the data shows them; and `broadcast-join`: a
 * join a sharded cluster would send to every shard (its target sharded by another key than the one the
 * join looks up, `mongodb.shardKeys`).
 */
export type AntiPattern = 'unbounded-array' | 'oversized-documents' | 'join-on-every-request' | 'broadcast-join';

/** Before and after a change, per 1,000 of what the workload recorded. */
export interface EffectPair {
  readonly before: number;
  readonly after: number;
}

/** The predicted effect of the advice, measured from the recorded workload and the sampled data. */
export interface PredictedEffect {
  /** This field's MongoDB round trips per 1,000 queries. Undefined without a recorded workload. */
  readonly roundTripsPer1000Queries: EffectPair | undefined;
  /** Documents written per 1,000 mutations (write amplification), all mutations counted. Undefined without mutations recorded, or when the writes could not be priced. */
  readonly documentsWrittenPer1000Mutations: EffectPair | undefined;
  /** Round trips per 1,000 mutations, all mutations counted: the extra commands copies cost, or those they stop costing. */
  readonly mutationRoundTripsPer1000Mutations?: EffectPair | undefined;
  /** Reads and writes in one currency, on the whole recorded workload; undefined when the change was not priced. */
  readonly net?: NetEffect | undefined;
  /** The largest sampled document of the parent's collection, in bytes (after: estimated). */
  readonly largestDocumentBytes: EffectPair | undefined;
}

/** A change's reads and writes together, per 1,000 operations of the recorded workload (queries and mutations). */
export interface NetEffect {
  readonly roundTripsPer1000Operations: EffectPair;
  /**
   * Milliseconds of MongoDB commands, as the gateway measured them (the network and the database),
   * priced per command and per rewritten copy (command-costs.ts).
   */
  readonly commandMsPer1000Operations: EffectPair;
  /** `assumed` for a workload recorded without command times (command-costs.ts ASSUMED_COSTS). */
  readonly commandCosts: 'measured' | 'assumed';
}

/** A change the workload argued for that was priced and not given (`docjoin advise --verbose` prints it). */
export interface RejectedAdvice {
  readonly kind: AdviceKind;
  readonly change: string;
  /** One line: what it would cost against what it would save, and the threshold. */
  readonly because: string;
  readonly effect: PredictedEffect;
  readonly evidence: readonly string[];
}

export interface FieldAdvice {
  /** `Type.field`. */
  readonly coordinate: string;
  /** The field's storage as its directives declare it, in one line. */
  readonly current: string;
  readonly kind: AdviceKind;
  /** The change in words, e.g. `add countOfBooks to the snapshot's fields`. */
  readonly change: string;
  /** The rule of thumb behind the advice, in one line. */
  readonly rule: string;
  readonly effect: PredictedEffect;
  readonly antiPatterns: readonly AntiPattern[];
  /** The numbers the advice rests on, one line each. */
  readonly evidence: readonly string[];
  /** For a snapshot change: the `fields` the snapshot should copy. */
  readonly snapshotFields?: readonly string[];
  /** For `add-counter`: the counter field to declare (`Category.productsCount`). */
  readonly counterField?: string;
  /** For `add-total`: the total field to declare (`Product.ratingTotal`), and the field of the children it sums. */
  readonly totalField?: string;
  readonly summedField?: string;
  /** For `bound-array`: the suggested `@join(limit:)`. */
  readonly suggestedLimit?: number;
  /** For a snapshot change that copies fields looking like personal data (personal-data.ts): which, and where to. */
  readonly personalData?: PersonalDataCopy;
  /** For `keep`: the change the workload argued for, and why it was not given. */
  readonly rejected?: RejectedAdvice;
}

export interface PersonalDataCopy {
  /** The newly copied fields that look personal, as `email (e-mail address)`. */
  readonly fields: readonly string[];
  /**
   * Each collection (or, for copies inside an embedded type, the type) the copies would go into: the
   * field's own, and those holding copies of its documents; with its documents (the estimated count),
   * undefined when not sampled.
   */
  readonly copiedInto: ReadonlyArray<{ readonly collection: string; readonly documents: number | undefined }>;
}

export interface AdviceReport {
  /** Queries and mutations the recorded workload holds (0 and 0 without one). */
  readonly workload: { readonly queries: number; readonly mutations: number };
  /** Every relation field, in coordinate order. */
  readonly fields: readonly FieldAdvice[];
}
