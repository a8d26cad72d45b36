import type { ValueComparator } from '../../bson/compare-values';

/** One group: its key (the first member's) and its members in input order. */
export interface Group<T> {
  readonly key: unknown;
  readonly members: T[];
}

/**
 * Groups items whose keys are equal under `compare` (a collation's order), groups in the order
 * of their first member. A collator gives no hashable key ('a' and 'A' are one value at strength
 * 2), so equal keys are found by sorting: O(n log n), exact for any collation. Binary equality
 * keeps the `valueKey` maps; this runs only when a collation is given.
 */
export function groupByComparator<T>(items: readonly T[], keyOf: (item: T) => unknown, compare: ValueComparator): Group<T>[] {
  const entries = items.map((item, index) => ({ item, index, key: keyOf(item) }));
  entries.sort((a, b) => compare(a.key, b.key) || a.index - b.index);
  const groups: { first: number; group: Group<T> }[] = [];
  let current: { first: number; group: Group<T> } | undefined;
  for (const entry of entries) {
    if (current === undefined || compare(current.group.key, entry.key) !== 0) {
      current = { first: entry.index, group: { key: entry.key, members: [] } };
      groups.push(current);
    }
    current.group.members.push(entry.item);
  }
  // members were appended in sorted order; ties kept input order, so each run is already in input order
  return groups.sort((a, b) => a.first - b.first).map((entry) => entry.group);
}

/** The first of each set of values equal under `compare`, in input order (`$addToSet` under a collation). */
export function distinctValues(values: readonly unknown[], compare: ValueComparator): unknown[] {
  return groupByComparator(values, (value) => value, compare).map((group) => group.key);
}
