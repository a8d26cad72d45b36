import { bsonTag } from './bson-kind';

/** MongoDB's `$type` aliases (MongoDB docs: "BSON Types"). */
export const TYPE_ALIASES: Readonly<Record<string, number>> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  javascript: 13,
  symbol: 14,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};

/** The BSON type number a value serialises as (a JS integer in int32 range is an int, as the driver writes it). */
export function bsonTypeNumber(value: unknown): number {
  if (value === undefined || value === null) return 10;
  if (Array.isArray(value)) return 4;
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff ? 16 : 1;
    case 'bigint':
      return 18;
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    default:
      break;
  }
  if (value instanceof Date) return 9;
  if (value instanceof RegExp) return 11;
  switch (bsonTag(value as object)) {
    case 'Double':
      return 1;
    case 'Int32':
      return 16;
    case 'Long':
      return 18;
    case 'Decimal128':
      return 19;
    case 'Binary':
      return 5;
    case 'ObjectId':
      return 7;
    case 'BSONRegExp':
      return 11;
    case 'Code':
      return 13;
    case 'BSONSymbol':
      return 14;
    case 'Timestamp':
      return 17;
    case 'MinKey':
      return -1;
    case 'MaxKey':
      return 127;
    default:
      return 3;
  }
}

