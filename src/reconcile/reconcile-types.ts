/** What `reconcile` reports: one entry per declared copy rule, in the order they were checked. */

export type DriftKind = 'snapshot' | 'bounded-array' | 'inverse' | 'counter' | 'total';

export interface DriftReport {
  /** `Book.authors`, `Host.recentLogs.host`, `Author.countOfBooks`, … */
  readonly coordinate: string;
  readonly kind: DriftKind;
  /** The collection holding the copies. */
  readonly collection: string;
  /** Documents read. */
  scanned: number;
  /** Documents whose copy differs from its sources. */
  drifted: number;
  /** Drifted documents repaired (only with `fix`). */
  fixed: number;
  /** Snapshot entries whose source document no longer exists (reported, never "fixed"). */
  dangling: number;
  /**
   * Copies a non-null snapshot field lacks (absent or null) where nothing says which source they would
   * copy (reported, never "fixed"): a snapshot declared and never backfilled, or parents written by a
   * gateway that did not know it. With a key move's reference (`docjoin migrate`), they are drift instead.
   */
  missing: number;
  /** Snapshot entries checked (each copy once). */
  entries: number;
  /** Up to SAMPLE_SIZE `_id`s (24-hex) of drifted documents. */
  readonly sampleIds: string[];
}

export interface ReconcileReport {
  readonly fix: boolean;
  readonly checks: readonly DriftReport[];
  /** Drifted documents over every check. */
  readonly drifted: number;
  readonly fixed: number;
  /**
   * Why the data and the schema look like they disagree, one line each: snapshot checks every copy of
   * which dangles (keys kept elsewhere, or another collection). Empty when they agree.
   */
  readonly mismatches: readonly string[];
  /** What looks wrong but may not be, one line each: a nullable snapshot no document holds a copy of. */
  readonly warnings: readonly string[];
}

/** The database lacks what the schema describes (a collection), so nothing it would check can be trusted. */
export class ReconcileMismatchError extends Error {
  override readonly name = 'ReconcileMismatchError';
  constructor(readonly problems: readonly string[]) {
    super(`the database does not match the schema: ${problems.join('; ')}`);
  }
}

export interface ReconcileProgress {
  readonly coordinate: string;
  readonly kind: DriftKind;
  readonly scanned: number;
  readonly total: number;
}

export interface ReconcileOptions {
  /** Repair what is found (default false: report only). */
  readonly fix?: boolean;
  /** Documents per read batch and per repair command (default 500). */
  readonly batchSize?: number;
  /** Called after every batch, and once with `scanned: 0` when a check starts. */
  readonly onProgress?: (progress: ReconcileProgress) => void;
  /**
   * Milliseconds between two looks at a drifted counter or total (default 1000): a write without a
   * transaction that has changed the children but not yet incremented the parent is in flight, not
   * drift. Only what both looks find wrong the same way is reported and fixed.
   */
  readonly settleMs?: number;
  /** What is awaited between those two looks instead of `settleMs` (a caller that knows when its writers are idle). */
  readonly settle?: () => Promise<void>;
}

export const DEFAULT_SETTLE_MS = 1000;

export const SAMPLE_SIZE = 5;
export const DEFAULT_BATCH_SIZE = 500;
