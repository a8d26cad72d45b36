import type { Db, Document } from 'mongodb';
import { DEMO_COLLECTIONS, type DemoCollectionName, type DemoData } from './demo-documents';
import { generateDemoData } from './generate';
import { DEMO_INDEXES, defaultIndexName } from './indexes';

export const SEED_BATCH_SIZE = 5_000;

export interface SeedOptions {
  scale: number;
  /** Called after each inserted batch (and once with 0 before a collection starts). */
  onProgress?: (collection: DemoCollectionName, inserted: number, total: number) => void;
}

export interface SeedSummary {
  scale: number;
  counts: Record<DemoCollectionName, number>;
  /** The secondary indexes created, by collection (names as in listIndexes). */
  indexes: Partial<Record<DemoCollectionName, string[]>>;
}

/**
 * Replaces the demo collections in `db` with the demo dataset at `scale`: drops them, inserts every
 * document in unordered batches, then creates the indexes (after the inserts, which is cheaper
 * than maintaining them during the load). Other collections in `db` are left alone.
 */
export async function seedDemoData(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const data = generateDemoData(options.scale);
  for (const collection of DEMO_COLLECTIONS) await db.collection(collection).drop();

  const counts = {} as Record<DemoCollectionName, number>;
  for (const collection of DEMO_COLLECTIONS) {
    counts[collection] = await insertInBatches(db, collection, data, options.onProgress);
  }

  const indexes: Partial<Record<DemoCollectionName, string[]>> = {};
  for (const spec of DEMO_INDEXES) {
    const name = defaultIndexName(spec.key);
    await db.collection(spec.collection).createIndex({ ...spec.key }, { name, ...(spec.unique ? { unique: true } : {}) });
    (indexes[spec.collection] ??= []).push(name);
  }
  return { scale: options.scale, counts, indexes };
}

async function insertInBatches(
  db: Db,
  collection: DemoCollectionName,
  data: DemoData,
  onProgress: SeedOptions['onProgress'],
): Promise<number> {
  const documents: readonly Document[] = data[collection];
  const total = documents.length;
  onProgress?.(collection, 0, total);
  let inserted = 0;
  for (let start = 0; start < total; start += SEED_BATCH_SIZE) {
    const batch = documents.slice(start, start + SEED_BATCH_SIZE);
    const result = await db.collection(collection).insertMany(batch, { ordered: false });
    inserted += result.insertedCount;
    onProgress?.(collection, inserted, total);
  }
  if (inserted !== total) {
    throw new Error(`seedDemoData: inserted ${inserted} of ${total} documents into ${collection}`);
  }
  return inserted;
}
