import { Binary, Decimal128, Long, ObjectId } from 'mongodb';
import { afterFilter } from '../../../src/gateway';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A resumed scan reads on after the last `_id` it did. With `_id`s of mixed types `$gt` alone would stop
 * at the end of that `_id`'s type; afterFilter must give exactly the documents MongoDB sorts after it.
 */
const file = mongoForFile();

it('gives, after each _id, exactly the documents MongoDB sorts after it, across types', async () => {
  const db = file.mongo.freshDb('after_in_id_order');
  const ids: unknown[] = [
    NaN,
    -Infinity,
    -1,
    2.5,
    Long.fromNumber(7),
    Decimal128.fromString('8.5'),
    '',
    'b',
    'zz',
    { nested: 1 },
    new Binary(Buffer.from([1, 2])),
    new ObjectId('6955b90000000000000000a1'),
    new ObjectId('6955b90000000000000000a2'),
    false,
    true,
    new Date('2026-01-01T00:00:00Z'),
  ];
  const scans = db.collection<{ _id: unknown }>('scans');
  await scans.insertMany(ids.map((_id) => ({ _id })));
  const sorted = (await scans.find({}, { sort: { _id: 1 } }).toArray()).map((document) => document._id);
  expect(sorted).toHaveLength(ids.length);
  for (const [index, after] of sorted.entries()) {
    const rest = (await scans.find(afterFilter([{ path: '_id', direction: 1 }], [after]), { sort: { _id: 1 } }).toArray()).map((document) => document._id);
    expect([index, rest]).toEqual([index, sorted.slice(index + 1)]);
  }
});
