import { compareValues, type ValueComparator } from './compare-values';

/** Below null: MongoDB sorts a document whose sort key is an empty array before null and missing. */
export const EMPTY_ARRAY = Symbol('empty array');

/** MongoDB's order over sort keys: `compareValues`, with EMPTY_ARRAY before every value. */
export function compareSortValues(a: unknown, b: unknown): number {
  return withEmptyArray(a, b) ?? compareValues(a, b);
}

/** `compare` (a collation's order) with EMPTY_ARRAY before every value. */
export function sortValueComparator(compare: ValueComparator): ValueComparator {
  return (a, b) => withEmptyArray(a, b) ?? compare(a, b);
}

function withEmptyArray(a: unknown, b: unknown): number | undefined {
  if (a !== EMPTY_ARRAY && b !== EMPTY_ARRAY) return undefined;
  return a === b ? 0 : a === EMPTY_ARRAY ? -1 : 1;
}

/**
 * What MongoDB sorts a document by when its sort path reaches several values or an array: the
 * smallest of them ascending, the largest descending, a reached array looked into one level (an empty
 * one as EMPTY_ARRAY). Undefined when the path reaches nothing.
 */
export function extremeValue(reached: readonly unknown[], direction: 1 | -1, compare: ValueComparator = compareSortValues): unknown {
  let best: unknown;
  let found = false;
  const consider = (value: unknown): void => {
    if (!found || direction * compare(value, best) < 0) {
      best = value;
      found = true;
    }
  };
  for (const value of reached) {
    if (!Array.isArray(value)) consider(value);
    else if (value.length === 0) consider(EMPTY_ARRAY);
    else for (const element of value) consider(element);
  }
  return found ? best : undefined;
}
