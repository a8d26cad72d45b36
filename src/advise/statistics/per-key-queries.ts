import type { Db, Document } from 'mongodb';

/** Keys per command: each is one `$unionWith` branch (MongoDB allows 1,000 stages in a pipeline). */
export const KEYS_PER_COMMAND = 100;

/**
 * How many documents of `collection` hold each key at `path`, in the order of `keys`. One aggregate per
 * KEYS_PER_COMMAND keys, one branch per key, each an index lookup that reads no document:
 * `[{ $match: { path: { $eq: k0 } } }, { $count: 'n' }, { $addFields: { i: 0 } },
 *   { $unionWith: { coll, pipeline: [{ $match: { path: { $eq: k1 } } }, { $count: 'n' }, { $addFields: { i: 1 } }] } }, …]`.
 * A key nothing holds returns no row (`$count` of nothing is nothing): its count is 0.
 */
export async function countPerKey(db: Db, collection: string, path: string, keys: readonly unknown[]): Promise<number[]> {
  const counts = keys.map(() => 0);
  const rows = await perKeyBranches(db, collection, keys, (key) => [{ $match: { [path]: { $eq: key } } }, { $count: 'n' }]);
  for (const row of rows) counts[row.i as number] = row.n as number;
  return counts;
}

/**
 * The `sortPath` value of the first document holding each key at `path` in `direction` order (undefined when
 * none): one branch per key, `$match → $sort → $limit 1`, which an index on `{ path, sortPath }` answers
 * by reading one entry, and an index on `path` alone by sorting that key's documents only.
 */
export async function firstValuePerKey(db: Db, collection: string, path: string, sortPath: string, direction: 1 | -1, keys: readonly unknown[]): Promise<unknown[]> {
  const values: unknown[] = keys.map(() => undefined);
  const rows = await perKeyBranches(db, collection, keys, (key) => [
    { $match: { [path]: { $eq: key } } },
    { $sort: { [sortPath]: direction } },
    { $limit: 1 },
    { $project: { _id: 0, v: `$${sortPath}` } },
  ]);
  for (const row of rows) values[row.i as number] = row.v;
  return values;
}

/** Runs `branch(key)` for every key, tagging each branch's rows with the key's position `i`. */
async function perKeyBranches(db: Db, collection: string, keys: readonly unknown[], branch: (key: unknown) => Document[]): Promise<Document[]> {
  const rows: Document[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_COMMAND) {
    const tagged = keys.slice(start, start + KEYS_PER_COMMAND).map((key, offset) => [...branch(key), { $addFields: { i: { $literal: start + offset } } }]);
    const [first, ...rest] = tagged;
    if (!first) continue;
    const pipeline = [...first, ...rest.map((pipeline) => ({ $unionWith: { coll: collection, pipeline } }))];
    rows.push(...(await db.collection(collection).aggregate(pipeline).toArray()));
  }
  return rows;
}
