import type { Binary, Timestamp } from 'bson';
import { compareNumbers } from '../../../bson/bson-number';
import { compareBinary, compareTimestamps } from '../../../bson/compare-bson';
import { compareStrings } from '../../../bson/compare-strings';
import { TypeRank, typeRank } from '../../../bson/type-rank';
import { isBsonNumber, isObjectId } from '../../documents/bson-type';
import { keyString } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import type { FieldCondition, FilterValue, RootFilter } from './list-filter';

/**
 * Filters and orders documents already at hand (a by-key join's batch, a snapshot's copies) the way
 * MongoDB would for the conditions a list argument can express: a value compares with values of its
 * own kind (numbers, strings, dates, ids), an array matches when one element does, and order follows
 * MongoDB's ranking of kinds, nulls first.
 */
export function filterAndSort(documents: readonly StoredDocument[], filters: readonly RootFilter[], sort: readonly SortKey[] | undefined): StoredDocument[] {
  const kept = filters.length === 0 ? [...documents] : documents.filter((document) => filters.every((filter) => Object.entries(filter).every(([path, condition]) => matches(readPath(document, path), condition))));
  return sort === undefined ? kept : kept.sort((a, b) => compareBySort(a, b, sort));
}

function matches(stored: unknown, condition: FieldCondition): boolean {
  const values = Array.isArray(stored) ? stored : [stored];
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
      return values.some((value) => typeRank(value) === typeRank(operand) && value !== null && value !== undefined && sign(compareValues(value, operand)));
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

function compareBySort(a: StoredDocument, b: StoredDocument, sort: readonly SortKey[]): number {
  for (const key of sort) {
    const order = compareValues(readPath(a, key.path), readPath(b, key.path));
    if (order !== 0) return order * key.direction;
  }
  return 0;
}

function compareValues(a: unknown, b: unknown): number {
  const kind = typeRank(a);
  const kinds = kind - typeRank(b);
  if (kinds !== 0) return Math.sign(kinds);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  // Exactly, across widths (a Decimal128 or a Long past 2^53 is no double), NaN before every other number.
  if (kind === TypeRank.Number) return compareNumbers(a, b);
  if (kind === TypeRank.BinData) return compareBinary(a as Binary, b as Binary);
  if (kind === TypeRank.Timestamp) return compareTimestamps(a as Timestamp, b as Timestamp);
  const left = kind === TypeRank.ObjectId ? (a as { toHexString(): string }).toHexString() : String(a);
  const right = kind === TypeRank.ObjectId ? (b as { toHexString(): string }).toHexString() : String(b);
  // MongoDB compares strings by their UTF-8 bytes: code points, not JavaScript's UTF-16 units.
  return compareStrings(left, right);
}
