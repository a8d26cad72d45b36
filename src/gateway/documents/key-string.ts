import { EJSON, ObjectId } from 'bson';
import { toExact } from '../../bson/bson-number';
import { isBsonNumber, isObjectId } from './bson-type';
import { readLeaves, readPath, someLeaf } from './read-path';
import { isPlainObject } from './stored-document';

/**
 * A string that identifies a stored key value, so keys can index Maps and DataLoader caches:
 * equal BSON values (two ObjectId instances with the same bytes) give the same string.
 */
export function keyString(value: unknown): string {
  if (value instanceof ObjectId) return objectIdKey(value.id);
  if (isObjectId(value)) return `o:${value.toHexString()}`;
  if (value instanceof Date) return `d:${value.getTime()}`;
  // Numbers of every BSON width that are equal (5, a Long 5, a Decimal128 5.0) are one key, as MongoDB matches them.
  if (isBsonNumber(value)) return numericKey(value);
  switch (typeof value) {
    case 'string':
      return `s:${value}`;
    case 'number':
    case 'bigint':
      return numericKey(value);
    case 'boolean':
      return `b:${String(value)}`;
    default:
      // Extended JSON keeps every BSON type apart (MinKey, MaxKey and `{}` are all `{}` in JSON).
      return `j:${EJSON.stringify(value)}`;
  }
}

const HEX_DIGITS = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const O = 'o'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);

/** The char code of the hex digit of `bytes[index]`'s high or low half. */
const highDigit = (bytes: Uint8Array, index: number): number => HEX_DIGITS[bytes[index]! >> 4]!;
const lowDigit = (bytes: Uint8Array, index: number): number => HEX_DIGITS[bytes[index]! & 15]!;

/**
 * `o:` and the id's 12 bytes in hex, exactly as `toHexString` spells them, made as one string: keys are
 * made for every load and every document a join reads, and `toHexString` joins twelve two-digit strings
 * (about 420 bytes allocated per key in a micro-benchmark, against about 160 here, the 12-byte copy that
 * `id` returns included).
 */
function objectIdKey(b: Uint8Array): string {
  return String.fromCharCode(
    O, COLON,
    highDigit(b, 0), lowDigit(b, 0), highDigit(b, 1), lowDigit(b, 1), highDigit(b, 2), lowDigit(b, 2), highDigit(b, 3), lowDigit(b, 3),
    highDigit(b, 4), lowDigit(b, 4), highDigit(b, 5), lowDigit(b, 5), highDigit(b, 6), lowDigit(b, 6), highDigit(b, 7), lowDigit(b, 7),
    highDigit(b, 8), lowDigit(b, 8), highDigit(b, 9), lowDigit(b, 9), highDigit(b, 10), lowDigit(b, 10), highDigit(b, 11), lowDigit(b, 11),
  );
}

/** Whether a value can be a join key (null/undefined references are skipped, never queried). */
export function isKeyValue(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/**
 * The keys a parent's value at a reverse join's localField stands for: itself, or each element of an
 * array that names something (a null names nothing, as a null reference does; so does an array inside it).
 */
export function parentKeysOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value.filter((element) => isKeyValue(element) && !Array.isArray(element)) : [value];
}

/**
 * Whether an `$in` list can hold `value`: MongoDB refuses the whole command for an object with a
 * `$`-prefixed field there (a key imported as Extended JSON, `{ $oid: "…" }`), which no key it matches can
 * equal anyway.
 */
export function isInOperand(value: unknown): boolean {
  return !isPlainObject(value) || !Object.keys(value).some((name) => name.startsWith('$'));
}

/**
 * `value` as a filter's operand of equality: a plain object (a key a JSON value gave) under `$eq`, so
 * `{ $gt: "" }` is compared as a value and never read as an operator; anything else as it is.
 */
export function equalityOperand(value: unknown): unknown {
  return isPlainObject(value) ? { $eq: value } : value;
}

/**
 * The keys a document holds at a key path, as MongoDB's equality matches them: each value the path
 * ends at, or the elements of one that is an array (an array inside that array is one element, which
 * no scalar key equals).
 */
export function keysHeldAt(document: unknown, path: string): unknown[] {
  return readLeaves(document, path).flatMap((leaf) => (Array.isArray(leaf) ? leaf : [leaf])).filter(isKeyValue);
}

