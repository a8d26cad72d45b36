import type { BSONRegExp, Int32, Long, ObjectId } from 'bson';
import { bsonTag } from '../../bson/bson-tag';

/**
 * The canonical BSON type groups, numbered in MongoDB's comparison order
 * (MongoDB docs: "Comparison/Sort Order"). Numbers of every width share one group, as do strings and
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
  MaxKey = 13,
}

export { bsonTag };

export function isLong(value: unknown): value is Long {
  return typeof value === 'object' && value !== null && bsonTag(value) === 'Long';
}
export function isInt32(value: unknown): value is Int32 {
  return typeof value === 'object' && value !== null && bsonTag(value) === 'Int32';
}
export function isObjectId(value: unknown): value is ObjectId {
  return typeof value === 'object' && value !== null && bsonTag(value) === 'ObjectId';
}
export function isBsonRegExp(value: unknown): value is BSONRegExp {
  return typeof value === 'object' && value !== null && bsonTag(value) === 'BSONRegExp';
}

/** Any numeric BSON value: JS number, Int32, Double, Long or Decimal128. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'object' || value === null) return false;
  const tag = bsonTag(value);
  return tag === 'Long' || tag === 'Decimal128' || tag === 'Int32' || tag === 'Double';
}

/** A document (not an array, not a BSON value class, not a Date/RegExp). */
export function isPlainDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof RegExp) return false;
  const tag = bsonTag(value);
  return tag === undefined || tag === 'DBRef';
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
    case 'MinKey':
      return TypeRank.MinKey;
    case 'MaxKey':
      return TypeRank.MaxKey;
    default:
      return TypeRank.Object;
  }
}

/** The text of a string or a BSONSymbol. */
export function stringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'BSONSymbol') {
    return String((value as { value: unknown }).value);
  }
  return undefined;
}

/** Whether a value is or holds (in a document or array, at any depth) a string: what a collation can change the comparison of. */
export function containsString(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(containsString);
  if (isPlainDocument(value)) return Object.values(value).some(containsString);
  return bsonTag(value) === 'BSONSymbol';
}

/** Pattern and flags of a JS RegExp or a BSONRegExp. */
export function regexParts(value: unknown): { pattern: string; flags: string } | undefined {
  if (value instanceof RegExp) return { pattern: value.source, flags: value.flags };
  if (isBsonRegExp(value)) return { pattern: value.pattern, flags: value.options };
  return undefined;
}
