import type { Db, Document } from 'mongodb';
import type { SampleProjection } from './plan-measurements';

/** MongoDB's `$sample` uses a random cursor only for a size under this share of a collection of over 100 documents. */
const RANDOM_CURSOR_SHARE = 0.05;
const RANDOM_CURSOR_MIN_DOCUMENTS = 100;

/**
 * One collection's sample, the only command that reads its documents:
 * `aggregate [{ $sample: { size } }, { $project: { _id: 0, bytes: { $bsonSize: '$$ROOT' }, f0: …, … } }]`
 * (with `fullScan`, the `$project` alone, over every document). Only the small projected rows come back.
 */
export async function sampleCollection(db: Db, projection: SampleProjection, options: { size: number; fullScan: boolean }): Promise<Document[]> {
  const pipeline: Document[] = options.fullScan ? [projection.stage()] : [{ $sample: { size: options.size } }, projection.stage()];
  return db.collection(projection.collection).aggregate(pipeline).toArray();
}

/**
 * The `$sample` size that reads no more documents than it returns. MongoDB picks a sample with a random
 * cursor when its size is under 5% of a collection of over 100 documents; otherwise it reads the whole
 * collection and sorts it randomly. So a collection no bigger than the wanted sample (or than 100
 * documents) is sampled whole, which is exact and reads what a sample that size would; a bigger one gets
 * at most 5% of its estimated count, less than `wanted` when it holds under 20 × `wanted` documents.
 */
export function sampleSizeFor(estimatedCount: number, wanted: number): number {
  if (estimatedCount <= Math.max(wanted, RANDOM_CURSOR_MIN_DOCUMENTS)) return wanted;
  return Math.max(1, Math.min(wanted, Math.ceil(estimatedCount * RANDOM_CURSOR_SHARE) - 1));
}
