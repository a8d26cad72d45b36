import type { SortKey } from '../../startup/storage-map/storage-map-types';

/**
 * The condition "strictly after an item with these sort values" in the order `sort` defines (a keyset
 * page): `a > x OR (a = x AND b > y) …`, with `$lt` for descending keys. `values` are read from a stored
 * document, so they are typed values, never a user-supplied operator.
 *
 * MongoDB sorts a missing or null value before every other, and `$gt`/`$lt` never match one, so a key
 * that may be null is compared as the sort places it: ascending, after a null comes every value that is
 * not null; descending, null and missing come after every value, and nothing after a null but its ties.
 */
export function afterFilter(sort: readonly SortKey[], values: readonly unknown[]): Record<string, unknown> {
  const branches = sort.flatMap((key, index) => {
    const after = strictlyAfter(key, values[index] ?? null);
    if (after === undefined) return [];
    const branch: Record<string, unknown> = {};
    for (let earlier = 0; earlier < index; earlier++) branch[sort[earlier]!.path] = values[earlier] ?? null;
    return [{ ...branch, ...after }];
  });
  // Nothing comes after a null in every key (only a forged cursor holds a null _id): match nothing.
  if (branches.length === 0) return { _id: { $in: [] } };
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

/** The values of `key` strictly after `value` in its direction, as a condition; undefined when there are none. */
function strictlyAfter(key: SortKey, value: unknown): Record<string, unknown> | undefined {
  if (key.direction === 1) return { [key.path]: value === null ? { $ne: null } : { $gt: value } };
  if (value === null) return undefined;
  // `_id` is never null; any other key may be missing from some documents.
  return key.path === '_id' ? { _id: { $lt: value } } : { $or: [{ [key.path]: { $lt: value } }, { [key.path]: null }] };
}
