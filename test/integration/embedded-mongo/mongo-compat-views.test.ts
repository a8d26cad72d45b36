/**
 * Read-only views (MongoDB docs: "Views"): createCollection with viewOn + pipeline; find, aggregate,
 * countDocuments, estimatedDocumentCount and distinct read the view's results; writes fail with
 * 166 CommandNotSupportedOnView; listCollections reports type 'view'; drop removes the view.
 * Runs unchanged against MONGODB_URI (a real server also lists `system.views`, so listings filter by name).
 */
import type { Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_views');

const BIG_ORDERS = [{ $match: { qty: { $gte: 5 } } }, { $project: { item: 1, qty: 1 } }];

beforeAll(async () => {
  await ctx.db.collection('orders').insertMany([
    { _id: 1, item: 'pen', qty: 2, store: 'north' },
    { _id: 2, item: 'desk', qty: 5, store: 'south' },
    { _id: 3, item: 'mug', qty: 12, store: 'north' },
    { _id: 4, item: 'lamp', qty: 7, store: 'north' },
  ] as Document[]);
  await ctx.db.createCollection('big_orders', { viewOn: 'orders', pipeline: BIG_ORDERS });
});
const view = () => ctx.db.collection('big_orders');

describe('reads', () => {
  test('find runs the view pipeline, then the filter, sort, skip, limit and projection', async () => {
    expect(await view().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 2, item: 'desk', qty: 5 },
      { _id: 3, item: 'mug', qty: 12 },
      { _id: 4, item: 'lamp', qty: 7 },
    ]);
    const page = await view().find({ qty: { $lt: 12 } }, { projection: { _id: 0, item: 1 } }).sort({ qty: -1 }).skip(0).limit(1).toArray();
    expect(page).toEqual([{ item: 'lamp' }]);
    // the view's $project removed `store`: filtering on it finds nothing
    expect(await view().find({ store: 'north' }).toArray()).toEqual([]);
  });

  test('aggregate appends its pipeline to the view pipeline', async () => {
    const rows = await view().aggregate([{ $group: { _id: null, total: { $sum: '$qty' } } }]).toArray();
    expect(rows).toEqual([{ _id: null, total: 24 }]);
  });

  test('countDocuments and estimatedDocumentCount count the view results', async () => {
    expect(await view().countDocuments()).toBe(3);
    expect(await view().countDocuments({ qty: { $gt: 5 } })).toBe(2);
    expect(await view().estimatedDocumentCount()).toBe(3);
  });

  test('distinct reads the view results', async () => {
    expect(await view().distinct('item')).toEqual(['desk', 'lamp', 'mug']);
  });

  test('a view on a view runs both pipelines', async () => {
    await ctx.db.createCollection('huge_orders', { viewOn: 'big_orders', pipeline: [{ $match: { qty: { $gt: 10 } } }] });
    expect(await ctx.db.collection('huge_orders').find().toArray()).toEqual([{ _id: 3, item: 'mug', qty: 12 }]);
  });

  test('$lookup can read from a view', async () => {
    const rows = await ctx.db
      .collection('orders')
      .aggregate([
        { $match: { _id: { $in: [1, 3] } } },
        { $lookup: { from: 'big_orders', localField: '_id', foreignField: '_id', as: 'big' } },
        { $project: { big: 1 } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, big: [] },
      { _id: 3, big: [{ _id: 3, item: 'mug', qty: 12 }] },
    ]);
  });
});

describe('writes fail with 166 CommandNotSupportedOnView', () => {
  test('insert, update and delete (each statement fails)', async () => {
    await expectServerError(view().insertOne({ _id: 9, qty: 9 } as Document), 166);
    await expectServerError(view().updateOne({ _id: 2 } as Document, { $set: { qty: 1 } }), 166);
    await expectServerError(view().deleteMany({}), 166);
    expect(await ctx.db.collection('orders').countDocuments()).toBe(4);
  });

  test('findOneAndUpdate and createIndex', async () => {
    await expectServerError(view().findOneAndUpdate({ _id: 2 } as Document, { $set: { qty: 1 } }), 166, 'CommandNotSupportedOnView');
    await expectServerError(view().createIndex({ qty: 1 }), 166, 'CommandNotSupportedOnView');
  });
});

describe('the catalog', () => {
  test('listCollections shows a view with its definition', async () => {
    const [info] = await ctx.db.listCollections({ name: 'big_orders' }, { nameOnly: false }).toArray();
    expect(info).toEqual({ name: 'big_orders', type: 'view', options: { viewOn: 'orders', pipeline: BIG_ORDERS }, info: { readOnly: true } });
    const [named] = await ctx.db.listCollections({ name: 'big_orders' }, { nameOnly: true }).toArray();
    expect(named).toEqual({ name: 'big_orders', type: 'view' });
  });

  test('a name in use fails with 48 NamespaceExists', async () => {
    await expectServerError(ctx.db.createCollection('orders', { viewOn: 'big_orders', pipeline: [] }), 48, 'NamespaceExists');
  });

  test('drop removes the view and leaves its collection', async () => {
    await ctx.db.createCollection('dropped_view', { viewOn: 'orders', pipeline: [] });
    expect(await ctx.db.dropCollection('dropped_view')).toBe(true);
    expect(await ctx.db.listCollections({ name: 'dropped_view' }).toArray()).toEqual([]);
    expect(await ctx.db.collection('orders').countDocuments()).toBe(4);
  });
});

describe('a view default collation', () => {
  test('applies to reads; another collation fails with 167 OptionNotSupportedOnView', async () => {
    await ctx.db.createCollection('items_ci', { viewOn: 'orders', pipeline: [{ $project: { item: 1 } }], collation: { locale: 'en', strength: 2 } });
    const items = ctx.db.collection('items_ci');
    expect(await items.find({ item: 'MUG' }).toArray()).toEqual([{ _id: 3, item: 'mug' }]);
    await expectServerError(items.find({ item: 'MUG' }).collation({ locale: 'fr' }).toArray(), 167, 'OptionNotSupportedOnView');
  });
});
