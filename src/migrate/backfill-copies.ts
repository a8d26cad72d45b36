import type { Db } from 'mongodb';
import type { WriteModel } from '../gateway';
import { reconcileChecks, requireCollections, type Check } from '../reconcile/reconcile';
import type { DriftReport, ReconcileProgress } from '../reconcile/reconcile-types';
import { scanInBatches } from '../reconcile/scan-batches';
import { migrationsCollection, type BackfillKind, type MigrationMarker } from './migration-marker';

export interface CopyBackfill {
  /** `Type.field` of the copy: the marker's `_id`. */
  readonly coordinate: string;
  readonly kind: BackfillKind;
  /** A snapshot's: the fields added to its copies (the marker's `fields`). */
  readonly fields?: readonly string[];
  /** A snapshot added to a plain join: the path its key moves from (the marker's `from`). */
  readonly from?: string;
  /** The rules filled, whose collections must exist. */
  readonly rules: Pick<WriteModel, 'snapshots' | 'boundedArrays' | 'counters'> & Partial<Pick<WriteModel, 'totals'>>;
  /** The checks that fill the copies, `coordinate`'s own first (resumable; the others are rescanned whole). */
  checks(db: Db): Check[];
}

/**
 * The backfill of `copies` by reconcile's own checks of the write model after the change: `coordinate`
 * itself and, for a snapshot, its copies inside embedded copies of its type (`Host.recentLogs.host` for
 * `LogMessage.host`). Each check judges with the whole model (a bounded array compares its entries'
 * snapshots as their sources say).
 */
export function reconcileBackfill(coordinate: string, kind: BackfillKind, model: WriteModel, copies: readonly string[], fields?: readonly string[]): CopyBackfill {
  const copied = (rule: { coordinate: string }) => copies.includes(rule.coordinate);
  return {
    coordinate,
    kind,
    ...(fields && { fields }),
    rules: { snapshots: model.snapshots.filter(copied), boundedArrays: model.boundedArrays.filter(copied), counters: model.counters.filter(copied), totals: model.totals.filter(copied) },
    // A field a source lacks is copied as the null a gateway's write copies: a copy lacking it would be joined on every read.
    checks: (db) => ownFirst(coordinate, reconcileChecks(db, model, new Map(), { fillAbsent: true }).filter(copied)),
  };
}

export function ownFirst(coordinate: string, checks: Check[]): Check[] {
  return checks.sort((a, b) => Number(b.coordinate === coordinate) - Number(a.coordinate === coordinate));
}

export interface BackfillOptions {
  readonly batchSize: number;
  readonly onProgress?: (progress: ReconcileProgress) => void;
  /** After each batch of `coordinate`'s collection is written and the marker moved past it; a throw stops the backfill there. */
  readonly onBatch?: (lastId: unknown, report: DriftReport) => Promise<void> | void;
}

export interface BackfillResult {
  /** Where this run started: the `resumeAfter` of an unfinished marker for the same change. */
  readonly resumedAfter: unknown;
  /** When the same change was finished, if it was: a rerun keeps it finished. */
  readonly finishedAt: Date | undefined;
  /** One report per copy, `coordinate`'s first: documents scanned and copies rewritten (`fixed`) by this run. */
  readonly reports: readonly DriftReport[];
}

/** Every collection the backfill reads must exist: against a missing one it would empty arrays and zero counts. */
export function requireBackfillCollections(db: Db, backfill: CopyBackfill): Promise<void> {
  return requireCollections(db, { ...backfill.rules, inverses: [] });
}

/**
 * Fills the copies from their sources: reconcile's fix of those rules, in `_id` batches, each batch one
 * guarded bulk write (a document changed since it was read is left for the next pass). The marker records
 * the last `_id` done after each batch of `coordinate`'s own collection, so a rerun after a kill reads on
 * from there; copies inside embedded copies (other collections, usually few) are rescanned whole, which
 * is harmless: only documents that still differ from their sources are written.
 */
export async function backfillCopies(db: Db, backfill: CopyBackfill, options: BackfillOptions): Promise<BackfillResult> {
  const checks = backfill.checks(db);
  await requireBackfillCollections(db, backfill);
  const markers = migrationsCollection(db);
  const marker = await markers.findOne({ _id: backfill.coordinate });
  const sameChange = marker !== null && marker.kind === backfill.kind && sameSet(marker.fields ?? [], backfill.fields ?? []);
  const resuming = sameChange && marker.finishedAt === undefined;
  const resumedAfter = resuming ? (marker.resumeAfter ?? undefined) : undefined;
  // A finished change run again is a repair pass: gateways go on trusting its copies meanwhile.
  const finishedAt = sameChange ? marker.finishedAt : undefined;
  if (!sameChange) {
    const fresh: MigrationMarker = {
      _id: backfill.coordinate,
      kind: backfill.kind,
      ...(backfill.fields && { fields: [...backfill.fields] }),
      ...(backfill.from !== undefined && { from: backfill.from }),
      startedAt: new Date(),
      resumeAfter: null,
    };
    await markers.replaceOne({ _id: backfill.coordinate }, fresh, { upsert: true });
  }
  const reports: DriftReport[] = [];
  for (const check of checks) {
    const own = check.coordinate === backfill.coordinate;
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
    reports.push(await scanInBatches(db, check, scan, (batch, report) => check.check(batch, report)));
  }
  return { resumedAfter, finishedAt, reports };
}

/**
 * The closing check of the copies (no fix). No drift finishes the marker when `finish` says so: from
 * then on gateways trust the copies. Else (drift: writes of a gateway that does not yet keep them, or
 * no word yet that every gateway does) it stays unfinished, and the next run starts a whole new pass.
 */
export async function checkBackfill(db: Db, backfill: CopyBackfill, options: { batchSize: number; finish: boolean }): Promise<readonly DriftReport[]> {
  const reports = await scanWithoutFixing(db, backfill, { batchSize: options.batchSize });
  const clean = reports.every((report) => report.drifted === 0);
  if (clean && options.finish) await migrationsCollection(db).updateOne({ _id: backfill.coordinate }, { $set: { finishedAt: new Date() } });
  else await restartBackfill(db, backfill);
  return reports;
}

/** Forgets how far the backfill got: its next run scans every document again. */
export async function restartBackfill(db: Db, backfill: CopyBackfill): Promise<void> {
  await migrationsCollection(db).updateOne({ _id: backfill.coordinate }, { $set: { resumeAfter: null } });
}

/**
 * What backfillCopies would do, writing nothing (not even the marker): per copy, the documents it reads
 * and those whose copies differ from what the backfill would set (`drifted`: the ones it would rewrite).
 */
export async function previewBackfill(db: Db, backfill: CopyBackfill, options: Pick<BackfillOptions, 'batchSize' | 'onProgress'>): Promise<readonly DriftReport[]> {
  await requireBackfillCollections(db, backfill);
  return scanWithoutFixing(db, backfill, options);
}

async function scanWithoutFixing(db: Db, backfill: CopyBackfill, options: Pick<BackfillOptions, 'batchSize' | 'onProgress'>): Promise<DriftReport[]> {
  const reports: DriftReport[] = [];
  for (const check of backfill.checks(db)) reports.push(await scanInBatches(db, check, { batchSize: options.batchSize, fix: false, onProgress: options.onProgress }, (batch, report) => check.check(batch, report)));
  return reports;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}
