/**
 * `let` variables (`$$name`; MongoDB docs: the `let` option of find, aggregate, update, delete and
 * findAndModify): each is an expression evaluated once, readable in `$expr`, in aggregation stages
 * (nested `$lookup` pipelines included) and in pipeline updates. Runs unchanged against MONGODB_URI.
 */
import type { Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_let');

const ITEMS = [
  { _id: 1, name: 'pen', qty: 3, cat: 'office' },
  { _id: 2, name: 'desk', qty: 8, cat: 'office' },
  { _id: 3, name: 'mug', qty: 12, cat: 'kitchen' },
];

async function items(name: string): Promise<ReturnType<typeof ctx.db.collection>> {
  const collection = ctx.db.collection(name);
  await collection.insertMany(ITEMS.map((item) => ({ ...item })) as Document[]);
  return collection;
}

const ids = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

describe('find', () => {
  test('$expr reads let variables; a variable may be an expression, evaluated once', async () => {
    const collection = await items('find_let');
    const above = await collection
      .find({ $expr: { $gt: ['$qty', '$$minQty'] } }, { let: { minQty: { $add: [2, 3] } } })
      .sort({ _id: 1 })
      .toArray();
    expect(ids(above)).toEqual([2, 3]);
    const inCategory = await collection.find({ $expr: { $eq: ['$cat', '$$cat'] } }, { let: { cat: 'kitchen' } }).toArray();
    expect(ids(inCategory)).toEqual([3]);
  });

  test('an undefined variable fails with 17276', async () => {
    const collection = await items('find_undefined_variable');
    const error = await expectServerError(collection.find({ $expr: { $eq: ['$qty', '$$nope'] } }).toArray(), 17276, 'Location17276');
    expect(error.errmsg).toMatch(/Use of undefined variable: nope/);
  });

  test('a variable name must start with a lowercase letter (16867)', async () => {
    const collection = await items('find_bad_variable');
    await expectServerError(collection.find({}, { let: { Bad: 1 } }).toArray(), 16867, 'Location16867');
  });

  test('a let expression cannot read a document field (4890500)', async () => {
    const collection = await items('find_let_reads_field');
    await expectServerError(collection.find({}, { let: { q: '$qty' } }).toArray(), 4890500, 'Location4890500');
  });
});

describe('aggregate', () => {
  test('let variables reach $match $expr and computed fields', async () => {
    const collection = await items('aggregate_let');
    const rows = await collection
      .aggregate(
        [
          { $match: { $expr: { $eq: ['$cat', '$$cat'] } } },
          { $project: { _id: 1, label: { $concat: ['$$prefix', '$name'] }, enough: { $gte: ['$qty', '$$minQty'] } } },
          { $sort: { _id: 1 } },
        ],
        { let: { cat: 'office', prefix: 'item: ', minQty: 5 } },
      )
      .toArray();
    expect(rows).toEqual([
      { _id: 1, label: 'item: pen', enough: false },
      { _id: 2, label: 'item: desk', enough: true },
    ]);
  });

  test('command variables are visible inside a $lookup pipeline, beside its own let', async () => {
    const collection = await items('aggregate_lookup_let');
    await ctx.db.collection('aggregate_lookup_stock').insertMany([
      { _id: 'a', item: 1, store: 'north', level: 1 },
      { _id: 'b', item: 1, store: 'south', level: 9 },
      { _id: 'c', item: 3, store: 'south', level: 4 },
    ] as Document[]);
    const rows = await collection
      .aggregate(
        [
          { $match: { _id: { $in: [1, 3] } } },
          {
            $lookup: {
              from: 'aggregate_lookup_stock',
              let: { itemId: '$_id' },
              pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$item', '$$itemId'] }, { $eq: ['$store', '$$store'] }] } } }, { $project: { _id: 1 } }],
              as: 'stock',
            },
          },
          { $project: { stock: 1 } },
          { $sort: { _id: 1 } },
        ],
        { let: { store: 'south' } },
      )
      .toArray();
    expect(rows).toEqual([
      { _id: 1, stock: [{ _id: 'b' }] },
      { _id: 3, stock: [{ _id: 'c' }] },
    ]);
  });
});

describe('writes', () => {
  test('updateMany: let variables in the filter $expr and in a pipeline update', async () => {
    const collection = await items('update_let');
    const result = await collection.updateMany(
      { $expr: { $lt: ['$qty', '$$threshold'] } },
      [{ $set: { status: '$$status', reorder: { $subtract: ['$$threshold', '$qty'] } } }],
      { let: { threshold: 10, status: 'low' } },
    );
    expect({ matched: result.matchedCount, modified: result.modifiedCount }).toEqual({ matched: 2, modified: 2 });
    expect(await collection.find({}, { projection: { status: 1, reorder: 1 } }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, status: 'low', reorder: 7 },
      { _id: 2, status: 'low', reorder: 2 },
      { _id: 3 },
    ]);
  });

  test('updateOne with an upsert: the pipeline reads let variables for the inserted document too', async () => {
    const collection = await items('upsert_let');
    const result = await collection.updateOne({ _id: 9 } as Document, [{ $set: { name: '$$name', qty: 0 } }], { upsert: true, let: { name: 'lamp' } });
    expect(result.upsertedId).toBe(9);
    expect(await collection.findOne({ _id: 9 } as Document)).toEqual({ _id: 9, name: 'lamp', qty: 0 });
  });

  test('deleteMany: let variables in the filter $expr', async () => {
    const collection = await items('delete_let');
    const result = await collection.deleteMany({ $expr: { $eq: ['$cat', '$$cat'] } }, { let: { cat: 'office' } });
    expect(result.deletedCount).toBe(2);
    expect(ids(await collection.find().toArray())).toEqual([3]);
  });

  test('findOneAndUpdate: let variables in the filter and the update pipeline', async () => {
    const collection = await items('find_and_modify_let');
    const updated = await collection.findOneAndUpdate(
      { $expr: { $eq: ['$name', '$$name'] } },
      [{ $set: { qty: { $add: ['$qty', '$$delta'] } } }],
      { let: { name: 'mug', delta: 3 }, returnDocument: 'after' },
    );
    expect(updated).toEqual({ _id: 3, name: 'mug', qty: 15, cat: 'kitchen' });
  });
});
