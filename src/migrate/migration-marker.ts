import type { Db } from 'mongodb';
import { MIGRATIONS_COLLECTION, SNAPSHOT_BACKFILL } from '../gateway/estimate/copy-backfills';

/**
 * The marker of a snapshot backfill, one document per `Type.field` in `docjoin_migrations` of the
 * migrated database (the gateway's copy-backfills.ts owns the names, as it reads the markers). While `finishedAt` is unset, copies may lack `fields`: the gateway reads the marker
 * to keep its estimate an upper bound, and a rerun of `docjoin migrate` continues after `resumeAfter`.
 */
export { MIGRATIONS_COLLECTION };

export interface SnapshotBackfillMarker {
  /** `Type.field` of the snapshot. */
  readonly _id: string;
  readonly kind: typeof SNAPSHOT_BACKFILL;
  /** The fields being added to the copies. */
  readonly fields: readonly string[];
  readonly startedAt: Date;
  /** The `_id` of the last copy-holding document done (in `_id` order); null before the first batch. */
  readonly resumeAfter: unknown;
  readonly finishedAt?: Date;
}

export function migrationsCollection(db: Db) {
  return db.collection<SnapshotBackfillMarker>(MIGRATIONS_COLLECTION);
}
