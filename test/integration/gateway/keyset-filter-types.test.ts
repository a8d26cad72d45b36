import { Binary, BSONRegExp, Code, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp, type Collection } from 'mongodb';
import { filterAndSort, sortPosition } from '../../../src/gateway/operation/planning/in-memory-list';
import { afterFilter } from '../../../src/gateway/operation/planning/keyset-filter';
import { parseSort } from '../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../src/gateway/startup/storage-map/storage-map-types';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A keyset page reads on after the last item of the one before. `$gt`/`$lt` compare within one BSON type
 * while the sort orders the types one after another, so on a key holding several types afterFilter must
 * still give exactly the documents MongoDB sorts after the anchor, in both directions, ties broken by `_id`;
 * and lists ordered in memory must come out in MongoDB's order.
 */
const file = mongoForFile();

const VALUES: unknown[] = [
  new MinKey(),
  null,
  undefined,
  Number.NaN,
  -Infinity,
  -1,
  2.5,
  2.5,
  Long.fromNumber(7),
  Decimal128.fromString('8.5'),
  '',
  'b',
  'b',
  'zz',
  { nested: 1 },
  new Binary(Buffer.from([1, 2])),
  new Binary(Buffer.from([9])),
  new ObjectId('6955b90000000000000000a1'),
  false,
  true,
  new Date('2026-01-01T00:00:00Z'),
  new Date('2026-06-01T00:00:00Z'),
  new Timestamp({ t: 10, i: 1 }),
  new Timestamp({ t: 9, i: 2 }),
  new Timestamp({ t: 1, i: 1 }),
  new BSONRegExp('^a', 'i'),
  // Stored after the regex: a tie with the regex is an equality, so this string it matches does not come back after it.
  'abd',
  new Code('return 2'),
  new Code('return 1'),
  new MaxKey(),
];

describe.each([['rank'], ['-rank']])('afterFilter over a key of mixed types, ordered by %s', (order) => {
  it('gives, after each item, exactly the items MongoDB sorts after it', async () => {
    const db = file.mongo.freshDb(`keyset_types_${order.startsWith('-') ? 'desc' : 'asc'}`);
    const items = db.collection<{ _id: ObjectId; rank?: unknown }>('items');
    await items.insertMany(VALUES.map((rank, index) => ({ _id: ObjectId.createFromTime(index + 1), ...(rank !== undefined && { rank }) })));
    const sort = parseSort(order) as SortKey[];
    const mongoSort = Object.fromEntries(sort.map((key) => [key.path, key.direction]));
    const sorted = await items.find({}, { sort: mongoSort }).toArray();
    expect(sorted).toHaveLength(VALUES.length);
    for (const [index, anchor] of sorted.entries()) {
      const filter = afterFilter(sort, sort.map((key) => anchor[key.path as 'rank' | '_id']));
      const rest = await items.find(filter, { sort: mongoSort }).toArray();
      expect([anchor.rank, rest.map((item) => item._id.toHexString())]).toEqual([anchor.rank, sorted.slice(index + 1).map((item) => item._id.toHexString())]);
    }
    // A by-key join's batch and a snapshot's copies are ordered in memory: in the same order.
    const inMemory = filterAndSort([...sorted].reverse(), [], sort);
    expect(inMemory.map((item) => (item._id as ObjectId).toHexString())).toEqual(sorted.map((item) => item._id.toHexString()));
  });
});

/**
 * Keys holding arrays: MongoDB sorts a document by its smallest element ascending (largest descending),
 * while `$gt`/`$lt`/`$eq` match any element, so a page after `['z', 'a']` (at 'a') would find it again.
 * Walked from each item's sort position (sortPosition), in one key and in two (the first one's ties).
 */
const ARRAY_VALUES: unknown[] = [
  ['z', 'a'],
  'a',
  'b',
  ['b'],
  ['a', 'c'],
  null,
  undefined,
  [],
  [null, 'c'],
  [5, -5],
  5,
  Number.NaN,
  [Number.NaN, 7],
  [true, 'q'],
  'c',
  ['c', 'c'],
  new Date('2026-01-01T00:00:00Z'),
  [new Date('2026-06-01T00:00:00Z'), 3],
];
const SECOND: unknown[] = [1, [2, 0], 3, null, [1], 2, [0, 3], 1, undefined, 2, [5], 0, 1, [3, 1], 2, 2, [], 4];

describe.each([['tag'], ['-tag'], ['tag,-rank'], ['-tag,rank']])('afterFilter over keys holding arrays, ordered by %s', (order) => {
  it('gives, after each item, exactly the items MongoDB sorts after it', async () => {
    const db = file.mongo.freshDb(`keyset_arrays_${order.replace(/\W/g, '_')}`);
    const items = db.collection<{ _id: ObjectId }>('items');
    await items.insertMany(ARRAY_VALUES.map((tag, index) => ({ _id: ObjectId.createFromTime(index + 1), ...(tag !== undefined && { tag }), ...(SECOND[index] !== undefined && { rank: SECOND[index] }) })));
    const sorted = await expectEachFollowedByTheRest(items, parseSort(order) as SortKey[]);
    const inMemory = filterAndSort([...sorted].reverse(), [], parseSort(order) as SortKey[]);
    expect(inMemory.map((item) => (item._id as ObjectId).toHexString())).toEqual(sorted.map((item) => item._id.toHexString()));
  });
});

/** Checks that, after each item of `items` in `sort`'s order, afterFilter from its position gives exactly the items after it; the items in that order. */
async function expectEachFollowedByTheRest(items: Collection<{ _id: ObjectId }>, sort: readonly SortKey[]): Promise<Array<{ _id: ObjectId }>> {
  const mongoSort = Object.fromEntries(sort.map((key) => [key.path, key.direction]));
  const sorted = await items.find({}, { sort: mongoSort }).toArray();
  for (const [index, anchor] of sorted.entries()) {
    const rest = await items.find(afterFilter(sort, sortPosition(anchor, sort)), { sort: mongoSort }).toArray();
    expect([anchor, rest.map((item) => item._id.toHexString())]).toEqual([anchor, sorted.slice(index + 1).map((item) => item._id.toHexString())]);
  }
  return sorted;
}

/** Values a sort path through arrays (`meta.rank`) reaches: none through an array of numbers, several through an array of documents. */
const NESTED: unknown[] = [
  [5, 1],
  { rank: [1, 9] },
  4,
  [{ rank: 2 }, { rank: 0 }],
  [{ other: 1 }],
  null,
  { rank: null },
  [{ rank: 3 }, { rank: null }],
  { rank: 2 },
  [],
  [7, 8],
  { rank: 'x' },
];

describe.each([['meta.rank'], ['-meta.rank'], ['meta.rank,-n'], ['-meta.rank,n']])('afterFilter over a path through arrays, ordered by %s', (order) => {
  it('gives, after each item, exactly the items MongoDB sorts after it', async () => {
    const db = file.mongo.freshDb(`keyset_nested_${order.replace(/\W/g, '_')}`);
    const items = db.collection<{ _id: ObjectId }>('items');
    await items.insertMany(NESTED.map((meta, index) => ({ _id: ObjectId.createFromTime(index + 1), ...(meta !== undefined && { meta }), n: index % 3 })));
    await expectEachFollowedByTheRest(items, parseSort(order) as SortKey[]);
  });
});
