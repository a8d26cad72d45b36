import { Binary, BSONRegExp, Code, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'mongodb';
import { filterAndSort } from '../../../src/gateway/operation/planning/in-memory-list';
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
