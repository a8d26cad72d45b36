import type { Db, Document } from 'mongodb';
import { compareNumbers } from '../bson/bson-number';
import { asTotalValue, keyString, readPath, type TotalRule } from '../gateway';
import type { Repair } from './scan-batches';

/**
 * A total must equal the sum of its children's summed field, as MongoDB's `$sum` adds them (numbers of
 * each width in their own type, anything else skipped); a parent without children, or whose children
 * hold no number, sums to zero. Compared by value: a Float total held as an int still agrees.
 */
export function totalCheck(db: Db, total: TotalRule) {
  return {
    projection: { _id: 1, [total.parentKey]: 1, [total.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      const keys = batch.map((parent) => readPath(parent, total.parentKey));
      const groups = await db
        .collection(total.childCollection)
        .aggregate([{ $match: { [total.childKey]: { $in: keys } } }, { $group: { _id: `$${total.childKey}`, sum: { $sum: `$${total.summedPath}` } } }])
        .toArray();
      const sums = new Map(groups.map((group) => [keyString(group._id), group.sum as unknown]));
      const repairs: Repair[] = [];
      for (const parent of batch) {
        const want = asTotalValue(total, sums.get(keyString(readPath(parent, total.parentKey))) ?? 0);
        const have = readPath(parent, total.path);
        if (!sameNumber(have, want)) repairs.push({ id: parent._id, filter: { _id: parent._id, [total.path]: have ?? null }, update: { $set: { [total.path]: want } } });
      }
      return repairs;
    },
  };
}

function sameNumber(have: unknown, want: unknown): boolean {
  try {
    return compareNumbers(have, want) === 0;
  } catch {
    // Not a number at all (missing, null, a string): drift.
    return false;
  }
}
