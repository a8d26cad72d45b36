import type { Db } from 'mongodb';
import { COUNTER_BACKFILL, EMBEDDED_BACKFILL, MIGRATIONS_COLLECTION, SNAPSHOT_BACKFILL, TOTAL_BACKFILL } from '../gateway';

/**
 * The marker of a backfill, one document per `Type.field` in `docjoin_migrations` of the migrated
 * database (the gateway's copy-backfills.ts owns the names, as it reads the markers). While `finishedAt`
 * is unset the copies are not to be trusted: the gateway joins (or counts) where they may be incomplete
 * and counts that in its estimate, and a rerun of `docjoin migrate` continues after `resumeAfter`.
 */
export { MIGRATIONS_COLLECTION };

export type BackfillKind = typeof SNAPSHOT_BACKFILL | typeof EMBEDDED_BACKFILL | typeof COUNTER_BACKFILL | typeof TOTAL_BACKFILL;

export interface MigrationMarker {
  /** `Type.field` of the copy: a snapshot, a bounded array, a counter or a total. */
  readonly _id: string;
  readonly kind: BackfillKind;
  /** A snapshot's: the fields being added to its copies. */
  readonly fields?: readonly string[];
  /** A snapshot added to a plain join: the path its key moves from (`publisherId` for `publisher.id`). */
  readonly from?: string;
  readonly startedAt: Date;
  /** The `_id` of the last copy-holding document done (in `_id` order); null before the first batch, and again after a pass that left drift. */
  readonly resumeAfter: unknown;
  /** Set once a pass ends with the copy's check finding no drift. */
  readonly finishedAt?: Date;
}

export function migrationsCollection(db: Db) {
  return db.collection<MigrationMarker>(MIGRATIONS_COLLECTION);
}
