import type { Db, Document } from 'mongodb';
import { keyString, readPath, readServerVersion, sortDocument, versionBefore, type BoundedArray, type SnapshotLocation } from '../gateway';
import { cloneValue, sameValue } from './canonical-value';
import { fetchSnapshotSources } from './check-snapshot';
import type { Repair } from './scan-batches';
import { holdsOneOf, presentKeys } from './lookup-keys';

/**
 * A bounded array must hold exactly its parent's first `limit` children in `sort` order, each an exact
 * copy. One aggregate per batch of parents ($match $in → $sort → $group $topN); before MongoDB 5.2, which
 * has no `$topN`, one limited branch per parent (childrenStages).
 *
 * Snapshots inside the children (`LogMessage.host`) and inside the array's entries (`Host.recentLogs.host`)
 * are snapshot drift, counted and repaired by the snapshot checks that run before this one. Both sides
 * are therefore compared with those snapshots as their sources say (what the snapshot fix leaves), so a
 * stale snapshot is never counted a second time here, and a report without `fix` finds exactly what
 * `fix` repairs. After the snapshot fix the correction changes nothing.
 */
export function boundedArrayCheck(db: Db, array: BoundedArray, snapshots: readonly SnapshotLocation[], serverVersion: (db: Db) => Promise<string | undefined> = readServerVersion) {
  const inChildren = snapshots.filter((location) => location.collection === array.childCollection);
  const inEntries = snapshots.filter((location) => location.collection === array.collection && location.segments.length > 1 && location.segments[0]!.path === array.path);
  let hasTopN: Promise<boolean> | undefined;
  return {
    projection: { _id: 1, [array.parentKey]: 1, [array.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      const keys = presentKeys(batch.map((parent) => readPath(parent, array.parentKey)));
      // A server that does not tell its version is taken to be a current one.
      hasTopN ??= serverVersion(db).then((version) => version === undefined || !versionBefore(version, TOP_N_SINCE));
      const groups = await db
        .collection(array.childCollection)
        .aggregate(childrenStages(array, keys, await hasTopN), { promoteValues: false })
        .toArray();
      // The aggregate's documents (their BSON types kept, as the array is written) are ours to correct in place.
      await correctSnapshots(db, inChildren, groups.flatMap((group) => group.docs as Document[]));
      // The stored arrays are corrected on clones: the repair's guard needs the values as read.
      const corrected = inEntries.length === 0 ? batch : batch.map((parent) => cloneValue(parent));
      await correctSnapshots(db, inEntries, corrected);

      const expected = new Map(groups.map((group) => [keyString(group._id), group.docs as Document[]]));
      const repairs: Repair[] = [];
      batch.forEach((parent, index) => {
        const want = expected.get(keyString(readPath(parent, array.parentKey))) ?? [];
        // A parent with no array at all (declared after it was written) lacks even an empty one.
        const have = readPath(corrected[index], array.path);
        if (have === undefined || !sameValue(have, want)) repairs.push({ id: parent._id, filter: { _id: parent._id, [array.path]: readPath(parent, array.path) ?? null }, update: { $set: { [array.path]: want } } });
      });
      return repairs;
    },
  };
}

/** The first MongoDB with the `$topN` accumulator. */
const TOP_N_SINCE: readonly [number, number] = [5, 2];

/**
 * The pipeline giving each parent of `keys` its children as the array should hold them (`{ _id: key, docs }`):
 * kept by `$topN` where the server has it; before 5.2, one branch per parent (`$match` on its key, `$sort`,
 * `$limit`, joined by `$unionWith`), so no stage holds more than `limit` children of a parent.
 */
export function childrenStages(array: Pick<BoundedArray, 'childCollection' | 'childKey' | 'sort' | 'limit'>, keys: readonly unknown[], hasTopN: boolean): Document[] {
  const sortBy = sortDocument(array.sort);
  const byParent = { _id: `$${array.childKey}` };
  if (array.limit === undefined || hasTopN) {
    // `$topN` sorts within each parent's group, so no sort of every child of the batch goes before it.
    if (array.limit !== undefined) return [{ $match: holdsOneOf(array.childKey, keys) }, { $group: { ...byParent, docs: { $topN: { n: array.limit, sortBy, output: '$$ROOT' } } } }];
    return [{ $match: holdsOneOf(array.childKey, keys) }, { $sort: sortBy }, { $group: { ...byParent, docs: { $push: '$$ROOT' } } }];
  }
  const limit = array.limit;
  const page = (key: unknown): Document[] => [{ $match: { [array.childKey]: { $eq: key } } }, { $sort: sortBy }, { $limit: limit }];
  // One branch per distinct key (parents may share one), as `$in` matches each child once.
  const [first, ...others] = [...new Map(keys.map((key) => [keyString(key), key])).values()];
  if (first === undefined) return [{ $match: { [array.childKey]: { $in: [] } } }];
  // Each branch keeps its sort order, so the children reach `$push` in it.
  return [...page(first), ...others.map((key) => ({ $unionWith: { coll: array.childCollection, pipeline: page(key) } })), { $group: { ...byParent, docs: { $push: '$$ROOT' } } }];
}

/** Sets every snapshot at `locations` in `documents` to its source's fields, in place (one find per location). */
async function correctSnapshots(db: Db, locations: readonly SnapshotLocation[], documents: readonly Document[]): Promise<void> {
  if (documents.length === 0) return;
  for (const location of locations) {
    const sources = await fetchSnapshotSources(db, location, documents);
    for (const document of documents) sources.correct(document);
  }
}
