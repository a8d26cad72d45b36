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
 * strings and numbers pages through both.
 */
export function afterFilter(sort: readonly SortKey[], values: readonly unknown[]): Record<string, unknown> {
  const branches = sort.map((key, index) => {
    const branch: Record<string, unknown> = {};
    // `$eq`: a tie on a stored regex or object is equality, never a pattern match or an operator.
    for (let earlier = 0; earlier < index; earlier++) branch[sort[earlier]!.path] = { $eq: values[earlier] ?? null };
    return { ...branch, ...strictlyAfter(key, values[index] ?? null) };
  });
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

/** The values of `key` strictly after `value` in its direction, as a condition. */
function strictlyAfter(key: SortKey, value: unknown): Record<string, unknown> {
  const { path } = key;
  // MinKey is the one type MongoDB sorts before null.
  if (value === null) return key.direction === 1 ? { [path]: { $nin: [null, new MinKey()] } } : { [path]: { $type: 'minKey' } };
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
  // After MaxKey ascending, or MinKey descending, comes nothing but the ties; MongoDB refuses an empty $or.
  if (conditions.length === 0) return { [path]: { $in: [] } };
  return conditions.length === 1 ? { [path]: conditions[0] } : { $or: conditions.map((condition) => ({ [path]: condition })) };
}
