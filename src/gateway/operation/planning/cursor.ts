import { createHash } from 'node:crypto';
import { EJSON } from 'bson';
import { bsonType } from '../../documents/bson-type';
import { badUserInput } from '../../errors/public-error-code';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import { quoteInput } from '../../errors/quote-input';

/**
 * Connection cursors: opaque to clients, keyset positions to docjoin. A cursor holds an item's values
 * of the list's sort keys (which end with `_id`), the list it came from (`Type.field` in one order) and,
 * on a relation, the parent whose list it is. Values are Extended JSON, so an ObjectId or a date comes
 * back as the same BSON type: a Long past 2^53 too, read back as a Long, not a rounded double. A
 * cursor's values only ever stand where MongoDB compares them as values (the operand of `$eq`, `$gt`,
 * `$lt`; see afterFilter), so an object, an array or a regex is compared, never run as an operator or a
 * pattern. Still, one holding a key that starts with `$`, or nested too deep, is refused: only an edited
 * cursor holds one.
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

export function encodeCursor(scope: CursorScope, values: readonly unknown[]): string {
  const body = { l: scope.list, ...(scope.parent !== undefined && { p: scope.parent }), v: values.map((value) => value ?? null) };
  return Buffer.from(EJSON.stringify(body, { relaxed: false }), 'utf8').toString('base64url');
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
  let body: unknown;
  try {
    body = EJSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'), { relaxed: false });
  } catch {
    throw forged();
  }
  if (typeof body !== 'object' || body === null) throw forged();
  const { l, p, v } = body as Record<string, unknown>;
  if (typeof l !== 'string' || (p !== undefined && typeof p !== 'string') || !Array.isArray(v) || v.some((value) => isEditedValue(value))) throw forged();
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

/** Deeper than a value MongoDB stores under a field and then takes in a filter around it (it refuses past 100 levels in all). */
const MAX_VALUE_DEPTH = 64;

/** A value no item's sort key holds: an object with a key that starts with `$`, an invalid date, or one nested deeper than a stored value can be. */
function isEditedValue(value: unknown, depth = 0): boolean {
  if (depth > MAX_VALUE_DEPTH) return true;
  if (Array.isArray(value)) return value.some((element) => isEditedValue(element, depth + 1));
  if (value instanceof Date) return Number.isNaN(value.getTime());
  if (typeof value !== 'object' || value === null || value instanceof RegExp || bsonType(value) !== undefined) return false;
  return Object.entries(value).some(([key, inner]) => key.startsWith('$') || isEditedValue(inner, depth + 1));
}
