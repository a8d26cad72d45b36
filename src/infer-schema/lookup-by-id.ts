import type { Db, Document } from 'mongodb';
import { idKey } from './sample-database';

/** Keys per `$in` query: each is served by the `_id` index, and a batch stays far below 16 MB. */
const KEYS_PER_QUERY = 1000;

/**
 * Which collections hold each of `values` as an `_id`: one `{ _id: { $in } }` query per collection and
 * batch of keys, answered from the `_id` index (only `_id` is projected). Returns, by idKey, the names of
 * the collections that have it.
 */
export async function collectionsHoldingIds(db: Db, collections: readonly string[], values: readonly unknown[]): Promise<Map<string, string[]>> {
  const owners = new Map<string, string[]>();
  if (values.length === 0) return owners;
  for (const collection of collections) {
    for (let start = 0; start < values.length; start += KEYS_PER_QUERY) {
      const filter: Document = { _id: { $in: values.slice(start, start + KEYS_PER_QUERY) } };
      const found = await db
        .collection(collection)
        .find(filter, { projection: { _id: 1 } })
        .toArray();
      for (const document of found) {
        const key = idKey(document._id);
        owners.set(key, [...(owners.get(key) ?? []), collection]);
      }
    }
  }
  return owners;
}

/** The documents of `collection` whose `_id` is one of `ids`, with `fields` only, by idKey of their `_id`. */
export async function documentsByIds(db: Db, collection: string, ids: readonly unknown[], fields: readonly string[]): Promise<Map<string, Document>> {
  const documents = new Map<string, Document>();
  const projection = Object.fromEntries(fields.map((field) => [field, 1]));
  for (let start = 0; start < ids.length; start += KEYS_PER_QUERY) {
    const filter: Document = { _id: { $in: ids.slice(start, start + KEYS_PER_QUERY) } };
    for (const document of await db.collection(collection).find(filter, { projection, promoteValues: false }).toArray()) {
      documents.set(idKey(document._id), document);
    }
  }
  return documents;
}
