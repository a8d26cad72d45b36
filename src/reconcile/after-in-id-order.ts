import type { Document } from 'mongodb';
import { toExact } from '../bson/bson-number';
import { bsonType } from '../gateway';

/** The types an `_id` can have, by their `$type` aliases, in the order MongoDB sorts across types. */
const ID_TYPES_IN_ORDER: readonly (readonly string[])[] = [
  ['minKey'],
  ['null'],
  ['int', 'long', 'double', 'decimal'],
  ['string', 'symbol'],
  ['object'],
  ['binData'],
  ['objectId'],
  ['bool'],
  ['date'],
  ['timestamp'],
  ['regex'],
  ['maxKey'],
];

/**
 * The filter for the documents after `after` in `_id` order. `$gt` compares within a type only (after
 * a string `_id`, no ObjectId is greater), so the types that sort later are asked for by `$type`.
 */
export function afterInIdOrder(after: unknown): Document {
  const later = ID_TYPES_IN_ORDER.slice(idTypeRank(after) + 1).flat();
  // NaN sorts before every other number, yet nothing is `$gt` it: the numbers after it are all but NaN.
  const sameType = toExact(after)?.kind === 'nan' ? { _id: { $gte: -Infinity } } : { _id: { $gt: after } };
  return later.length === 0 ? sameType : { $or: [sameType, { _id: { $type: later } }] };
}

/** The place of a value's type in ID_TYPES_IN_ORDER. */
function idTypeRank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number' || typeof value === 'bigint') return 2;
  if (typeof value === 'string') return 3;
  if (typeof value === 'boolean') return 7;
  if (value instanceof Date) return 8;
  if (value instanceof RegExp) return 10;
  switch (bsonType(value)) {
    case 'MinKey':
      return 0;
    case 'Int32':
    case 'Long':
    case 'Double':
    case 'Decimal128':
      return 2;
    case 'BSONSymbol':
      return 3;
    case 'Binary':
      return 5;
    case 'ObjectId':
      return 6;
    case 'Timestamp':
      return 9;
    case 'BSONRegExp':
      return 10;
    case 'MaxKey':
      return 11;
    default:
      return 4;
  }
}
