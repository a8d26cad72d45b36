import type { Binary, Code, ObjectId, Timestamp } from 'bson';
import { compareNumbers } from './bson-number';
import { regexParts, stringValue } from './bson-text';
import { compareBinary, compareBytes, compareTimestamps } from './compare-bson';
import { compareStrings } from './compare-strings';
import { packedObjectId } from './packed-object-id';
import { TypeRank, typeRank } from './type-rank';

/**
 * MongoDB's total order over BSON values (MongoDB docs: "Comparison/Sort Order"): first by type group
 * (MinKey < null < numbers < strings < objects < arrays < BinData < ObjectId < boolean < Date <
 * Timestamp < RegExp < JavaScript code < MaxKey), then by value. Arrays compare element by element here; sorting by an
 * array field uses its smallest/largest element instead (see the embedded server's sort-documents.ts).
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  return compareSameRank(ra, a, b);
}

export type ValueComparator = (a: unknown, b: unknown) => number;
type SameRankComparator = (rank: TypeRank, a: unknown, b: unknown) => number;

/**
 * MongoDB's order with strings compared by `strings` (a collation's: MongoDB docs: "Collation" — it
 * applies to string values at any depth, never to field names or regexes).
 */
export function comparatorWithStrings(strings: (a: string, b: string) => number): ValueComparator {
  const sameRank: SameRankComparator = (rank, a, b) => {
    switch (rank) {
      case TypeRank.String:
        return Math.sign(strings(stringValue(a) ?? '', stringValue(b) ?? ''));
      case TypeRank.Object:
        return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>, sameRank);
      case TypeRank.Array:
        return compareArrays(a as unknown[], b as unknown[], compare);
      default:
        return compareSameRank(rank, a, b);
    }
  };
  const compare: ValueComparator = (a, b) => {
    const ra = typeRank(a);
    const rb = typeRank(b);
    if (ra !== rb) return ra < rb ? -1 : 1;
    return sameRank(ra, a, b);
  };
  return compare;
}

function compareSameRank(rank: TypeRank, a: unknown, b: unknown): number {
  switch (rank) {
    case TypeRank.MinKey:
    case TypeRank.Null:
    case TypeRank.MaxKey:
      return 0;
    case TypeRank.Number:
      return compareNumbers(a, b);
    case TypeRank.String:
      return compareStrings(stringValue(a) ?? '', stringValue(b) ?? '');
    case TypeRank.Object:
      return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>);
    case TypeRank.Array:
      return compareArrays(a as unknown[], b as unknown[]);
    case TypeRank.BinData:
      return compareBinary(a as Binary, b as Binary);
    case TypeRank.ObjectId:
      return compareObjectIds(a as ObjectId, b as ObjectId);
    case TypeRank.Boolean:
      return a === b ? 0 : a ? 1 : -1;
    case TypeRank.Date:
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case TypeRank.Timestamp:
      return compareTimestamps(a as Timestamp, b as Timestamp);
    case TypeRank.RegExp: {
      const x = regexParts(a) ?? { pattern: '', flags: '' };
      const y = regexParts(b) ?? { pattern: '', flags: '' };
      return compareStrings(x.pattern, y.pattern) || compareStrings(x.flags, y.flags);
    }
    case TypeRank.Code: {
      const x = a as Code;
      const y = b as Code;
      return compareStrings(x.code, y.code) || compareDocuments(x.scope ?? {}, y.scope ?? {});
    }
    default: {
      const unreachable: never = rank;
      return unreachable;
    }
  }
}

function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>, sameRank: SameRankComparator = compareSameRank): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const length = Math.min(ka.length, kb.length);
  for (let i = 0; i < length; i++) {
    const fa = ka[i] as string;
    const fb = kb[i] as string;
    const va = a[fa];
    const vb = b[fb];
    const ra = typeRank(va);
    const rb = typeRank(vb);
    if (ra !== rb) return ra < rb ? -1 : 1;
    const byName = compareStrings(fa, fb);
    if (byName !== 0) return byName;
    const byValue = sameRank(ra, va, vb);
    if (byValue !== 0) return byValue;
  }
  return Math.sign(ka.length - kb.length);
}

function compareArrays(a: unknown[], b: unknown[], compare: ValueComparator = compareValues): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const c = compare(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** Byte order; the packed form avoids the buffer that every `.id` read allocates. */
export function compareObjectIds(a: ObjectId, b: ObjectId): number {
  const x = packedObjectId(a);
  const y = packedObjectId(b);
  if (x === undefined || y === undefined) return compareBytes(a.id, b.id);
  if (x.i0 !== y.i0) return x.i0 < y.i0 ? -1 : 1;
  if (x.i1 !== y.i1) return x.i1 < y.i1 ? -1 : 1;
  if (x.i2 !== y.i2) return x.i2 < y.i2 ? -1 : 1;
  if (x.i3 !== y.i3) return x.i3 < y.i3 ? -1 : 1;
  return 0;
}
