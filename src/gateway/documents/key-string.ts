import { ObjectId } from 'bson';

/**
 * A string that identifies a stored key value, so keys can index Maps and DataLoader caches:
 * equal BSON values (two ObjectId instances with the same bytes) give the same string.
 */
export function keyString(value: unknown): string {
  if (value instanceof ObjectId || isObjectIdLike(value)) return `o:${(value as ObjectId).toHexString()}`;
  if (value instanceof Date) return `d:${value.getTime()}`;
  switch (typeof value) {
    case 'string':
      return `s:${value}`;
    case 'number':
    case 'bigint':
      return `n:${String(value)}`;
    case 'boolean':
      return `b:${String(value)}`;
    default:
      return `j:${JSON.stringify(value)}`;
  }
}

function isObjectIdLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
}

/** Whether a value can be a join key (null/undefined references are skipped, never queried). */
export function isKeyValue(value: unknown): boolean {
  return value !== null && value !== undefined;
}
