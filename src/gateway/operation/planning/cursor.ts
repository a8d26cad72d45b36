import { createHash } from 'node:crypto';
import { BSON, EJSON } from 'bson';
import { bsonType } from '../../documents/bson-type';
import { badUserInput } from '../../errors/public-error-code';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import { quoteInput } from '../../errors/quote-input';

/**
 * Connection cursors: opaque to clients, keyset positions to docjoin. A cursor holds an item's values
 * of the list's sort keys (which end with `_id`), the list it came from (`Type.field` in one order) and,
 * on a relation, the parent whose list it is. It is BSON behind a version byte, so every value comes
 * back as the same BSON type (an ObjectId, a date, a Long past 2^53), and a stored object whose keys
 * start with `$` (`{ $oid: "…" }`, imported with JSON.parse) comes back as that object, not as the type
 * its Extended JSON would spell. A cursor's values only ever stand where MongoDB compares them as values
 * (the operand of `$eq`, `$gt`, `$lt`; see afterFilter), so an object, an array or a regex is compared,
 * never run as an operator or a pattern. Cursors issued before the version byte (Extended JSON) are
 * still read.
 */

/** Where a cursor is valid: one list in one order, and for a relation one parent (its key string). */
export interface CursorScope {
  readonly list: string;
  readonly parent: string | undefined;
}

export interface DecodedCursor {
  /** The parent of the list it was issued for (undefined on a root list). */
  readonly parent: string | undefined;
  /** The item's sort values, one per sort key. */
  readonly values: readonly unknown[];
}

const MAX_CURSOR_LENGTH = 4096;

/** The list identity a cursor carries: short, stable across restarts, and different per order. */
export function cursorList(coordinate: string, sort: readonly SortKey[]): string {
  const order = sort.map((key) => `${key.direction === 1 ? '' : '-'}${key.path}`).join(',');
  return createHash('sha256').update(`${coordinate}|${order}`).digest('base64url').slice(0, 12);
}

/** The first byte of a cursor's bytes: BSON follows. (A cursor of Extended JSON starts with `{`.) */
const BSON_CURSOR = 1;

export function encodeCursor(scope: CursorScope, values: readonly unknown[]): string {
  const body = { l: scope.list, ...(scope.parent !== undefined && { p: scope.parent }), v: values.map((value) => value ?? null) };
  return Buffer.concat([Buffer.of(BSON_CURSOR), BSON.serialize(body)]).toString('base64url');
}

/**
 * A cursor's body as it was encoded, in either version; throws on anything else. In Extended JSON a
 * stored object with a key starting with `$` cannot be told from a type, so such a cursor holding one
 * is taken for an edited one (`dollarKeysEdited`).
 */
function readCursorBody(cursor: string): { body: unknown; dollarKeysEdited: boolean } {
  const bytes = Buffer.from(cursor, 'base64url');
  // promoteValues off: an Int32 or a Double stays one, as Extended JSON's canonical mode keeps it.
  if (bytes[0] === BSON_CURSOR) return { body: BSON.deserialize(bytes.subarray(1), { promoteValues: false }), dollarKeysEdited: false };
  return { body: EJSON.parse(bytes.toString('utf8'), { relaxed: false }), dollarKeysEdited: true };
}

/**
 * The position `cursor` stands for, if it was issued for `list` over `sort`; anything else (garbled,
 * holding a value no item holds, from another list or another order) is BAD_USER_INPUT. Cursors are
 * not signed: edited values are a position like any other, among the rows the viewer's filter leaves.
 * The parent is checked by the caller, which knows it (see checkCursorParent).
 */
export function decodeCursor(cursor: string, list: string, sort: readonly SortKey[], coordinate: string): DecodedCursor {
  const forged = () => badUserInput(`after: ${quoteInput(cursor)} is not a cursor ${coordinate} returned; pass an edge's cursor or pageInfo.endCursor unchanged`, { argumentName: 'after' });
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw forged();
  let read: ReturnType<typeof readCursorBody>;
  try {
    read = readCursorBody(cursor);
  } catch {
    throw forged();
  }
  const { body, dollarKeysEdited } = read;
  if (typeof body !== 'object' || body === null) throw forged();
  const { l, p, v } = body as Record<string, unknown>;
  if (typeof l !== 'string' || (p !== undefined && typeof p !== 'string') || !Array.isArray(v) || v.some((value) => isEditedValue(value, dollarKeysEdited))) throw forged();
  if (l !== list || v.length !== sort.length) {
    throw badUserInput(`after: the cursor is from another list or another order than this ${coordinate}; pass a cursor this field returned with the same orderBy`, { argumentName: 'after' });
  }
  return { parent: p, values: v };
}

/** A relation's cursor names the parent it was issued for: another parent's is BAD_USER_INPUT. */
export function checkCursorParent(cursor: DecodedCursor | undefined, parent: string, coordinate: string): void {
  if (cursor !== undefined && cursor.parent !== parent) {
    throw badUserInput(`after: the cursor is from another parent's ${coordinate}; pass a cursor this field returned for this parent`, { argumentName: 'after' });
  }
}

/**
 * Whether a cursor can hold these sort values. A date MongoDB stores past JavaScript's range (±8.64e15 ms
 * from 1970, years -271821 to 275760: Java's `new Date(Long.MAX_VALUE)` "never" sentinel is one) reaches
 * docjoin as an Invalid Date, which BSON would write back as 1970: a position before the item, so the next
 * page would start over. No cursor is better than that one.
 */
export function cursorCanHold(values: readonly unknown[]): boolean {
  return !values.some((value) => isEditedValue(value, false));
}

/** Why an item whose sort values cursorCanHold refuses has no position to page after, and the fix. */
export function outOfRangePosition(sort: readonly SortKey[]): string {
  const keys = sort.map((key) => key.path).join(', ');
  return `its sort values (${keys}) hold a date outside JavaScript's range (years -271821 to 275760), which the MongoDB driver reads as an invalid date; store the date within that range or page this list in another order`;
}

/** Deeper than a value MongoDB stores under a field and then takes in a filter around it (it refuses past 100 levels in all). */
const MAX_VALUE_DEPTH = 64;

/** A value no item's sort key holds: an invalid date, one nested deeper than a stored value can be, or (`dollarKeysEdited`) an object with a key that starts with `$`. */
function isEditedValue(value: unknown, dollarKeysEdited: boolean, depth = 0): boolean {
  if (depth > MAX_VALUE_DEPTH) return true;
  if (Array.isArray(value)) return value.some((element) => isEditedValue(element, dollarKeysEdited, depth + 1));
  if (value instanceof Date) return Number.isNaN(value.getTime());
  if (typeof value !== 'object' || value === null || value instanceof RegExp) return false;
  // A DBRef's id and fields and a Code's scope are documents too: nested as deep as any.
  const type = bsonType(value);
  if (type === 'DBRef' || type === 'Code') {
    const { oid, fields, scope } = value as { oid?: unknown; fields?: unknown; scope?: unknown };
    return [oid, fields, scope].some((inner) => inner !== undefined && inner !== null && isEditedValue(inner, false, depth + 1));
  }
  if (type !== undefined) return false;
  return Object.entries(value).some(([key, inner]) => (dollarKeysEdited && key.startsWith('$')) || isEditedValue(inner, dollarKeysEdited, depth + 1));
}
