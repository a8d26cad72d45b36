import { ObjectId } from 'bson';
import { badUserInput } from '../errors/public-error-code';
import { readPath } from '../documents/read-path';
import type { SortKey } from '../storage-map/storage-map-types';

/**
 * Opaque page cursors: base64url of the sort key values (ending with `_id`) of the last item of a page.
 * Values are tagged so that decoding restores their BSON types; decoding validates everything, so a
 * cursor can only ever become a comparison against typed values (never a user-supplied operator).
 */
type TaggedValue = { o: string } | { d: string } | { s: string } | { n: number } | { b: boolean } | { z: 1 };

export function encodeCursor(document: Record<string, unknown>, sort: readonly SortKey[]): string {
  const values = sort.map((key) => tag(readPath(document, key.path)));
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, sort: readonly SortKey[], argumentName = 'after'): unknown[] {
  const invalid = () => badUserInput(`${argumentName}: ${JSON.stringify(cursor)} is not a cursor of this list`, { argumentName });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== sort.length) throw invalid();
  return parsed.map((value) => {
    const untagged = untag(value);
    if (untagged === INVALID) throw invalid();
    return untagged;
  });
}

/** The condition "strictly after these sort values" in the order `sort` defines. */
export function afterFilter(sort: readonly SortKey[], values: readonly unknown[]): Record<string, unknown> {
  const branches = sort.map((key, index) => {
    const branch: Record<string, unknown> = {};
    for (let earlier = 0; earlier < index; earlier++) branch[sort[earlier]!.path] = values[earlier];
    branch[key.path] = { [key.direction === 1 ? '$gt' : '$lt']: values[index] };
    return branch;
  });
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

function tag(value: unknown): TaggedValue {
  if (value instanceof ObjectId) return { o: value.toHexString() };
  if (value instanceof Date) return { d: value.toISOString() };
  if (typeof value === 'string') return { s: value };
  if (typeof value === 'number') return { n: value };
  if (typeof value === 'boolean') return { b: value };
  return { z: 1 };
}

const INVALID = Symbol('invalid');

function untag(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return INVALID;
  const entries = Object.entries(value);
  if (entries.length !== 1) return INVALID;
  const [tagName, raw] = entries[0]!;
  switch (tagName) {
    case 'o':
      return typeof raw === 'string' && /^[0-9a-f]{24}$/.test(raw) ? new ObjectId(raw) : INVALID;
    case 'd': {
      const date = typeof raw === 'string' ? new Date(raw) : undefined;
      return date && !Number.isNaN(date.getTime()) ? date : INVALID;
    }
    case 's':
      return typeof raw === 'string' ? raw : INVALID;
    case 'n':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : INVALID;
    case 'b':
      return typeof raw === 'boolean' ? raw : INVALID;
    case 'z':
      return raw === 1 ? null : INVALID;
    default:
      return INVALID;
  }
}
