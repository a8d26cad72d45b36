import { bsonTag } from './bson-tag';

/**
 * The canonical BSON type groups, numbered in MongoDB's comparison order
 * (MongoDB docs: "Comparison/Sort Order"; JavaScript code, which the page leaves out, comes after regular
 * expressions, as the server's canonical type order puts it). Numbers of every width share one group, as do strings and
 * symbols; null and missing share one group.
 */
export const enum TypeRank {
  MinKey = 1,
  Null = 2,
  Number = 3,
  String = 4,
  Object = 5,
  Array = 6,
  BinData = 7,
  ObjectId = 8,
  Boolean = 9,
  Date = 10,
  Timestamp = 11,
  RegExp = 12,
  Code = 13,
  MaxKey = 14,
}

export function typeRank(value: unknown): TypeRank {
  switch (typeof value) {
    case 'undefined':
      return TypeRank.Null;
    case 'number':
    case 'bigint':
      return TypeRank.Number;
    case 'string':
      return TypeRank.String;
    case 'boolean':
      return TypeRank.Boolean;
    case 'object':
      break;
    default:
      // functions and symbols never come out of BSON; order them with objects
      return TypeRank.Object;
  }
  if (value === null) return TypeRank.Null;
  if (Array.isArray(value)) return TypeRank.Array;
  if (value instanceof Date) return TypeRank.Date;
  if (value instanceof RegExp) return TypeRank.RegExp;
  switch (bsonTag(value)) {
    case 'Long':
    case 'Decimal128':
    case 'Int32':
    case 'Double':
      return TypeRank.Number;
    case 'BSONSymbol':
      return TypeRank.String;
    case 'Binary':
      return TypeRank.BinData;
    case 'ObjectId':
      return TypeRank.ObjectId;
    case 'Timestamp':
      return TypeRank.Timestamp;
    case 'BSONRegExp':
      return TypeRank.RegExp;
    case 'Code':
      return TypeRank.Code;
    case 'MinKey':
      return TypeRank.MinKey;
    case 'MaxKey':
      return TypeRank.MaxKey;
    default:
      return TypeRank.Object;
  }
}

/**
 * The `$type` aliases of each group but arrays and null, in MongoDB's order. An array sorts by one of its
 * elements and `$type` matches an array by its elements, so no condition by type places one.
 */
const SCALAR_GROUPS: readonly (readonly [TypeRank, readonly string[]])[] = [
  [TypeRank.MinKey, ['minKey']],
  [TypeRank.Number, ['int', 'long', 'double', 'decimal']],
  [TypeRank.String, ['string', 'symbol']],
  [TypeRank.Object, ['object']],
  [TypeRank.BinData, ['binData']],
  [TypeRank.ObjectId, ['objectId']],
  [TypeRank.Boolean, ['bool']],
  [TypeRank.Date, ['date']],
  [TypeRank.Timestamp, ['timestamp']],
  [TypeRank.RegExp, ['regex']],
  [TypeRank.Code, ['javascript']],
  [TypeRank.MaxKey, ['maxKey']],
];

/**
 * The `$type` aliases of every type but null, undefined and arrays: a path holding one of them holds a
 * value (an array is matched by its elements, so `[null]` holds none).
 */
export const VALUE_TYPES: readonly string[] = SCALAR_GROUPS.flatMap(([, aliases]) => aliases);

/**
 * The `$type` aliases of the non-null types MongoDB sorts after (`'after'`) or before (`'before'`) every
 * value of `value`'s type. `$gt`/`$lt` compare within one type only, so a condition "after this value"
 * names the other types by these.
 */
export function typesSorted(side: 'after' | 'before', value: unknown): string[] {
  const rank = typeRank(value);
  return SCALAR_GROUPS.filter(([group]) => (side === 'after' ? group > rank : group < rank)).flatMap(([, aliases]) => aliases);
}
