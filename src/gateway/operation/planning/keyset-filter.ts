import type { SortKey } from '../../startup/storage-map/storage-map-types';

/**
 * The condition "strictly after an item with these sort values" in the order `sort` defines (a keyset
 * page): `a > x OR (a = x AND b > y) …`, with `$lt` for descending keys. `values` are read from a stored
 * document, so they are typed values, never a user-supplied operator.
 */
export function afterFilter(sort: readonly SortKey[], values: readonly unknown[]): Record<string, unknown> {
  const branches = sort.map((key, index) => {
    const branch: Record<string, unknown> = {};
    for (let earlier = 0; earlier < index; earlier++) branch[sort[earlier]!.path] = values[earlier] ?? null;
    branch[key.path] = { [key.direction === 1 ? '$gt' : '$lt']: values[index] ?? null };
    return branch;
  });
  return branches.length === 1 ? branches[0]! : { $or: branches };
}
