import type { Db } from 'mongodb';
import { keyString, readPath, type InverseRule } from '../gateway';

/**
 * The truth of an inverse rule for a batch of parents: for each parent id (keyString), the `_id`s of
 * the truth documents pointing at it, ascending. One find on the truth collection per batch.
 */
export async function expectedInverse(db: Db, rule: InverseRule, parentIds: readonly unknown[]): Promise<Map<string, unknown[]>> {
  const wanted = new Set(parentIds.map(keyString));
  const expected = new Map<string, unknown[]>(parentIds.map((id) => [keyString(id), []]));
  const truths = await db
    .collection(rule.truthCollection)
    .find({ [rule.truthPath]: { $in: [...parentIds] } }, { projection: { _id: 1, [rule.truthPath]: 1 }, sort: { _id: 1 } })
    .toArray();
  for (const truth of truths) {
    const keys = readPath(truth, rule.truthPath);
    const seen = new Set<string>();
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      const id = keyString(key);
      if (!wanted.has(id) || seen.has(id)) continue;
      seen.add(id);
      expected.get(id)!.push(truth._id);
    }
  }
  return expected;
}
