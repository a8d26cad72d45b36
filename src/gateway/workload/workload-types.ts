import type { ReadStrategy } from '../startup/storage-map/storage-map-types';

/**
 * The workload a gateway recorded (workload capture, see README.md): plain data, as stored in a flush
 * and as `readWorkload` sums the flushes. Lists are sorted (fields by coordinate then strategy, missing
 * sets by their names, mutations by coordinate, fan-out by collection), so equal workloads are equal JSON.
 */

/** Where recording goes: `createGateway({ workload })`, DOCJOIN_WORKLOAD. */
export type WorkloadOption = false | WorkloadFileOption | WorkloadCollectionOption;

export interface WorkloadFileOption {
  /** A JSON-lines file, appended one line per flush (relative paths from the working directory; in a project's config, from its folder). */
  readonly file: string;
  /** How often the counters are written (default 60,000 ms); the last ones on stop. */
  readonly flushIntervalMs?: number;
}

export interface WorkloadCollectionOption {
  /** A collection of the gateway's database, one document per flush. */
  readonly collection: string;
  readonly flushIntervalMs?: number;
}

/** What a flush holds: the counts of the operations that finished between `start` and `end`. */
export interface WorkloadWindow {
  /** The format of the stored window (1). */
  readonly docjoinWorkload: typeof WORKLOAD_FORMAT;
  readonly start: Date;
  readonly end: Date;
  readonly operations: OperationCounts;
  readonly fields: readonly FieldWorkload[];
  readonly mutations: readonly MutationWorkload[];
  readonly commands: CommandTimes;
}

export const WORKLOAD_FORMAT = 1;

/** Every flush of a file or a collection, summed. */
export interface WorkloadSummary {
  /** Flushes read. */
  readonly windows: number;
  /** The earliest window's start and the latest window's end; undefined when nothing was recorded. */
  readonly start: Date | undefined;
  readonly end: Date | undefined;
  readonly operations: OperationCounts;
  readonly fields: readonly FieldWorkload[];
  readonly mutations: readonly MutationWorkload[];
  readonly commands: CommandTimes;
}

/**
 * What MongoDB commands took, as the gateway measured them (driver command monitoring: the network and
 * the database), by kind: what `docjoin advise` prices a round trip and a rewritten copy with.
 */
export interface CommandTimes {
  /** Operations whose commands these are (those of windows written before times were recorded are not). */
  readonly operations: number;
  /** Commands that read: find, aggregate, getMore, count… */
  readonly reads: TimedCommands;
  /** Write commands (insert, update, delete, findAndModify) that modified at most one document. */
  readonly singleWrites: TimedCommands;
  /** Write commands that modified more (a snapshot's fan-out): `documents` is what they modified. */
  readonly multiWrites: TimedCommands;
  /** The rest: transaction commits and aborts, and any other command. */
  readonly others: TimedCommands;
}

export interface TimedCommands {
  readonly commands: number;
  /** Their durations summed, in milliseconds. */
  readonly ms: number;
  /** Documents they returned (reads) or modified (writes). */
  readonly documents: number;
}

/** No command timed. */
export const NO_COMMAND_TIMES: CommandTimes = Object.freeze({
  operations: 0,
  reads: Object.freeze({ commands: 0, ms: 0, documents: 0 }),
  singleWrites: Object.freeze({ commands: 0, ms: 0, documents: 0 }),
  multiWrites: Object.freeze({ commands: 0, ms: 0, documents: 0 }),
  others: Object.freeze({ commands: 0, ms: 0, documents: 0 }),
});

/** Operations that executed (one rejected before execution, by a limit or bad variables, is not counted). */
export interface OperationCounts {
  readonly query: OperationTotals;
  readonly mutation: OperationTotals;
}

/** Totals of the operations of one type, as their `extensions.cost` says. */
export interface OperationTotals {
  readonly count: number;
  readonly roundTrips: number;
  readonly documents: number;
  readonly bytes: number;
}

/**
 * One relation field read with one strategy: the sum of its `extensions.cost.fields` entries over the
 * operations where that entry named this strategy.
 */
