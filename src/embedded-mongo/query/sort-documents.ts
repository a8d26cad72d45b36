import type { Document, Long, ObjectId } from 'bson';
import { CommandError } from '../protocol/command-error';
import { checkTimeLimit } from '../protocol/command-time-limit';
import { TypeRank, typeRank } from '../../bson/type-rank';
import { bsonTag, isPlainDocument } from './bson-kind';
import { plainNumber } from '../../bson/bson-number';
import { valueComparator, type Collation } from './collation';
import { compareObjectIds, type ValueComparator } from '../../bson/compare-values';
import { compareSortValues, EMPTY_ARRAY, extremeValue, sortValueComparator } from '../../bson/sort-value';
import { resolvePath } from './document-path';
import { BoundedHeap } from './top-k';

/*
 * Type ranks as plain numbers: hot loops read these locals instead of the enum (tsx compiles each
 * file alone, so a const enum from another file is a property read through an import getter).
 */
const EMPTY_ARRAY_RANK = 0; // below MinKey (1)
const MIN_KEY = TypeRank.MinKey;
const NULL = TypeRank.Null;
const NUMBER = TypeRank.Number;
const STRING = TypeRank.String;
const OBJECT_ID = TypeRank.ObjectId;
const BOOLEAN = TypeRank.Boolean;
const DATE = TypeRank.Date;
const MAX_KEY = TypeRank.MaxKey;

interface SortKey {
  readonly parts: readonly string[];
  readonly direction: 1 | -1;
}

/**
 * A document's sort key, decorated so comparisons are cheap: for each sort field three slots, its
 * type rank, a primitive whose JS order is MongoDB's order within that rank where one exists (a
 * double, a Date's time, a string below U+D800, a boolean) or undefined, and the raw value (compared
 * with `compareValues`, or as packed ObjectId bytes, when there is no primitive); then the document.
 * Fields after the first are decorated only when a comparison reaches them (rank slot NOT_YET):
 * reading a stored value is a cache miss, and later fields mostly only break ties.
 */
export type SortKeyValues = unknown[];

const NOT_YET = -1;

/** A sort specification parsed once: computes documents' sort keys and compares them. */
export interface CompiledSort {
  readonly isEmpty: boolean;
  keyOf(doc: Document): SortKeyValues;
  /** Compares two sort keys, directions applied; 0 when they tie. */
  compare(a: SortKeyValues, b: SortKeyValues): number;
}

/**
 * Parses a sort (MongoDB docs: "cursor.sort()", "Comparison/Sort Order"). An array field sorts by
 * its smallest element ascending and its largest descending; a dotted path through an array of
 * documents considers every value it reaches. Bad directions fail with 15975.
 */
export function compileSort(sort: Document | undefined | null, collation?: Collation): CompiledSort {
  const keys = parseSort(sort);
  if (collation !== undefined && keys.length > 0) return compileCollatedSort(keys, valueComparator(collation));
  const directions = keys.map((key) => key.direction);
  const docSlot = keys.length * 3;
  const decorated = (values: SortKeyValues, i: number): void => {
    if (values[i * 3] === NOT_YET) decorateInto(values, i * 3, sortValue(values[docSlot] as Document, keys[i] as SortKey));
  };
  return {
    isEmpty: keys.length === 0,
    keyOf: (doc) => {
      const values = emptyKey(keys.length, doc);
      if (keys.length > 0) decorated(values, 0);
      return values;
    },
    compare: (a, b) => {
      for (let i = 0; i < directions.length; i++) {
        if (i > 0) {
          decorated(a, i);
          decorated(b, i);
        }
        const c = compareSlots(a, b, i * 3);
        if (c !== 0) return directions[i] === 1 ? c : -c;
      }
      return 0;
    },
  };
}

/**
 * A sort under a collation: strings have no primitive whose JS order is the collation's, so each
 * key holds the raw values (arrays already reduced to their min/max under the collation) and
 * every comparison goes through the collated comparator. Only built when a collation is given.
 */
function compileCollatedSort(keys: readonly SortKey[], compare: ValueComparator): CompiledSort {
  const compareValuesOrEmpty = sortValueComparator(compare);
  return {
    isEmpty: false,
    keyOf: (doc) => keys.map((key) => sortValue(doc, key, compareValuesOrEmpty)),
    compare: (a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const c = compareValuesOrEmpty(a[i], b[i]);
        if (c !== 0) return keys[i]!.direction === 1 ? c : -c;
      }
      return 0;
    },
  };
}

/** An undecorated key of exactly its length (push from [] would reserve 17 slots per key). */
function emptyKey(keyCount: number, doc: Document): SortKeyValues {
  switch (keyCount) {
    case 1:
      return [NOT_YET, undefined, undefined, doc];
    case 2:
      return [NOT_YET, undefined, undefined, NOT_YET, undefined, undefined, doc];
    default: {
      const values: unknown[] = new Array(keyCount * 3 + 1);
      for (let i = 0; i < keyCount; i++) values[i * 3] = NOT_YET;
      values[keyCount * 3] = doc;
      return values;
    }
  }
}

class Decorated<T> {
  constructor(
    readonly item: T,
    readonly index: number,
    readonly key: SortKeyValues,
  ) {}
}