/**
 * Whether a document holds the key value `key` (not its keyString) at a key path: whether one of
 * keysHeldAt is the same key (sameKey). Access rules, page anchors and lookups decide by it; a lookup
 * asks it of each document it hands each parent, so no key is spelled out.
 */
export function holdsKeyAt(document: unknown, path: string, key: unknown): boolean {
  return someLeaf(document, path, leafHoldsKey, key);
}

/** Whether a leaf (readLeaves) holds `key`, its elements taken as keysHeldAt takes them. */
function leafHoldsKey(leaf: unknown, key: unknown): boolean {
  if (!Array.isArray(leaf)) return isKeyValue(leaf) && sameKey(leaf, key);
  for (const element of leaf) if (isKeyValue(element) && sameKey(element, key)) return true;
  return false;
}

/**
 * Whether two values are one key (their keyStrings are equal), without spelling either out when both
 * are ObjectIds, strings or numbers: a lookup compares a few keys for each of hundreds of parents.
 * (ObjectIds compare by their bytes; only one built from out-of-range numbers, which no BSON decodes
 * to, could differ from its keyString.)
 */
export function sameKey(a: unknown, b: unknown): boolean {
  if (a instanceof ObjectId && b instanceof ObjectId) return a.equals(b);
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  // Every NaN is one key, as MongoDB's equality finds NaN with NaN.
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  return keyString(a) === keyString(b);
}

/** Lists up to this long are searched by comparing keys rather than hashed: a lookup hands most parents a few documents. */
const SEARCHED_LIST_LENGTH = 16;

/**
 * For a key, the documents holding it at `path` (as documentsByKey groups them), in their order, as a
 * new array. A short list is searched per key; a longer one is grouped once.
 */
export function documentsHoldingKey<T extends object>(documents: readonly T[], path: string): (key: unknown) => T[] {
  if (documents.length <= SEARCHED_LIST_LENGTH) return (key) => documents.filter((document) => valueIsKey(document, path, key));
  const grouped = documentsByKey(documents, path);
  return (key) => [...(grouped.get(keyString(key)) ?? [])];
}

/** For a key, the first document holding it at `path` (the first documentsHoldingKey gives), none copied. */
export function documentHoldingKey<T extends object>(documents: readonly T[], path: string): (key: unknown) => T | undefined {
  if (documents.length <= SEARCHED_LIST_LENGTH) return (key) => firstHoldingKey(documents, path, key);
  const grouped = documentsByKey(documents, path);
  return (key) => grouped.get(keyString(key))?.[0];
}

/** The first of `documents` whose value at `path` is the key, as documentsHoldingKey searches a short list. */
function firstHoldingKey<T extends object>(documents: readonly T[], path: string, key: unknown): T | undefined {
  for (const document of documents) if (valueIsKey(document, path, key)) return document;
  return undefined;
}

/** Whether the value at `path` is the key (the grouping of documentsByKey, without a keyString). */
function valueIsKey(document: object, path: string, key: unknown): boolean {
  return sameKey(readPath(document, path), key);
}

/** The documents by the key string of the value each holds at `path`, in their order. */
function documentsByKey<T extends object>(documents: readonly T[], path: string): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const document of documents) {
    const key = keyString(readPath(document, path));
    const same = grouped.get(key);
    if (same) same.push(document);
    else grouped.set(key, [document]);
  }
  return grouped;
}

/**
 * A number as its digits without trailing zeros and the power of ten they are shifted by (500 is
 * `n:5e2`, 0.5 `n:5e-1`), whichever BSON width holds it; never written out in full, so a Decimal128
 * of 1E+6111 keys as briefly as 1.
 */
function numericKey(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (value === 0) return 'n:0e0';
    let coefficient = value;
    let exponent = 0;
    while (coefficient % 10 === 0) {
      coefficient /= 10;
      exponent += 1;
    }
    return `n:${coefficient}e${exponent}`;
  }
  const exact = toExact(value);
  if (exact === undefined || exact.kind === 'nan') return 'n:nan';
  if (exact.kind === 'infinity') return exact.negative ? 'n:-inf' : 'n:inf';
  return `n:${exact.coefficient}e${exact.exponent}`;
}
