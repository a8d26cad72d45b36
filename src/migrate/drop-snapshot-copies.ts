import type { Db, Document } from 'mongodb';
import type { BoundedArray, WriteModel } from '../gateway';
import { reconcileChecks } from '../reconcile/reconcile';
import type { DriftReport, ReconcileProgress } from '../reconcile/reconcile-types';
import { scanInBatches, type Repair } from '../reconcile/scan-batches';

/** Where the copies of a dropped snapshot live, read from the join that now serves the field (`authors.id`). */
export interface DroppedSnapshot {
  readonly coordinate: string;
  readonly collection: string;
  /** The top-level field holding the copies (`authors`): an object or an array of them. */
  readonly path: string;
  /** The copies' field the join reads (`id`): always kept. */
  readonly key: string;
  /** The target's fields a copy kept under their names (`name`, `thumbnailUrl`): the ones removed; any other field stays. */
  readonly copiedFields: readonly string[];
  /** The type the copies were of (`Author`). */
  readonly targetType: string;
}

/** What dropping the copies did, and the fields it left in them. */
export interface DroppedCopies {
  readonly report: DriftReport;
  readonly kept: KeptFields;
}

/**
 * The names, besides the key, that copies hold and the target does not declare: left where they are,
 * since nothing says they were copied. An older schema may have copied them, personal data perhaps,
 * so the operator is told.
 */
export interface KeptFields {
  /** Sorted; at most MAX_KEPT_NAMES. */
  readonly names: readonly string[];
  /** Copies held more names than `names` lists. */
  readonly more: boolean;
  /** Where copies holding them were found: a copy alone at the path, or in an array there. */
  readonly inObjects: boolean;
  readonly inArrays: boolean;
}

const MAX_KEPT_NAMES = 20;

/**
 * Reduces every copy at `path` to its key, in `_id` batches, each batch one bulk write whose updates are
 * guarded by the value read (reconcile's scan), so a write that raced the scan is never overwritten.
 * `drifted`/`fixed` in the report count documents that still held copied fields / were rewritten.
 * With `fix: false` (a dry run) nothing is written.
 */
export async function dropSnapshotCopies(db: Db, dropped: DroppedSnapshot, options: { batchSize: number; fix: boolean; onProgress?: (progress: ReconcileProgress) => void }): Promise<DroppedCopies> {
  const target = { coordinate: dropped.coordinate, kind: 'snapshot' as const, collection: dropped.collection, projection: { _id: 1, [dropped.path]: 1 } };
  const kept = new Set<string>();
  const found = { more: false, inObjects: false, inArrays: false };
  const report = await scanInBatches(db, target, { batchSize: options.batchSize, fix: options.fix, onProgress: options.onProgress }, async (batch: Document[]) => {
    const repairs: Repair[] = [];
    for (const document of batch) {
      const value: unknown = document[dropped.path];
      const copies: unknown[] = Array.isArray(value) ? value : [value];
      for (const copy of copies) {
        const names = keptNames(copy, dropped);
        if (names.length === 0) continue;
        found[Array.isArray(value) ? 'inArrays' : 'inObjects'] = true;
        for (const name of names) {
          if (kept.size < MAX_KEPT_NAMES) kept.add(name);
          else if (!kept.has(name)) found.more = true;
        }
      }
      const reduce = (copy: unknown) => withoutCopiedFields(copy, dropped);
      if (copies.every((copy) => reduce(copy) === copy)) continue;
      const reduced = Array.isArray(value) ? value.map(reduce) : reduce(value);
      repairs.push({ id: document._id, filter: { _id: document._id, [dropped.path]: value ?? null }, update: { $set: { [dropped.path]: reduced } } });
    }
    return repairs;
  });
  return { report, kept: { names: [...kept].sort(), ...found } };
}

/** The bounded arrays keeping whole `typeName` documents (`Host.recentLogs` of LogMessages, each with its `host` copy): they hold its dropped copies too. */
export function arraysHolding(model: WriteModel, typeName: string): BoundedArray[] {
  return model.boundedArrays.filter((array) => array.childType === typeName);
}

/** Rebuilds `arrays` from the documents they keep, which no longer hold the dropped copies, as `reconcile --fix` would. */
export async function rebuildArrays(db: Db, model: WriteModel, arrays: readonly BoundedArray[], options: { batchSize: number; onProgress?: (progress: ReconcileProgress) => void }): Promise<DriftReport[]> {
  const reports: DriftReport[] = [];
  // The snapshots are given for the arrays' entries to be compared as their sources say; they are not checked themselves.
  const checks = reconcileChecks(db, { snapshots: model.snapshots, boundedArrays: [...arrays], inverses: [], counters: [] }).filter((check) => check.kind === 'bounded-array');
  for (const check of checks) {
    reports.push(await scanInBatches(db, check, { ...options, fix: true }, (batch, report) => check.check(batch, report)));
  }
  return reports;
}

/** The names in a copy that are neither its key nor a field of the target. */
function keptNames(copy: unknown, dropped: DroppedSnapshot): string[] {
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy) || !(dropped.key in copy)) return [];
  return Object.keys(copy).filter((name) => name !== dropped.key && !dropped.copiedFields.includes(name));
}

/** A copy without the target's copied fields; anything else (no key: not a copy; nothing copied left) as it is, same reference. */
function withoutCopiedFields(copy: unknown, dropped: DroppedSnapshot): unknown {
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) return copy;
  const record = copy as Record<string, unknown>;
  if (!(dropped.key in record) || !dropped.copiedFields.some((name) => name in record)) return copy;
  return Object.fromEntries(Object.entries(record).filter(([name]) => !dropped.copiedFields.includes(name)));
}
