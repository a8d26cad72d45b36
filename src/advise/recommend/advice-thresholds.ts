import { DEFAULT_ASSUMED_LIST_SIZE } from '../../gateway';

/** Where the advice draws its lines; every one can be changed (`docjoin advise --help`). */
export interface AdviceThresholds {
  /** An array no `limit` bounds is flagged from this many entries in a sampled parent. */
  readonly unboundedArrayLength: number;
  /** …or when it grows by at least this many entries per day of its parent's age. */
  readonly growingEntriesPerDay: number;
  /** Past this many entries (or with documents near the 16 MB limit) the children should leave the parent. */
  readonly stopEmbeddingLength: number;
  /** A snapshot that cost at least this many copies rewritten per round trip it saved should go. */
  readonly dropSnapshotAmplification: number;
  /** A snapshot is widened when reads missed it, for fields it could copy, in at least this share of its reads. */
  readonly widenMinMissShare: number;
  /** A join switches to its snapshot, or gains one, when at least this share of its reads fit the copy. */
  readonly switchDefaultShare: number;
  /** A join read by at least this share of the queries is a join on every request. */
  readonly everyRequestShare: number;
  /** The `@join(limit:)` suggested for an array to bound: docjoin's page size. */
  readonly suggestedLimit: number;
  /**
   * A snapshot change is given only when, on the recorded workload, it saves more than this share of the
   * MongoDB command time (of the round trips, for a workload recorded without times), reads and writes
   * counted together.
   */
  readonly minNetSavingShare: number;
}

export const DEFAULT_ADVICE_THRESHOLDS: AdviceThresholds = {
  unboundedArrayLength: 100,
  growingEntriesPerDay: 1,
  stopEmbeddingLength: 1000,
  dropSnapshotAmplification: 100,
  widenMinMissShare: 0.05,
  switchDefaultShare: 0.5,
  everyRequestShare: 0.9,
  suggestedLimit: DEFAULT_ASSUMED_LIST_SIZE,
  minNetSavingShare: 0.01,
};
