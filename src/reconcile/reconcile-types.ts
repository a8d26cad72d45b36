/** What `reconcile` reports: one entry per declared copy rule, in the order they were checked. */

export type DriftKind = 'snapshot' | 'bounded-array' | 'inverse' | 'counter';

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
  /** Up to SAMPLE_SIZE `_id`s (24-hex) of drifted documents. */
  readonly sampleIds: string[];
}

export interface ReconcileReport {
  readonly fix: boolean;
  readonly checks: readonly DriftReport[];
  /** Drifted documents over every check. */
  readonly drifted: number;
  readonly fixed: number;
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
}

export const SAMPLE_SIZE = 5;
export const DEFAULT_BATCH_SIZE = 500;
