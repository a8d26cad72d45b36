import type { Db, Document } from 'mongodb';
import { keyString } from '../gateway/documents/key-string';
import { readPath } from '../gateway/documents/read-path';
import { sortDocument } from '../gateway/storage-map/parse-sort';
import type { BoundedArray } from '../gateway/writes/write-model-types';
import { sameValue } from './canonical-value';
import type { Repair } from './scan-batches';

/**
 * A bounded array must hold exactly its parent's first `limit` children in `sort` order, each an exact
 * copy. One aggregate per batch of parents ($match $in → $sort → $group $topN), as the join read does.
 */
export function boundedArrayCheck(db: Db, array: BoundedArray) {
  return {
    projection: { _id: 1, [array.parentKey]: 1, [array.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      const keys = batch.map((parent) => readPath(parent, array.parentKey)).filter((key) => key !== undefined && key !== null);
      const sortBy = sortDocument(array.sort);
      const groups = await db
        .collection(array.childCollection)
        .aggregate([
          { $match: { [array.childKey]: { $in: keys } } },
          { $sort: sortBy },
          { $group: { _id: `$${array.childKey}`, docs: array.limit === undefined ? { $push: '$$ROOT' } : { $topN: { n: array.limit, sortBy, output: '$$ROOT' } } } },
        ])
        .toArray();
      const expected = new Map(groups.map((group) => [keyString(group._id), group.docs as Document[]]));
      const repairs: Repair[] = [];
      for (const parent of batch) {
        const want = expected.get(keyString(readPath(parent, array.parentKey))) ?? [];
        const have = readPath(parent, array.path) ?? [];
        if (!sameValue(have, want)) repairs.push({ id: parent._id, filter: { _id: parent._id, [array.path]: readPath(parent, array.path) ?? null }, update: { $set: { [array.path]: want } } });
      }
      return repairs;
    },
  };
}