export interface FieldWorkload {
  /** `Type.field`. */
  readonly field: string;
  readonly strategy: ReadStrategy;
  /** Operations that read the field. */
  readonly operations: number;
  /** Resolver calls: parent objects that read it, per alias. */
  readonly resolves: number;
  /** The distinct parent documents among them, per operation (FieldRead.parentDocuments); `resolves` in windows recorded before it was. */
  readonly parentDocuments: number;
  readonly roundTrips: number;
  /** The commands that served it and no other field (FieldRead.soleRoundTrips); `roundTrips` in windows recorded before it was. */
  readonly soleRoundTrips: number;
  readonly documents: number;
  /** Documents handed to its resolves, one under several parents once per parent (FieldRead.delivered); `documents` in windows recorded before it was. */
  readonly delivered: number;
  /** Reply bytes of the commands its loads took part in (a batch shared with another field counts for both, as roundTrips). */
  readonly bytes: number;
  readonly keys: number;
  /** Copies served from the snapshot, and copies fetched by its join instead (snapshot strategy only; else 0). */
  readonly snapshotHits: number;
  readonly snapshotMisses: number;
  readonly dangling: number;
  /** Why the snapshot missed: one entry per set of fields the copy lacked, at most 64 (see missingOther). */
  readonly missing: readonly MissingFields[];
  /** Misses whose set came after the first 64 distinct ones of a window. */
  readonly missingOther: MissCounts;
  /**
   * What join reads selected (join strategy only; else empty): one entry per set of target fields the
   * selection, filters and order read, at most 64 (see selectionsOther). A snapshot copying a set's
   * fields would have served its operations.
   */
  readonly selections: readonly SelectedFields[];
  /** Operations whose set came after the first 64 distinct ones of a window. */
  readonly selectionsOther: number;
}

export interface SelectedFields {
  /** The target's fields read, sorted. */
  readonly fields: readonly string[];
  /** Operations that read the field with this set (an operation may count under several, one per alias). */
  readonly operations: number;
}

export interface MissCounts {
  /** Operations in which the field missed for these fields. */
  readonly operations: number;
  /** Copies fetched by the join instead (summing to snapshotMisses with the other sets). */
  readonly misses: number;
}

export interface MissingFields extends MissCounts {
  /**
   * The fields selected (or filtered or ordered by) that the snapshot's `fields` lacked, sorted: had
   * they been copied, these misses would have been hits.
   */
  readonly fields: readonly string[];
}

/** One Mutation field's write units: what they wrote, copies included. */
export interface MutationWorkload {
  /** `Mutation.field`. */
  readonly field: string;
  /** Write units run (one per call of the field, per alias). */
  readonly runs: number;
  /** Units whose changes do not stand (a transaction that failed and was rolled back). */
  readonly failed: number;
  /** Runs of the units' work, retries of a transaction included. */
  readonly attempts: number;
  readonly roundTrips: number;
  readonly documentsModified: number;
  /** Documents modified per collection: the source and every copy it kept true (`extensions.cost.writes.fanOut`). */
  readonly fanOut: readonly CollectionFanOut[];
  /** Runs inside a transaction (the rest ran in order, without one). */
  readonly atomicRuns: number;
  /**
   * The source documents its runs changed that stand, per type and set of fields changed (a counter its
   * writes moved counts as a change of that field), at most 64 sets (see changesOther).
   */
  readonly changes: readonly SourceChangeCounts[];
  /** Source documents changed in sets that came after the first 64 distinct ones of a window. */
  readonly changesOther: number;
  /** Runs recorded by a docjoin that did not record source changes (windows written before it did): their changes are unknown. */
  readonly untrackedRuns: number;
}

export interface SourceChangeCounts {
  readonly typeName: string;
  /** GraphQL field names, sorted. */
  readonly fields: readonly string[];
  /** Source documents changed so: one per document per run. */
  readonly documents: number;
  /** A uniform sample of the distinct documents changed so (source-sample.ts), at most 32. */
  readonly sample: readonly SampledSource[];
}

export interface SampledSource {
  /** The document's `_id`, as the canonical Extended JSON of `{ "id": … }`. */
  readonly id: string;
  /** Its changes in this set. */
  readonly changes: number;
}

export interface CollectionFanOut {
  readonly collection: string;
  readonly documentsModified: number;
}