/** A stable multi-key sort in MongoDB's order. Returns a new array; the input is not reordered. */
export function sortDocuments<T extends Document>(docs: readonly T[], sort: Document | undefined | null, collation?: Collation): T[] {
  const compiled = compileSort(sort, collation);
  if (compiled.isEmpty) return [...docs];
  const decorated = decorate(docs, compiled);
  decorated.sort(stableOrder(compiled));
  const out: T[] = new Array(decorated.length);
  for (let i = 0; i < decorated.length; i++) out[i] = (decorated[i] as Decorated<T>).item;
  return out;
}

/**
 * The first `count` documents of the stable sort of `docs`, without sorting them all (a bounded
 * heap: O(n log count)). Equal to `sortDocuments(docs, sort).slice(0, count)`.
 */
export function firstSorted<T extends Document>(docs: Iterable<T>, sort: Document | undefined | null, count: number, collation?: Collation): T[] {
  const compiled = compileSort(sort, collation);
  if (compiled.isEmpty) return takeFirst(docs, count);
  return select(docs, compiled, stableOrder(compiled), count).map((entry) => entry.item);
}

/** The last `count` documents of the stable sort, in sorted order: `sortDocuments(docs, sort).slice(-count)`. */
export function lastSorted<T extends Document>(docs: Iterable<T>, sort: Document | undefined | null, count: number, collation?: Collation): T[] {
  const compiled = compileSort(sort, collation);
  const order = stableOrder<T>(compiled);
  return select(docs, compiled, (a, b) => order(b, a), count)
    .reverse()
    .map((entry) => entry.item);
}

/** Streams `docs` through a bounded heap: only the kept entries stay alive, however many docs pass. */
function select<T extends Document>(docs: Iterable<T>, compiled: CompiledSort, order: (a: Decorated<T>, b: Decorated<T>) => number, count: number): Decorated<T>[] {
  const heap = new BoundedHeap(count, order);
  let index = 0;
  for (const item of docs) heap.offer(new Decorated(item, index++, compiled.keyOf(item)));
  return heap.sorted();
}

/** A comparator over documents for callers that keep their own ordering. */
export function documentComparator(sort: Document): (a: Document, b: Document) => number {
  const compiled = compileSort(sort);
  return (a, b) => compiled.compare(compiled.keyOf(a), compiled.keyOf(b));
}

function decorate<T extends Document>(docs: Iterable<T>, compiled: CompiledSort): Decorated<T>[] {
  const out: Decorated<T>[] = [];
  let index = 0;
  for (const item of docs) out.push(new Decorated(item, index++, compiled.keyOf(item)));
  return out;
}

/** Sort key first, then input position: a total order, so a heap selection matches a stable sort. */
function stableOrder<T>(compiled: CompiledSort): (a: Decorated<T>, b: Decorated<T>) => number {
  const compare = compiled.compare;
  return (a, b) => {
    checkTimeLimit();
    return compare(a.key, b.key) || a.index - b.index;
  };
}

function takeFirst<T>(docs: Iterable<T>, count: number): T[] {
  const out: T[] = [];
  if (count <= 0) return out;
  for (const doc of docs) {
    out.push(doc);
    if (out.length >= count) break;
  }
  return out;
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

function sortValue(doc: Document, key: SortKey, compare: ValueComparator = compareSortValues): unknown {
  // the common case: a path through documents to a non-array value
  let value: unknown = doc;
  for (const part of key.parts) {
    if (Array.isArray(value)) return extremeValue(resolvePath(doc, key.parts), key.direction, compare);
    if (!isPlainDocument(value)) return undefined;
    value = value[part];
  }
  return Array.isArray(value) ? extremeValue(resolvePath(doc, key.parts), key.direction, compare) : value;
}

function compareSlots(a: SortKeyValues, b: SortKeyValues, at: number): number {
  const ra = a[at] as number;
  const rb = b[at] as number;
  if (ra !== rb) return ra < rb ? -1 : 1;
  const x = a[at + 1] as number | string | undefined;
  const y = b[at + 1] as number | string | undefined;
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  if (ra === OBJECT_ID) return compareObjectIds(a[at + 2] as ObjectId, b[at + 2] as ObjectId);
  return compareSortValues(a[at + 2], b[at + 2]);
}

/** Code units from U+D800 up do not sort by code point under JS `<` (see compareStrings). */
const NOT_PLAIN_ORDER = /[\uD800-\uFFFF]/;
const MAX_EXACT_LONG = 2 ** 53;

function decorateInto(slots: unknown[], at: number, value: unknown): void {
  const rank = value === EMPTY_ARRAY ? EMPTY_ARRAY_RANK : typeRank(value);
  slots[at] = rank;
  slots[at + 1] = fastValue(rank, value);
  slots[at + 2] = value;
}

function fastValue(rank: number, value: unknown): number | string | undefined {
  if (rank === DATE) {
    const time = (value as Date).getTime();
    return Number.isNaN(time) ? undefined : time;
  }
  if (rank === NUMBER) {
    if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
    const plain = plainNumber(value);
    if (plain !== undefined) return Number.isNaN(plain) ? undefined : plain;
    if (typeof value === 'object' && value !== null && bsonTag(value) === 'Long') {
      const number = (value as Long).toNumber();
      return Math.abs(number) < MAX_EXACT_LONG ? number : undefined;
    }
    return undefined;
  }
  if (rank === STRING) return typeof value === 'string' && !NOT_PLAIN_ORDER.test(value) ? value : undefined;
  if (rank === BOOLEAN) return value ? 1 : 0;
  // every value of these ranks is equal to every other
  if (rank === NULL || rank === MIN_KEY || rank === MAX_KEY || rank === EMPTY_ARRAY_RANK) return 0;
  return undefined;
}
