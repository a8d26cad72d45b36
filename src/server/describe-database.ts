import type { Db } from 'mongodb';

/** What a database holds, for the lines `serve` and `seed` print after seeding. */
export interface DatabaseSummary {
  /** Documents per collection, in name order. */
  readonly counts: ReadonlyMap<string, number>;
  readonly documents: number;
  /** Indexes other than `_id`'s. */
  readonly indexes: number;
}

export async function describeDatabase(db: Db): Promise<DatabaseSummary> {
  const collections = (await db.collections()).sort((a, b) => a.collectionName.localeCompare(b.collectionName));
  const counts = new Map<string, number>();
  let indexes = 0;
  for (const collection of collections) {
    counts.set(collection.collectionName, await collection.estimatedDocumentCount());
    indexes += (await collection.indexes()).filter((index) => index.name !== '_id_').length;
  }
  return { counts, documents: [...counts.values()].reduce((sum, count) => sum + count, 0), indexes };
}
