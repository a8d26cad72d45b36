import type { Db } from 'mongodb';
import type { SnapshotLocation } from '../gateway/writes/write-model-types';
import { snapshotCheck } from '../reconcile/check-snapshot';
import { requireCollections } from '../reconcile/reconcile';
import type { DriftReport, ReconcileProgress } from '../reconcile/reconcile-types';
import { scanInBatches } from '../reconcile/scan-batches';
import { migrationsCollection, type SnapshotBackfillMarker } from './migration-marker';
import { SNAPSHOT_BACKFILL } from '../gateway/estimate/copy-backfills';

export interface SnapshotBackfill {
  /** `Type.field`: the marker's `_id`. */
  readonly coordinate: string;
  /** The fields added to the copies (the marker's `fields`). */
  readonly fields: readonly string[];
  /**
   * Every location of the snapshot in the widened write model: `coordinate` itself, and its copies
   * inside embedded copies of its type (`Host.recentLogs.host` for `LogMessage.host`).
   */
  readonly locations: readonly SnapshotLocation[];
}

export interface BackfillOptions {
  readonly batchSize: number;
  readonly onProgress?: (progress: ReconcileProgress) => void;
  /** After each batch of `coordinate`'s collection is written and the marker moved past it; a throw stops the backfill there. */
  readonly onBatch?: (lastId: unknown, report: DriftReport) => Promise<void> | void;
}

export interface BackfillResult {
  /** Where this run started: the `resumeAfter` of an unfinished marker for the same fields. */
  readonly resumedAfter: unknown;
  /** One report per location, `coordinate`'s first: documents scanned and copies rewritten (`fixed`) by this run. */
  readonly reports: readonly DriftReport[];
}

/**
 * Fills the copies with their sources' fields: reconcile's snapshot fix with the widened model, in `_id`
 * batches, each batch one guarded bulk write. The marker records the last `_id` done after each batch of
 * `coordinate`'s own collection, so a rerun after a kill reads on from there; copies inside embedded
 * copies (other collections, usually few) are rescanned whole, which is harmless: only documents that
 * still differ from their sources are written.
 */
export async function backfillSnapshot(db: Db, backfill: SnapshotBackfill, options: BackfillOptions): Promise<BackfillResult> {
  await requireCollections(db, { snapshots: backfill.locations, boundedArrays: [], inverses: [], counters: [] });
  const markers = migrationsCollection(db);
  const marker = await markers.findOne({ _id: backfill.coordinate });
  const resuming = marker !== null && marker.kind === SNAPSHOT_BACKFILL && marker.finishedAt === undefined && sameSet(marker.fields, backfill.fields);
  const resumedAfter = resuming ? (marker.resumeAfter ?? undefined) : undefined;
  if (!resuming) {
    const fresh: SnapshotBackfillMarker = { _id: backfill.coordinate, kind: SNAPSHOT_BACKFILL, fields: [...backfill.fields], startedAt: new Date(), resumeAfter: null };
    await markers.replaceOne({ _id: backfill.coordinate }, fresh, { upsert: true });
  }
  const reports: DriftReport[] = [];
  const ordered = [...backfill.locations].sort((a, b) => Number(b.coordinate === backfill.coordinate) - Number(a.coordinate === backfill.coordinate));
  for (const location of ordered) {
    const own = location.coordinate === backfill.coordinate;
    const check = snapshotCheck(db, location);
    const target = { coordinate: location.coordinate, kind: 'snapshot' as const, collection: location.collection, projection: check.projection };
    const scan = {
      batchSize: options.batchSize,
      fix: true,
      onProgress: options.onProgress,
      ...(own && {
        after: resumedAfter,
        onBatch: async (lastId: unknown, report: DriftReport) => {
          await markers.updateOne({ _id: backfill.coordinate }, { $set: { resumeAfter: lastId } });
          await options.onBatch?.(lastId, report);
        },
      }),
    };
    reports.push(await scanInBatches(db, target, scan, (batch, report) => check.check(batch, report)));
  }
  await markers.updateOne({ _id: backfill.coordinate }, { $set: { finishedAt: new Date() } });
  return { resumedAfter, reports };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}
