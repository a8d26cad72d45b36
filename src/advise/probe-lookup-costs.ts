import { BSON, type Document } from 'mongodb';
import { readsByLookup, type Db, type StorageMap } from '../gateway';
import { medianTimeMs } from './median-time';
import type { ProbedLookupCosts } from './recommend/lookup-advice';

/** Documents the probe reads at most, and at least: fewer cannot tell a document's cost from the timer's noise. */
const PROBE_DOCUMENTS = 200;
const MIN_PROBE_DOCUMENTS = 50;
/** Timed runs of each probe read (after one untimed): their median is its time. */
const PROBE_RUNS = 5;

/**
 * Times a lookup's costs with a few reads of the largest collection a lookup could read (the latency
 * cancels out: every read pays it once):
 * - a byte more in a reply: `find` of up to PROBE_DOCUMENTS documents against `find` of one;
 * - a parent more to join: an `aggregate` of as many documents each looking itself up by `_id` (an
 *   indexed equality, as a lookup by key is), the joined copy dropped before the reply, against the
 *   same `aggregate` without the `$lookup`.
 * Undefined when no candidate holds MIN_PROBE_DOCUMENTS documents: advise then prices at assumed costs.
 * Throws what the server answered when it refuses a read (a sharded collection a `$lookup` cannot read, a
 * role without `find`).
 */
export async function probeLookupCosts(db: Db, collections: Iterable<string>): Promise<ProbedLookupCosts | undefined> {
  let largest: { name: string; count: number } | undefined;
  for (const name of new Set(collections)) {
    const count = await db.collection(name).estimatedDocumentCount();
    if (largest === undefined || count > largest.count) largest = { name, count };
  }
  if (largest === undefined || largest.count < MIN_PROBE_DOCUMENTS) return undefined;
  const collection = db.collection(largest.name);
  const documents = Math.min(PROBE_DOCUMENTS, largest.count);
  const bytes = (read: readonly Document[]) => read.reduce((sum, document) => sum + BSON.calculateObjectSize(document), 0);
  const oneBytes = bytes(await collection.find({}, { limit: 1 }).toArray());
  const manyBytes = bytes(await collection.find({}, { limit: documents, batchSize: documents }).toArray());
  const one = await medianTimeMs(() => collection.find({}, { limit: 1, batchSize: 1 }).toArray(), PROBE_RUNS);
  const many = await medianTimeMs(() => collection.find({}, { limit: documents, batchSize: documents }).toArray(), PROBE_RUNS);
  const head = [{ $limit: documents }];
  const plain = await medianTimeMs(() => collection.aggregate([...head, { $project: { _id: 1 } }], { batchSize: documents }).toArray(), PROBE_RUNS);
  const selfLookup = { $lookup: { from: largest.name, localField: '_id', foreignField: '_id', as: '_docjoin_probe' } };
  const joined = await medianTimeMs(() => collection.aggregate([...head, selfLookup, { $project: { _id: 1 } }], { batchSize: documents }).toArray(), PROBE_RUNS);
  return {
    byteMs: manyBytes > oneBytes ? Math.max(0, many - one) / (manyBytes - oneBytes) : 0,
    parentMs: Math.max(0, joined - plain) / documents,
    collection: largest.name,
  };
}

/** The collections a lookup could read: those of the joins that can be read by lookup. */
export function lookupTargets(storageMap: StorageMap): string[] {
  return [...storageMap.relations.values()].flatMap((field) => (field.shapes.join && readsByLookup(field) ? [field.shapes.join.collection] : []));
}
