import type { Db } from 'mongodb';
import type { SnapshotLocation, WriteModel } from '../gateway';
import { boundedArrayCheck } from './check-bounded-array';
import { counterCheck } from './check-counter';
import { totalCheck } from './check-total';
import { inverseCheck } from './check-inverse';
import { snapshotCheck, type CopyFilling } from './check-snapshot';
import { scanInBatches, type Check } from './scan-batches';
import { keyMoveCheck } from './check-moved-key';
import { MIGRATIONS_COLLECTION, SNAPSHOT_BACKFILL } from '../gateway';
export type { Check } from './scan-batches';
import { DEFAULT_BATCH_SIZE, DEFAULT_SETTLE_MS, ReconcileMismatchError, type DriftReport, type ReconcileOptions, type ReconcileReport } from './reconcile-types';


/**
 * Compares every copy the write model declares with its sources and, with `fix`, repairs the drift in
 * batches. Order matters when fixing: counters first (they count the truth side, never a possibly stale
 * id list, and a snapshot may copy one), then snapshots (the copies inside children are then true),
 * bounded arrays (rebuilt from those children), inverse arrays, and totals last (a total may sum a value
 * its children copy, and no snapshot copies a total: startup refuses it). Each check judges the
 * data as the checks before it leave it (a bounded array compares its snapshots as their sources say),
 * so a second run after a fix reports zero drift; a report without `fix` lists what `fix` repairs, but
 * for the copies of a drifted counter, which it finds once the counter is true.
 */
export async function reconcile(db: Db, model: WriteModel, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`reconcile: batchSize must be a positive integer, got ${batchSize}`);
  const fix = options.fix ?? false;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  if (!Number.isInteger(settleMs) || settleMs < 0) throw new RangeError(`reconcile: settleMs must be a non-negative integer, got ${settleMs}`);
  const settle = options.settle ?? (() => new Promise<void>((resolve) => setTimeout(resolve, settleMs)));
  await requireCollections(db, model);
  const reports: DriftReport[] = [];
  for (const check of reconcileChecks(db, model, await recordedKeyMoves(db))) {
    const movedByIncrements = check.kind === 'counter' || check.kind === 'total';
    reports.push(await scanInBatches(db, check, { batchSize, fix, onProgress: options.onProgress, settle: movedByIncrements ? settle : undefined }, (batch, report) => check.check(batch, report)));
  }
  return {
    fix,
    checks: reports,
    drifted: reports.reduce((sum, report) => sum + report.drifted, 0),
    fixed: reports.reduce((sum, report) => sum + report.fixed, 0),
    mismatches: reports.flatMap((report) => {
      const location = model.snapshots.find((candidate) => candidate.coordinate === report.coordinate);
      if (report.kind !== 'snapshot' || !location) return [];
      const dangling = everyCopyDangles(report, location);
      if (dangling) return [dangling];
      if (report.entries === 0 && report.missing > 0) {
        return [
          `no ${location.collection} document holds a ${report.coordinate} copy (${report.missing} missing): is this the database the schema describes? If the snapshot was never backfilled and its key still sits in an old reference, put the plain @join on it back and run docjoin migrate --add-snapshot ${location.field} --fields … --write`,
        ];
      }
      return [];
    }),
    warnings: reports.flatMap((report) => {
      const location = model.snapshots.find((candidate) => candidate.coordinate === report.coordinate);
      if (report.kind !== 'snapshot' || !location || location.required || location.segments.length > 1 || report.scanned === 0 || report.entries > 0) return [];
      return [`no ${location.collection} document holds a ${report.coordinate} copy: if the snapshot was never backfilled and its key still sits in an old reference, put the plain @join on it back and run docjoin migrate --add-snapshot ${location.field} --fields … --write`];
    }),
  };
}

/**
 * A snapshot whose every copy points at no source document: nothing can be copied into them, which
 * says the keys are not where the schema says, or the database is not the one it describes.
 */
