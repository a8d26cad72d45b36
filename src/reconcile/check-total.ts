import type { Db, Document } from 'mongodb';
import { compareNumbers, plainNumber } from '../bson/bson-number';
import { asTotalValue, keyString, readPath, type TotalRule } from '../gateway';
import type { Repair } from './scan-batches';
import { holdsOneOf, presentKeys } from './lookup-keys';

/**
 * How far a running total of doubles may stray from `$sum` of the same values and still agree, in units
 * of rounding (2^-53) of the larger of the sum and the sum of the values' magnitudes, per value summed:
 * each `$inc` rounds once, in another order than `$sum` adds. A value missed or counted twice is far
 * outside it, unless it is some ten-trillionth of the magnitudes.
 */
export const FLOAT_TOTAL_ROUNDINGS_PER_VALUE = 16;

/**
 * A total must equal the sum of its children's summed field, as MongoDB's `$sum` adds them (numbers of
 * each width in their own type, anything else skipped); a parent without children, or whose children
 * hold no number, sums to zero. Compared by value: a Float total held as an int still agrees. A total of
 * a Float field agrees within FLOAT_TOTAL_ROUNDINGS_PER_VALUE (0.1 + 0.2 + 0.7 - 0.1 ... kept as
 * 1.5000000000000002 where `$sum` gives 1.5 is no drift).
 */
export function totalCheck(db: Db, total: TotalRule) {
  const ofDoubles = total.summedScalar === 'Float';
  const summed = `$${total.summedPath}`;
  return {
    projection: { _id: 1, [total.parentKey]: 1, [total.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      // A parent without its key has no children: `$in: [null]` would add up the children that lack one.
      const keys = presentKeys(batch.map((parent) => readPath(parent, total.parentKey)));
      const magnitude = ofDoubles ? { magnitude: { $sum: { $cond: [{ $isNumber: summed }, { $abs: summed }, 0] } }, values: { $sum: 1 } } : {};
      const groups = await db
        .collection(total.childCollection)
        .aggregate([{ $match: holdsOneOf(total.childKey, keys) }, { $group: { _id: `$${total.childKey}`, sum: { $sum: summed }, ...magnitude } }])
        .toArray();
      const byKey = new Map(groups.map((group) => [keyString(group._id), group]));
      const repairs: Repair[] = [];
      for (const parent of batch) {
        const group = byKey.get(keyString(readPath(parent, total.parentKey)));
        const want = asTotalValue(total, group?.sum ?? 0);
        const have = readPath(parent, total.path);
        if (sameNumber(have, want) || (ofDoubles && withinRounding(have, want, group))) continue;
        repairs.push({ id: parent._id, filter: { _id: parent._id, [total.path]: have ?? null }, update: { $set: { [total.path]: want } } });
      }
      return repairs;
    },
  };
}

function withinRounding(have: unknown, want: unknown, group: Document | undefined): boolean {
  const [held, summed] = [plainNumber(have), plainNumber(want)];
  if (held === undefined || summed === undefined || !Number.isFinite(held) || !Number.isFinite(summed)) return false;
  const scale = Math.max(Math.abs(summed), Math.abs(plainNumber(group?.magnitude) ?? 0));
  const values = Math.max(1, plainNumber(group?.values) ?? 0);
  return Math.abs(held - summed) <= FLOAT_TOTAL_ROUNDINGS_PER_VALUE * values * 2 ** -53 * scale;
}

function sameNumber(have: unknown, want: unknown): boolean {
  try {
    return compareNumbers(have, want) === 0;
  } catch {
    // Not a number at all (missing, null, a string): drift.
    return false;
  }
}
