import { isNaNNumber } from '../../../bson/bson-number';
import { compareValues } from '../../../bson/compare-values';
import { compareSortValues, EMPTY_ARRAY, extremeValue } from '../../../bson/sort-value';
import { TypeRank, typeRank } from '../../../bson/type-rank';
import { isBsonNumber, isObjectId } from '../../documents/bson-type';
import { keyString } from '../../documents/key-string';
import { ownValue, segmentsOf } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import type { FieldCondition, FilterValue, RootFilter } from './list-filter';

/**
 * Filters and orders documents already at hand (a by-key join's batch, a snapshot's copies) the way
 * MongoDB would for the conditions a list argument can express: a value compares with values of its
 * own kind (numbers, strings, dates, ids), an array matches when one element does, and order is
 * MongoDB's sort order (kinds ranked, nulls first; an array sorts by its smallest or largest element).
 */
export function filterAndSort(documents: readonly StoredDocument[], filters: readonly RootFilter[], sort: readonly SortKey[] | undefined): StoredDocument[] {
  const kept = filters.length === 0 ? [...documents] : documents.filter((document) => filters.every((filter) => Object.entries(filter).every(([path, condition]) => matches(leavesAt(document, path), condition))));
  return sort === undefined ? kept : sortInMongoOrder(kept, sort);
}

/**
 * The values a condition on `path` tests, as MongoDB's matcher takes them: each value the path reaches
 * (a document of a crossed array lacking the field reaches a missing one, which equals null), and
 * each element of one that is an array.
 */
function leavesAt(document: StoredDocument, path: string): unknown[] {
  const reached: unknown[] = [];
  reach(document, segmentsOf(path), 0, reached);
  return reached.flatMap((value) => (Array.isArray(value) ? [value, ...value] : [value]));
}

function matches(values: readonly unknown[], condition: FieldCondition): boolean {
  if (!isOperator(condition)) return values.some((value) => equal(value, condition));
  const [operator, operand] = Object.entries(condition)[0]!;
  switch (operator) {
    case 'ne':
      return !values.some((value) => equal(value, operand as FilterValue));
    case 'in':
      return values.some((value) => (operand as FilterValue[]).some((candidate) => equal(value, candidate)));
    case 'prefix':
      return values.some((value) => typeof value === 'string' && value.startsWith(operand as string));
    default: {
      const sign = { lt: (c: number) => c < 0, lte: (c: number) => c <= 0, gt: (c: number) => c > 0, gte: (c: number) => c >= 0 }[operator as 'lt'];
      // Sorts put NaN before every number, yet MongoDB's range operators match it only against NaN, by $lte and $gte.
      if (isNaNNumber(operand)) return (operator === 'lte' || operator === 'gte') && values.some(isNaNNumber);
      return values.some((value) => typeRank(value) === typeRank(operand) && value !== null && value !== undefined && !isNaNNumber(value) && sign(compareValues(value, operand)));
    }
  }
}

function isOperator(condition: FieldCondition): condition is Exclude<FieldCondition, FilterValue> {
  return condition !== null && typeof condition === 'object' && !(condition instanceof Date) && !isObjectId(condition) && !isBsonNumber(condition);
}

function equal(value: unknown, expected: unknown): boolean {
  if ((value === null || value === undefined) && expected === null) return true;
  return value !== undefined && value !== null && keyString(value) === keyString(expected);
}

/** Each document's sort key read once, then a stable sort by them. */
function sortInMongoOrder(documents: StoredDocument[], sort: readonly SortKey[]): StoredDocument[] {
  const segments = sort.map((key) => key.path.split('.'));
  const keyed = documents.map((document) => ({ document, values: sortValues(document, sort, segments) }));
  keyed.sort((a, b) => compareInOrder(a.values, b.values, sort));
  return keyed.map(({ document }) => document);
}

/** Whether `document` comes strictly after `anchor` in the order `sort` (ending with `_id`) gives, as MongoDB sorts. */
export function sortsAfter(document: StoredDocument, anchor: StoredDocument, sort: readonly SortKey[]): boolean {
  const segments = sort.map((key) => key.path.split('.'));
  return compareInOrder(sortValues(document, sort, segments), sortValues(anchor, sort, segments), sort) > 0;
}

/**
 * Where `document` stands in the order `sort` gives, as a keyset page's position: for each key the
 * value MongoDB sorts it by (sortValue: a path reaching an array or several values stands at the
 * smallest ascending, the largest descending), an empty array as `[]`. A page after it is then read
 * from there, where the whole array would have matched only other arrays.
 */
export function sortPosition(document: StoredDocument, sort: readonly SortKey[]): unknown[] {
  const segments = sort.map((key) => segmentsOf(key.path));
  return sortValues(document, sort, segments).map((value) => (value === EMPTY_ARRAY ? [] : value));
}

function sortValues(document: StoredDocument, sort: readonly SortKey[], segments: readonly (readonly string[])[]): unknown[] {
  return sort.map((key, index) => sortValue(document, segments[index]!, key.direction));
}

function compareInOrder(a: readonly unknown[], b: readonly unknown[], sort: readonly SortKey[]): number {
  for (const [index, key] of sort.entries()) {
    const order = compareSortValues(a[index], b[index]);
    if (order !== 0) return order * key.direction;
  }
  return 0;
}

/**
 * What MongoDB sorts a document by for one key: the value its path reaches or, when the path ends at
 * an array or crosses arrays of documents, the smallest of the values it reaches (a final array looked
 * into one level, an empty one below null) ascending and the largest descending.
 */
function sortValue(document: StoredDocument, segments: readonly string[], direction: 1 | -1): unknown {
  const reached: unknown[] = [];
  reach(document, segments, 0, reached);
  return reached.length === 1 && !Array.isArray(reached[0]) ? reached[0] : extremeValue(reached, direction);
}

/** The values a path reaches: an array before its last segment is crossed through its documents only. */
function reach(value: unknown, segments: readonly string[], index: number, reached: unknown[]): void {
  if (index === segments.length) {
    reached.push(value);
  } else if (Array.isArray(value)) {
    for (const element of value) if (isDocument(element)) reach(element, segments, index, reached);
  } else if (isDocument(value)) {
    reach(ownValue(value, segments[index]!), segments, index + 1, reached);
  } else {
    reached.push(undefined);
  }
}

function isDocument(value: unknown): value is Record<string, unknown> {
  return typeRank(value) === TypeRank.Object;
}
