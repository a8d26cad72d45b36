import { MinKey } from 'bson';
import { toExact } from '../../../bson/bson-number';
import { TypeRank, typeRank, typesSorted } from '../../../bson/type-rank';
import type { SortKey } from '../../startup/storage-map/storage-map-types';

/**
 * The condition "strictly after an item with these sort values" in the order `sort` defines (a keyset
 * page): `a > x OR (a = x AND b > y) …`, with `$lt` for descending keys. `values` are read from a stored
 * document, so they are typed values, never a user-supplied operator.
 *
 * MongoDB sorts a missing or null value before every other, and `$gt`/`$lt` never match one, so a key
 * that may be null is compared as the sort places it: ascending, after a null comes every value that is
 * not null; descending, null and missing come after every value, and after a null only its ties.
 * `$gt`/`$lt` compare within one BSON type, while the sort orders the types one after another (numbers,
 * strings, objects…), so the types on the far side of the value's are named by `$type`: a key holding
 * strings and numbers pages through both. Values are positions as MongoDB sorts (sortPosition): a key
 * that may hold arrays is guarded by `$nor` against the elements that would place a document elsewhere
 * (elementsBeyond).
 */
export function afterFilter(sort: readonly SortKey[], values: readonly unknown[]): Record<string, unknown> {
  const branches = sort.map((key, index) => {
    const branch: Record<string, unknown> = {};
    const beyond: Record<string, unknown>[] = [];
    for (let earlier = 0; earlier < index; earlier++) {
      const tied = sort[earlier]!;
      const value = values[earlier] ?? null;
      // Level with null: whatever holds no value there, a path through an array of numbers (which reaches nothing) too.
      if (value === null) beyond.push({ [tied.path]: { $exists: true, $ne: null } });
      // `$eq`: a tie on a stored regex or object is equality, never a pattern match or an operator.
      else branch[tied.path] = { $eq: value };
      beyond.push(...elementsBeyond(tied, value, 'strictly'));
    }
    const value = values[index] ?? null;
    beyond.push(...elementsBeyond(key, value, 'orLevel'));
    return { ...branch, ...strictlyAfter(key, value), ...(beyond.length > 0 && { $nor: beyond }) };
  });
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

/**
 * Where a key's path may hold an array, MongoDB sorts a document by its smallest element ascending
 * (largest descending), while `$gt`, `$lt` and `$eq` match an array by any element: `title: ['z', 'a']`
 * sorts at 'a' yet is `$gt: 'a'`, so a page after it would hold it again, first, and never move on. A
 * document is after a position only if no element sorts before it (`orLevel`: or level with it), and
 * level with it only if none sorts before it strictly: these are the conditions, for `$nor`, that some
 * element does. `_id` is never an array.
 */
function elementsBeyond(key: SortKey, value: unknown, level: 'strictly' | 'orLevel'): Record<string, unknown>[] {
  if (key.path === '_id' || Array.isArray(value)) return [];
  const { path } = key;
  const orLevel = level === 'orLevel';
  const rank = typeRank(value);
  const conditions: unknown[] = [];
  const isNaN = rank === TypeRank.Number && toExact(value)?.kind === 'nan';
  if (key.direction === 1) {
    // Sorting before the value, ascending: an empty array, null and missing, the types before its own, then its own type's smaller values.
    if (rank >= TypeRank.Null) conditions.push({ $size: 0 });
    if (value === null) {
      if (!orLevel) conditions.push({ $type: 'minKey' });
    } else {
      // MinKey alone sorts before null.
      if (rank > TypeRank.Null) conditions.push(null);
      const before = typesSorted('before', value);
      if (before.length > 0) conditions.push({ $type: before });
      if (rank === TypeRank.Number) {
        // NaN sorts before every other number, and no range operator matches it.
        if (!isNaN || orLevel) conditions.push(Number.NaN);
        if (!isNaN) conditions.push(orLevel ? { $lte: value } : { $lt: value });
      } else if (rank === TypeRank.MinKey || rank === TypeRank.MaxKey) {
        if (orLevel) conditions.push({ $type: rank === TypeRank.MinKey ? 'minKey' : 'maxKey' });
      } else if (rank !== TypeRank.RegExp) {
        conditions.push(orLevel ? { $lte: value } : { $lt: value });
      }
    }
  } else {
    // Sorting before the value, descending: the types after its own, then its own type's larger values.
    const after = typesSorted('after', value);
    if (after.length > 0) conditions.push({ $type: after });
    if (value === null) {
      if (orLevel) conditions.push(null);
    } else if (rank === TypeRank.Number) {
      if (isNaN) conditions.push({ $gte: -Infinity }, ...(orLevel ? [Number.NaN] : []));
      else conditions.push(orLevel ? { $gte: value } : { $gt: value });
    } else if (rank === TypeRank.MinKey || rank === TypeRank.MaxKey) {
      if (orLevel) conditions.push({ $type: rank === TypeRank.MinKey ? 'minKey' : 'maxKey' });
    } else if (rank !== TypeRank.RegExp) {
      conditions.push(orLevel ? { $gte: value } : { $gt: value });
    }
  }
  return conditions.map((condition) => ({ [path]: condition }));
}

/** The values of `key` strictly after `value` in its direction, as a condition. */
function strictlyAfter(key: SortKey, value: unknown): Record<string, unknown> {
  const { path } = key;
  // Descending, an empty array sorts after every value but MinKey (`_id` is never an array); `$eq: []` where an index serves the page, as no index serves `$size`.
  const emptyArrays = key.direction === -1 && path !== '_id' && typeRank(value) !== TypeRank.MinKey ? [{ $eq: [] }] : [];
  // MinKey is the one type MongoDB sorts before null; `$exists`: a path through an array of numbers reaches nothing, which sorts as null.
  if (value === null) return key.direction === 1 ? { [path]: { $nin: [null, new MinKey()], $exists: true } } : anyOf(path, [{ $type: 'minKey' }, ...emptyArrays]);
  // An empty array sorts before every value (sortPosition): ascending, all but the empty arrays come after it; descending, none.
  if (Array.isArray(value) && value.length === 0) return key.direction === 1 ? { [path]: { $ne: [] } } : { [path]: { $in: [] } };
  const rank = typeRank(value);
  const conditions: unknown[] = [];
  // Within the value's own type: NaN sorts before every other number, yet nothing is `$gt` or `$lt` it;
  // MinKey and MaxKey have no other values; MongoDB compares no regex by `$gt`/`$lt` (so after one, the
  // other regexes are not reached).
  if (rank === TypeRank.Number && toExact(value)?.kind === 'nan') {
    if (key.direction === 1) conditions.push({ $gte: -Infinity });
  } else if (rank !== TypeRank.MinKey && rank !== TypeRank.MaxKey && rank !== TypeRank.RegExp) {
    conditions.push(key.direction === 1 ? { $gt: value } : { $lt: value });
    if (rank === TypeRank.Number && key.direction === -1) conditions.push(Number.NaN);
  }
  const otherTypes = Array.isArray(value) ? [] : typesSorted(key.direction === 1 ? 'after' : 'before', value);
  if (otherTypes.length > 0) conditions.push({ $type: otherTypes });
  if (key.direction === 1 ? rank < TypeRank.Null : rank > TypeRank.Null) conditions.push(null);
  // Descending, as null: a path through an array of numbers, which reaches nothing.
  if (key.direction === -1 && path !== '_id' && rank > TypeRank.Null) conditions.push({ $exists: false });
  conditions.push(...emptyArrays);
  return anyOf(path, conditions);
}

/** `path` meeting one of `conditions`. After MaxKey ascending, or MinKey descending, comes nothing but the ties: MongoDB refuses an empty $or. */
function anyOf(path: string, conditions: readonly unknown[]): Record<string, unknown> {
  if (conditions.length === 0) return { [path]: { $in: [] } };
  return conditions.length === 1 ? { [path]: conditions[0] } : { $or: conditions.map((condition) => ({ [path]: condition })) };
}
