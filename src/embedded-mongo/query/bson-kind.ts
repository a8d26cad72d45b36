import type { Int32, Long, ObjectId } from 'bson';
import { bsonTag } from '../../bson/bson-tag';

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

/** A document with a `$` field, which `$in` would read as an operator (and refuses): only an equality compares it as a value. */
export function isOperatorShaped(value: unknown): boolean {
  return isPlainDocument(value) && Object.keys(value).some((name) => name.startsWith('$'));
}

/** Whether a value is or holds (in a document or array, at any depth) a string: what a collation can change the comparison of. */
export function containsString(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(containsString);
  if (isPlainDocument(value)) return Object.values(value).some(containsString);
  return bsonTag(value) === 'BSONSymbol';
}
