import { EJSON } from 'bson';
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import type { DriftKind, DriftReport, ReconcileOptions } from './reconcile-types';
import { SAMPLE_SIZE } from './reconcile-types';
import { afterFilter, keyString } from '../gateway';

/** How many times a batch's repairs are read again and rewritten while racing writes keep changing their sources. */
const SETTLING_ROUNDS = 5;

/** A scan's order, resumed after the last `_id` it read across types (see afterFilter). */
const IN_ID_ORDER = [{ path: '_id', direction: 1 }] as const;

/** One drifted document and the update that repairs it (guarded by the value it was checked against). */
/** One rule's check: what to scan, and the repairs a batch needs. */
export interface Check {
  readonly coordinate: string;
  readonly kind: DriftKind;
  readonly collection: string;
  readonly projection: Document;
  check(batch: Document[], report: DriftReport): Promise<Repair[]>;
}

export interface Repair {
  readonly id: unknown;
  readonly filter: Document;
  readonly update: Document;
}

/** Where a scan starts and what it is told after each batch (`docjoin migrate` resumes a backfill with them). */
export interface ScanResume {
  /** Scan only the documents whose `_id` is greater than this (the last one an interrupted run finished). */
  readonly after?: unknown;
  /** Called after each batch's repairs are written, with the batch's last `_id`; a throw stops the scan there. */
  readonly onBatch?: (lastId: unknown, report: DriftReport) => Promise<void> | void;
  /**
   * For rules writes move by increments (counters, totals): waited on between two looks at a batch's
   * drifted documents, and only what both looks find wrong the same way is drift. A write without a
   * transaction changes the children first and increments the parent next: a repair between the two
   * would be counted twice once the increment lands.
   */
  readonly settle?: () => Promise<void>;
}

/**
 * Reads `collection` in `_id` order, `batchSize` documents at a time, hands each batch to `check`
 * (which returns the repairs it wants) and, with `fix`, applies each batch's repairs in ONE bulk write
 * before reading on, so memory stays bounded by the batch.
 */
export async function scanInBatches(
  db: Db,
  target: { coordinate: string; kind: DriftKind; collection: string; projection: Document },
  options: Required<Pick<ReconcileOptions, 'batchSize' | 'fix'>> & Pick<ReconcileOptions, 'onProgress'> & ScanResume,
  check: (batch: Document[], report: DriftReport) => Promise<Repair[]>,
): Promise<DriftReport> {
  const report = emptyReport(target);
  const collection = db.collection(target.collection);
  const filter: Document = options.after === undefined ? {} : afterFilter(IN_ID_ORDER, [options.after]);
  const total = await collection.countDocuments(filter);
  const progress = () => options.onProgress?.({ coordinate: target.coordinate, kind: target.kind, scanned: report.scanned, total });
  progress();
  const cursor = collection.find(filter, { projection: target.projection, sort: { _id: 1 }, batchSize: options.batchSize });
  let batch: Document[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const firstLook = await check(batch, report);
    report.scanned += batch.length;
    const stillWrong = async (ids: readonly unknown[]) => {
      const reread = await collection.find({ _id: { $in: [...ids] } } as Document, { projection: target.projection, sort: { _id: 1 } }).toArray();
      return check(reread, emptyReport(target));
    };
    const repairs = firstLook.length > 0 && options.settle ? await sameAfter(options.settle, firstLook, stillWrong) : firstLook;
    const write = async (batchRepairs: readonly Repair[]) => {
      const operations: AnyBulkWriteOperation[] = batchRepairs.map((repair) => ({ updateOne: { filter: repair.filter, update: repair.update } }));
      return (await collection.bulkWrite(operations, { ordered: false })).modifiedCount;
    };
    let drifted: readonly Repair[] = repairs;
    if (repairs.length > 0 && !options.fix) {
      // Read again: what a write left right meanwhile (a comment and its count, written together) was a race, not drift.
      drifted = await stillWrong(repairs.map((repair) => repair.id));
    } else if (repairs.length > 0) {
      const modified = await write(repairs);
      // Each repair is guarded by the copy it was computed against, not by its sources: a write that changed
      // a source after the check read it, and left the copy as it was (its fan-out had nothing to change
      // there), let a repair from the old sources through. So the repaired documents and their sources are
      // read again, and repaired again, until they agree.
      let wrong = await stillWrong(repairs.map((repair) => repair.id));
      // A guard that matched nothing: a write changed the document since it was read, and what it left right
      // was a race, not drift. The bulk write says how many guards held, not which: the documents still
      // wrong are drift, and as many others as guards held (exact unless, in one batch, a write raced a
      // copy and another a source: then an upper bound).
      if (modified < repairs.length) {
        const wrongIds = new Set(wrong.map((repair) => keyString(repair.id)));
        const stillWrongFirst = [...repairs].sort((a, b) => Number(wrongIds.has(keyString(b.id))) - Number(wrongIds.has(keyString(a.id))));
        drifted = stillWrongFirst.slice(0, Math.min(repairs.length, modified + wrong.length));
      }
      for (let round = 0; wrong.length > 0 && round < SETTLING_ROUNDS; round++) {
        // A counter or total still wrong may be a write's first step landed since (a child inserted, its
        // parent's $inc still to come): as before the first repair, only what a second look confirms is repaired again.
        if (options.settle) wrong = await sameAfter(options.settle, wrong, stillWrong);
        if (wrong.length === 0) break;
        await write(wrong);
        wrong = await stillWrong(wrong.map((repair) => repair.id));
      }
      report.fixed += Math.max(0, drifted.length - wrong.length);
    }
    report.drifted += drifted.length;
    for (const repair of drifted.slice(0, SAMPLE_SIZE - report.sampleIds.length)) report.sampleIds.push(idString(repair.id));
    const lastId = batch[batch.length - 1]!._id;
    batch = [];
    progress();
    await options.onBatch?.(lastId, report);
  };
  for await (const document of cursor) {
    batch.push(document);
    if (batch.length >= options.batchSize) await flush();
  }
  await flush();
  return report;
}

/** The repairs a second look, after `settle`, still wants exactly as the first did. */
async function sameAfter(settle: () => Promise<void>, firstLook: readonly Repair[], stillWrong: (ids: readonly unknown[]) => Promise<Repair[]>): Promise<Repair[]> {
  await settle();
  const secondLook = new Set((await stillWrong(firstLook.map((repair) => repair.id))).map(repairText));
  return firstLook.filter((repair) => secondLook.has(repairText(repair)));
}

function repairText(repair: Repair): string {
  return EJSON.stringify({ filter: repair.filter, update: repair.update }, { relaxed: false });
}

function idString(id: unknown): string {
  const hex = (id as { toHexString?: () => string } | null)?.toHexString?.();
  return hex ?? String(id);
}

function emptyReport(target: { coordinate: string; kind: DriftKind; collection: string }): DriftReport {
  return { coordinate: target.coordinate, kind: target.kind, collection: target.collection, scanned: 0, drifted: 0, fixed: 0, dangling: 0, missing: 0, entries: 0, sampleIds: [] };
}
