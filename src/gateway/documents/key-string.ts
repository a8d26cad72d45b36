import { ObjectId } from 'bson';

/**
 * A string that identifies a stored key value, so keys can index Maps and DataLoader caches:
 * equal BSON values (two ObjectId instances with the same bytes) give the same string.
 */
export function keyString(value: unknown): string {
  if (value instanceof ObjectId) return objectIdKey(value.id);
  if (isObjectIdLike(value)) return `o:${(value as ObjectId).toHexString()}`;
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

const HEX_DIGITS = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const O = 'o'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);

/**
 * `o:` and the 12 bytes in hex, as `toHexString` spells them, built as one string: keys are made for
 * every load and every document a join reads, and the hex conversion through a Buffer allocated
 * several times the string's size (authors(first: 50), nested: 380 KB per request).
 */
function objectIdKey(bytes: Uint8Array): string {
  const high = (index: number) => HEX_DIGITS[bytes[index]! >> 4]!;
  const low = (index: number) => HEX_DIGITS[bytes[index]! & 15]!;
  return String.fromCharCode(
    O, COLON,
    high(0), low(0), high(1), low(1), high(2), low(2), high(3), low(3), high(4), low(4), high(5), low(5),
    high(6), low(6), high(7), low(7), high(8), low(8), high(9), low(9), high(10), low(10), high(11), low(11),
  );
}

function isObjectIdLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
}

/** Whether a value can be a join key (null/undefined references are skipped, never queried). */
export function isKeyValue(value: unknown): boolean {
  return value !== null && value !== undefined;
}