export function everyCopyDangles(report: DriftReport, location: Pick<SnapshotLocation, 'sourceCollection'>): string | undefined {
  if (report.kind !== 'snapshot' || report.entries === 0 || report.dangling < report.entries) return undefined;
  return `every one of the ${report.entries} ${report.coordinate} copies points at no ${location.sourceCollection} document: are the keys kept inside the copies, and is this the database the schema describes?`;
}

/**
 * The checks of every rule of `model`, in the order reconcile runs them (see reconcile). A snapshot whose
 * key `docjoin migrate` moved into the copy (`keyMoves`: the field's old reference) is checked as the
 * migration fills it, so a parent a gateway on the old schema wrote without the copy gets it from that
 * reference.
 */
export function reconcileChecks(db: Db, model: ReconciledRules, keyMoves: ReadonlyMap<string, string> = new Map(), filling: CopyFilling = {}): Check[] {
  return [
    ...model.counters.map((counter) => ({ coordinate: counter.coordinate, kind: 'counter' as const, collection: counter.collection, ...counterCheck(db, counter) })),
    ...model.snapshots.map((location) => {
      const from = keyMoves.get(location.field);
      return from === undefined
        ? { coordinate: location.coordinate, kind: 'snapshot' as const, collection: location.collection, ...snapshotCheck(db, location, filling) }
        : keyMoveCheck(db, { location, from, copyIsTruth: true });
    }),
    ...model.boundedArrays.map((array) => ({ coordinate: array.coordinate, kind: 'bounded-array' as const, collection: array.collection, ...boundedArrayCheck(db, array, model.snapshots) })),
    ...model.inverses.map((rule) => ({ coordinate: rule.coordinate, kind: 'inverse' as const, collection: rule.collection, ...inverseCheck(db, rule) })),
    ...(model.totals ?? []).map((total) => ({ coordinate: total.coordinate, kind: 'total' as const, collection: total.collection, ...totalCheck(db, total) })),
  ];
}

/** The rules reconcile checks; a migration's backfill passes only those it fills. */
type ReconciledRules = Pick<WriteModel, 'snapshots' | 'boundedArrays' | 'inverses' | 'counters'> & Partial<Pick<WriteModel, 'totals'>>;

/** The snapshots `docjoin migrate --add-snapshot` moved a key into, with the reference each moved from (its markers). */
async function recordedKeyMoves(db: Db): Promise<Map<string, string>> {
  const markers = await db.collection<{ _id: string; from?: string }>(MIGRATIONS_COLLECTION).find({ kind: SNAPSHOT_BACKFILL, from: { $type: 'string' } }).toArray();
  return new Map(markers.map((marker) => [marker._id, marker.from!]));
}

/** Every collection a rule reads must exist: checking against a missing one would report "no drift". */
export async function requireCollections(db: Db, model: ReconciledRules): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
  // Each collection with the first rule that needs it, for the message.
  const needed = new Map<string, string>();
  const need = (collection: string, coordinate: string) => needed.has(collection) || needed.set(collection, coordinate);
  for (const location of model.snapshots) {
    need(location.collection, location.coordinate);
    need(location.sourceCollection, location.coordinate);
  }
  for (const rule of [...model.boundedArrays, ...model.inverses, ...model.counters, ...(model.totals ?? [])]) need(rule.collection, rule.coordinate);
  // And the collections they are derived from: against a missing one, every array would be emptied and every count zeroed.
  for (const array of model.boundedArrays) need(array.childCollection, array.coordinate);
  for (const inverse of model.inverses) need(inverse.truthCollection, inverse.coordinate);
  for (const counter of model.counters) need(counter.source.kind === 'children' ? counter.source.childCollection : counter.source.inverse.truthCollection, counter.coordinate);
  for (const total of model.totals ?? []) need(total.childCollection, total.coordinate);
  const missing = [...needed].filter(([collection]) => !existing.has(collection));
  if (missing.length > 0) {
    throw new ReconcileMismatchError(missing.map(([collection, coordinate]) => `collection "${collection}" (${coordinate}) does not exist in database "${db.databaseName}"`));
  }
}
