import { BSONRegExp, Decimal128, Double, Long, ObjectId } from 'mongodb';
import { filterAndSort } from '../../../src/gateway/operation/planning/in-memory-list';
import { toMongoFilter, type FieldCondition, type FilterValue } from '../../../src/gateway/operation/planning/list-filter';
import { parseSort } from '../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../src/gateway/startup/storage-map/storage-map-types';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A by-key join's batch and a snapshot's copies are ordered in memory; the same list read from MongoDB
 * comes in MongoDB's order, so the two must agree on every kind of key: documents (field by field, names
 * and values), regexes (pattern, then flags), arrays (by their smallest element ascending and largest
 * descending, an empty one before null) and paths through arrays of documents.
 */
const file = mongoForFile();

const KEYS: unknown[] = [
  { a: 1 },
  { a: 2 },
  { a: 1, b: 1 },
  { b: 0 },
  { a: 'x' },
  {},
  { a: { c: 1 } },
  new BSONRegExp('b', ''),
  new BSONRegExp('a', 'm'),
  new BSONRegExp('a', 'i'),
  [],
  [3, 1],
  [2, 'z'],
  [5],
  [[0], 4],
  [null, 7],
  Long.fromNumber(2),
  true,
  null,
  undefined,
  'm',
];

const NESTED: unknown[] = [[{ score: 4 }, { score: 1 }], [{ score: 2 }, {}], [{ score: [9, 0] }], [], [{ other: 1 }], { score: 3 }, [{ score: 'a' }, { score: 5 }], 'not a document'];

describe.each([['key'], ['-key'], ['holder.score'], ['-holder.score']])('a list ordered in memory by %s', (order) => {
  it('comes out in the order MongoDB sorts it', async () => {
    const path = order.replace(/^-/, '');
    const values = path === 'key' ? KEYS : NESTED;
    const db = file.mongo.freshDb(`in_memory_order_${path.replace('.', '_')}_${order.startsWith('-') ? 'desc' : 'asc'}`);
    const items = db.collection<{ _id: ObjectId }>('items');
    const top = path.split('.')[0]!;
    await items.insertMany(values.map((value, index) => ({ _id: ObjectId.createFromTime(index + 1), ...(value !== undefined && { [top]: value }) })));
    const sort = parseSort(order) as SortKey[];
    const sorted = await items.find({}, { sort: Object.fromEntries(sort.map((key) => [key.path, key.direction])) }).toArray();
    expect(sorted).toHaveLength(values.length);
    const shuffled = [...sorted.filter((_, index) => index % 2 === 1), ...sorted.filter((_, index) => index % 2 === 0).reverse()];
    const inMemory = filterAndSort(shuffled, [], sort);
    expect(inMemory.map((item) => (item._id as ObjectId).toHexString())).toEqual(sorted.map((item) => item._id.toHexString()));
  });
});

/** Values a range filter meets: NaN sorts before every number, yet MongoDB's $lt and $gt never match it. */
const RANGED: unknown[] = [new Double(Number.NaN), Decimal128.fromString('NaN'), -Infinity, 1, 5, Long.fromNumber(7), Decimal128.fromString('5'), [new Double(Number.NaN), 9], [new Double(Number.NaN)], 'x', null];

describe.each([['lt'], ['lte'], ['gt'], ['gte']])('a list filtered in memory by %s', (operator) => {
  it.each([
    ['5', 5],
    ['NaN', Number.NaN],
    ['a Decimal128 NaN', Decimal128.fromString('NaN')],
  ])('keeps what MongoDB matches against %s', async (name, operand) => {
    const db = file.mongo.freshDb(`in_memory_range_${operator}_${name.replace(/ /g, '_')}`);
    const items = db.collection<{ _id: ObjectId }>('items');
    await items.insertMany(RANGED.map((value, index) => ({ _id: ObjectId.createFromTime(index + 1), key: value })));
    const condition = { [operator]: operand as FilterValue } as FieldCondition;
    const matched = await items.find(toMongoFilter({ key: condition }), { sort: { _id: 1 } }).toArray();
    const all = await items.find({}, { sort: { _id: 1 } }).toArray();
    const inMemory = filterAndSort(all, [{ key: condition }], undefined);
    expect(inMemory.map((item) => (item._id as ObjectId).toHexString())).toEqual(matched.map((item) => item._id.toHexString()));
  });
});

/** Values a path through an array of documents reaches: leaf arrays, documents lacking the field, scalars where documents go. */
const THROUGH_ARRAYS: unknown[] = [
  [{ tag: 'a' }, { tag: ['b', 'c'] }],
  [{ tag: 'b' }],
  [{ tag: 'd' }, { other: 1 }],
  [{ tag: null }],
  [],
  ['b', 'c'],
  [[{ tag: 'b' }]],
  { tag: ['c', null] },
  { tag: [] },
  { tag: 'ba' },
  'b',
  null,
];
const CONDITIONS: ReadonlyArray<[string, FieldCondition]> = [
  ['"b"', 'b'],
  ['null', null],
  ['ne "c"', { ne: 'c' }],
  ['ne null', { ne: null }],
  ['in [null, "zz"]', { in: [null, 'zz'] }],
  ['in ["b", "d"]', { in: ['b', 'd'] }],
  ['prefix "b"', { prefix: 'b' }],
  ['gt "b"', { gt: 'b' }],
  ['lte "b"', { lte: 'b' }],
];

describe('a list filtered in memory by a path through arrays of documents', () => {
  it.each(CONDITIONS)('keeps what MongoDB matches against %s', async (name, condition) => {
    const db = file.mongo.freshDb(`in_memory_through_${name.replace(/\W+/g, '_')}`);
    const items = db.collection<{ _id: ObjectId }>('items');
    await items.insertMany(THROUGH_ARRAYS.map((value, index) => ({ _id: ObjectId.createFromTime(index + 1), ...(value !== undefined && { meta: value }) })));
    const matched = await items.find(toMongoFilter({ 'meta.tag': condition }), { sort: { _id: 1 } }).toArray();
    const all = await items.find({}, { sort: { _id: 1 } }).toArray();
    const inMemory = filterAndSort(all, [{ 'meta.tag': condition }], undefined);
    expect(inMemory.map((item) => (item._id as ObjectId).toHexString())).toEqual(matched.map((item) => item._id.toHexString()));
  });
});
