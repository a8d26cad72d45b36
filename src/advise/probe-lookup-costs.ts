import { BSON, type Document } from 'mongodb';
import { readsByLookup, type Db, type StorageMap } from '../gateway';
import { medianDifferenceMs } from './median-time';
import type { ProbedLookupCosts } from './recommend/lookup-advice';

/** Documents the probe reads at most, and at least: fewer cannot tell a document's cost from the timer's noise. */
const PROBE_DOCUMENTS = 200;
const MIN_PROBE_DOCUMENTS = 50;
/** The most the probe's reply may hold: well inside one batch (16 MB), so every read is one round trip. */
const PROBE_BYTES = 4 * 1024 * 1024;
/** Timed pairs of probe reads (after one untimed run of each): the median of their differences is a cost's. */
const PROBE_RUNS = 11;
/** Samples of both pairs before the differences count as lost in the timer's noise. */
const PROBE_ATTEMPTS = 3;

/**
 * Times a lookup's costs with a few pairs of reads of the largest collection a lookup could read, each
 * pair back to back and the median of their differences taken (the latency cancels out: every read is
 * one round trip, and a drift of the machine weighs on both reads of a pair):
 * - a byte more in a reply: `find` of up to PROBE_DOCUMENTS documents against `find` of one;
 * - a parent more to join: an `aggregate` of as many documents each looking itself up by `_id` as
 *   docjoin's lookups are written (`localField`/`foreignField` and a pipeline), the joined copy dropped
 *   before the reply, against the same `aggregate` without the `$lookup`.
 * Throws, saying why, when no candidate holds MIN_PROBE_DOCUMENTS documents, when either difference is
 * lost in the timer's noise, or when the server refuses a read (MongoDB before 5.0, a sharded
 * collection a `$lookup` cannot read, a role without `find`): advise then prices lookups without it.
 */
export async function probeLookupCosts(db: Db, collections: Iterable<string>): Promise<ProbedLookupCosts> {
  let largest: { name: string; count: number } | undefined;
  for (const name of new Set(collections)) {
    const count = await db.collection(name).estimatedDocumentCount();
    if (largest === undefined || count > largest.count) largest = { name, count };
  }
  if (largest === undefined || largest.count < MIN_PROBE_DOCUMENTS) throw new Error(`no collection a lookup could read holds ${MIN_PROBE_DOCUMENTS} documents`);
  const collection = db.collection(largest.name);
  const bytes = (read: readonly Document[]) => read.reduce((sum, document) => sum + BSON.calculateObjectSize(document), 0);
  const first = await collection.find({}, { limit: PROBE_DOCUMENTS, batchSize: PROBE_DOCUMENTS }).toArray();
  const documents = Math.min(first.length, Math.max(2, Math.floor((PROBE_BYTES * first.length) / Math.max(1, bytes(first)))));
  const oneBytes = bytes(first.slice(0, 1));
  const manyBytes = bytes(first.slice(0, documents));
  if (manyBytes <= oneBytes) throw new Error(`the first ${documents} documents of ${largest.name} are no larger than one`);
  const head = [{ $limit: documents }];
  const selfLookup = { $lookup: { from: largest.name, localField: '_id', foreignField: '_id', pipeline: [{ $project: { _id: 1 } }], as: '_docjoin_probe' } };
  // A busy machine can hide a difference in one sample: it is timed again before advise gives up.
  for (let attempt = 0; attempt < PROBE_ATTEMPTS; attempt++) {
    const bytesMs = await medianDifferenceMs(
      () => collection.find({}, { limit: documents, batchSize: documents }).toArray(),
      () => collection.find({}, { limit: 1, batchSize: 1 }).toArray(),
      PROBE_RUNS,
    );
    const parentsMs = await medianDifferenceMs(
      () => collection.aggregate([...head, selfLookup, { $project: { _id: 1 } }], { batchSize: documents }).toArray(),
      () => collection.aggregate([...head, { $project: { _id: 1 } }], { batchSize: documents }).toArray(),
      PROBE_RUNS,
    );
    if (bytesMs > 0 && parentsMs > 0) return { byteMs: bytesMs / (manyBytes - oneBytes), parentMs: parentsMs / documents, collection: largest.name };
  }
  throw new Error(`timing ${documents} documents of ${largest.name} against one, and with a lookup each against without, showed no difference the timer could tell`);
}

/** The collections a lookup could read: those of the joins that can be read by lookup. */
export function lookupTargets(storageMap: StorageMap): string[] {
  return [...storageMap.relations.values()].flatMap((field) => (field.shapes.join && readsByLookup(field) ? [field.shapes.join.collection] : []));
}
