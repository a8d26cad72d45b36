import type { Document } from 'bson';
import { CommandError } from '../commands/command-error';
import { plainNumber } from './bson-number';
import { compareValues } from './compare-values';
import { resolvePath } from './document-path';

/** Below null: MongoDB sorts an empty array before null and missing. */
const EMPTY_ARRAY = Symbol('empty array');

interface SortKey {
  readonly parts: readonly string[];
  readonly direction: 1 | -1;
}

/**
 * A stable multi-key sort in MongoDB's order (MongoDB docs: "cursor.sort()", "Comparison/Sort
 * Order"). An array field sorts by its smallest element ascending and its largest descending; a
 * dotted path through an array of documents considers every value it reaches. Returns a new array.
 */
export function sortDocuments<T extends Document>(docs: readonly T[], sort: Document | undefined | null): T[] {
  const keys = parseSort(sort);
  if (keys.length === 0) return [...docs];
  const decorated = docs.map((doc, index) => ({ doc, index, values: keys.map((key) => sortValue(doc, key)) }));
  decorated.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareSortValues(a.values[i], b.values[i]);
      if (c !== 0) return (keys[i] as SortKey).direction === 1 ? c : -c;
    }
    return a.index - b.index;
  });
  return decorated.map((entry) => entry.doc);
}

/** A comparator over documents for callers that keep their own ordering (e.g. top-k). */
export function documentComparator(sort: Document): (a: Document, b: Document) => number {
  const keys = parseSort(sort);
  return (a, b) => {
    for (const key of keys) {
      const c = compareSortValues(sortValue(a, key), sortValue(b, key));
      if (c !== 0) return key.direction === 1 ? c : -c;
    }
    return 0;
  };
}

function parseSort(sort: Document | undefined | null): SortKey[] {
  if (!sort) return [];
  return Object.keys(sort).map((path) => {
    const raw: unknown = sort[path];
    const direction = plainNumber(raw) ?? (typeof raw === 'object' && raw !== null ? Number(raw.toString()) : Number.NaN);
    if (direction !== 1 && direction !== -1) {
      throw new CommandError(15975, 'Location15975', '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    }
    return { parts: path.split('.'), direction };
  });
}

function sortValue(doc: Document, key: SortKey): unknown {
  const reached = resolvePath(doc, key.parts);
  let best: unknown;
  let found = false;
  const consider = (value: unknown): void => {
    if (!found || key.direction * compareSortValues(value, best) < 0) {
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

function compareSortValues(a: unknown, b: unknown): number {
  if (a === EMPTY_ARRAY || b === EMPTY_ARRAY) return a === b ? 0 : a === EMPTY_ARRAY ? -1 : 1;
  return compareValues(a, b);
}
