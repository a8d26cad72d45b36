/**
 * The aggregate command: $match $project $addFields $set $unset $lookup (both forms) $unwind $group
 * (incl. $topN) $sort $limit $skip $facet $count $replaceRoot $setWindowFields $unionWith and common expressions.
 * Cursor batching over >101 results is covered in mongo-compat-cursors. Runs unchanged against MONGODB_URI.
 */
import { Decimal128, Double, Int32, Long, type Document } from 'mongodb';
import { expectServerError, idsOf, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_aggregate');
const run = (collection: string, pipeline: Document[]) => ctx.db.collection(collection).aggregate(pipeline).toArray();

beforeAll(async () => {
  await ctx.db.collection('customers').insertMany([
    { _id: 'c1', name: 'Ann', tier: 'gold' },
    { _id: 'c2', name: 'Bob', tier: 'silver' },
    { _id: 'c3', name: 'Cid', tier: 'gold' },
  ] as Document[]);
  await ctx.db.collection('orders').insertMany([
    { _id: 1, customer: 'c1', day: 1, items: [{ sku: 'a', qty: 2, price: 5 }, { sku: 'b', qty: 1, price: 20 }] },
    { _id: 2, customer: 'c2', day: 1, items: [{ sku: 'a', qty: 1, price: 5 }] },
    { _id: 3, customer: 'c1', day: 2, items: [] },
    { _id: 4, customer: 'c3', day: 2, items: [{ sku: 'c', qty: 10, price: 1 }] },
    { _id: 5, customer: 'cX', day: 3, items: [{ sku: 'b', qty: 3, price: 20 }] },
  ] as Document[]);
});

describe('shaping stages', () => {
  test('$addFields, $project and $match with computed values, then $sort', async () => {
    const rows = await run('orders', [
      { $addFields: { total: { $sum: { $map: { input: '$items', as: 'i', in: { $multiply: ['$$i.qty', '$$i.price'] } } } } } },
      { $project: { _id: 1, total: 1, nItems: { $size: '$items' } } },
      { $match: { total: { $gt: 0 } } },
      { $sort: { total: -1, _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 5, total: 60, nItems: 1 },
      { _id: 1, total: 30, nItems: 2 },
      { _id: 4, total: 10, nItems: 1 },
      { _id: 2, total: 5, nItems: 1 },
    ]);
  });

  test('$sort, $skip and $limit', async () => {
    const rows = await run('orders', [{ $sort: { _id: -1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }]);
    expect(rows).toEqual([{ _id: 4 }, { _id: 3 }]);
  });

  test('$set and $unset stages, exclusion $project', async () => {
    const rows = await run('customers', [
      { $set: { label: { $concat: [{ $toUpper: '$name' }, '-', '$tier'] } } },
      { $unset: 'tier' },
      { $project: { name: 0 } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'c1', label: 'ANN-gold' },
      { _id: 'c2', label: 'BOB-silver' },
      { _id: 'c3', label: 'CID-gold' },
    ]);
  });

  test('$replaceRoot promotes an embedded document', async () => {
    const rows = await run('orders', [{ $match: { _id: 1 } }, { $unwind: '$items' }, { $replaceRoot: { newRoot: '$items' } }]);
    expect(rows).toEqual([
      { sku: 'a', qty: 2, price: 5 },
      { sku: 'b', qty: 1, price: 20 },
    ]);
    const merged = await run('orders', [
      { $match: { _id: 2 } },
      { $replaceRoot: { newRoot: { $mergeObjects: [{ orderId: '$_id' }, { $arrayElemAt: ['$items', 0] }] } } },
    ]);
    expect(merged).toEqual([{ orderId: 2, sku: 'a', qty: 1, price: 5 }]);
  });

  test('expressions: $cond, $ifNull, $filter, $in, $arrayElemAt', async () => {
    const rows = await run('orders', [
      {
        $project: {
          big: { $cond: [{ $gte: [{ $size: '$items' }, 2] }, 'yes', 'no'] },
          firstSku: { $ifNull: [{ $arrayElemAt: ['$items.sku', 0] }, 'none'] },
          expensive: { $filter: { input: '$items', as: 'i', cond: { $gte: ['$$i.price', 20] } } },
          hasA: { $in: ['a', '$items.sku'] },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 1, big: 'yes', firstSku: 'a', expensive: [{ sku: 'b', qty: 1, price: 20 }], hasA: true },
      { _id: 2, big: 'no', firstSku: 'a', expensive: [], hasA: true },
      { _id: 3, big: 'no', firstSku: 'none', expensive: [], hasA: false },
      { _id: 4, big: 'no', firstSku: 'c', expensive: [], hasA: false },
      { _id: 5, big: 'no', firstSku: 'b', expensive: [{ sku: 'b', qty: 3, price: 20 }], hasA: false },
    ]);
  });

  test('aggregating a missing collection returns no documents', async () => {
    expect(await run('no_such_collection', [{ $match: {} }])).toEqual([]);
  });
});

describe('$project of the first n elements, as find\'s $slice projects them', () => {
  test('an array is cut, a missing field stays missing, another value is kept as it is (a $cond on $isArray)', async () => {
    await ctx.db.collection('sliced').insertMany([
      { _id: 1, tags: ['a', 'b', 'c'], nested: { tags: ['x', 'y'] } },
      { _id: 2, nested: {} },
      { _id: 3, tags: 'solo', nested: { tags: null } },
    ] as Document[]);
    const cut = (path: string) => ({ $cond: [{ $isArray: `$${path}` }, { $slice: [`$${path}`, 2] }, `$${path}`] });
    const rows = await run('sliced', [{ $sort: { _id: 1 } }, { $project: { tags: cut('tags'), 'nested.tags': cut('nested.tags') } }]);
    expect(rows).toEqual([{ _id: 1, tags: ['a', 'b'], nested: { tags: ['x', 'y'] } }, { _id: 2, nested: {} }, { _id: 3, tags: 'solo', nested: { tags: null } }]);
    const found = await ctx.db.collection('sliced').find({}, { sort: { _id: 1 }, projection: { tags: { $slice: 2 }, 'nested.tags': { $slice: 2 } } }).toArray();
    expect(rows).toEqual(found);
  });
});

describe('$lookup', () => {
  test('localField/foreignField joins matching documents into an array (empty when none match)', async () => {
    const rows = await run('orders', [
      { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'cust' } },
      { $project: { names: '$cust.name' } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 1, names: ['Ann'] },
      { _id: 2, names: ['Bob'] },
      { _id: 3, names: ['Ann'] },
      { _id: 4, names: ['Cid'] },
      { _id: 5, names: [] },
    ]);
  });

  test('localField/foreignField with a pipeline: the pipeline filters, sorts and cuts each parent\'s matches (MongoDB 5.0); an empty one changes nothing', async () => {
    const rows = await run('customers', [
      { $lookup: { from: 'orders', localField: '_id', foreignField: 'customer', pipeline: [{ $match: { day: { $gte: 1 } } }, { $sort: { day: -1, _id: 1 } }, { $limit: 1 }, { $project: { _id: 1 } }], as: 'latest' } },
      { $lookup: { from: 'orders', localField: '_id', foreignField: 'customer', pipeline: [], as: 'all' } },
      { $project: { latest: '$latest._id', all: '$all._id' } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'c1', latest: [3], all: [1, 3] },
      { _id: 'c2', latest: [2], all: [2] },
      { _id: 'c3', latest: [4], all: [4] },
    ]);
  });

  test('one-to-many: each customer gets all its orders in natural order', async () => {
    const rows = await run('customers', [
      { $lookup: { from: 'orders', localField: '_id', foreignField: 'customer', as: 'orders' } },
      { $project: { orderIds: '$orders._id' } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'c1', orderIds: [1, 3] },
      { _id: 'c2', orderIds: [2] },
      { _id: 'c3', orderIds: [4] },
    ]);
  });

  test('an array localField matches any of its elements', async () => {
    // MongoDB docs, "$lookup" > "Use $lookup with an Array".
    await ctx.db.collection('teams').insertOne({ _id: 't1', members: ['c3', 'c1', 'nobody'] } as Document);
    const rows = await run('teams', [
      { $lookup: { from: 'customers', localField: 'members', foreignField: '_id', as: 'people' } },
      { $project: { names: '$people.name' } },
    ]);
    expect(rows).toHaveLength(1);
    expect([...(rows[0]!.names as string[])].sort()).toEqual(['Ann', 'Cid']);
  });

  test('let + pipeline form with $expr', async () => {
    const rows = await run('customers', [
      {
        $lookup: {
          from: 'orders',
          let: { cid: '$_id' },
          pipeline: [
            { $match: { $expr: { $and: [{ $eq: ['$customer', '$$cid'] }, { $gte: ['$day', 2] }] } } },
            { $project: { _id: 1 } },
          ],
          as: 'late',
        },
      },
      { $sort: { _id: 1 } },
      { $project: { late: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'c1', late: [{ _id: 3 }] },
      { _id: 'c2', late: [] },
      { _id: 'c3', late: [{ _id: 4 }] },
    ]);
  });

  describe('with an index on the foreign field (what the gateway\'s nested reads send)', () => {
    const posts = () => ctx.db.collection('lookup_posts');
    const comments = () => ctx.db.collection('lookup_comments');
    beforeAll(async () => {
      await posts().insertMany([{ _id: 'p1', tags: ['a', 'b'] }, { _id: 'p2', tags: ['b'] }, { _id: 'p3', tags: [] }] as Document[]);
      await comments().insertMany(
        Array.from({ length: 12 }, (_, i) => ({ _id: i, post: `p${1 + (i % 3)}`, day: i % 5, tag: i % 4 === 0 ? ['a', 'b'] : i % 4 === 1 ? 'b' : 'c' })) as Document[],
      );
      await comments().createIndex({ post: 1, day: -1 });
      await comments().createIndex({ tag: 1 });
    });

    test('let + pipeline: per parent its newest two by day, then _id', async () => {
      const rows = await run('lookup_posts', [
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: 'lookup_comments',
            let: { post: '$_id' },
            pipeline: [{ $match: { $expr: { $eq: ['$post', '$$post'] } } }, { $sort: { day: -1, _id: -1 } }, { $limit: 2 }, { $project: { _id: 1, day: 1 } }],
            as: 'newest',
          },
        },
        { $project: { newest: 1 } },
      ]);
      // p1: comments 0, 3, 6, 9 (days 0, 3, 1, 4); p2: 1, 4, 7, 10 (1, 4, 2, 0); p3: 2, 5, 8, 11 (2, 0, 3, 1).
      expect(rows).toEqual([
        { _id: 'p1', newest: [{ _id: 9, day: 4 }, { _id: 3, day: 3 }] },
        { _id: 'p2', newest: [{ _id: 4, day: 4 }, { _id: 7, day: 2 }] },
        { _id: 'p3', newest: [{ _id: 8, day: 3 }, { _id: 2, day: 2 }] },
      ]);
    });

    test('localField/foreignField through the index: array elements on either side match', async () => {
      const rows = await run('lookup_posts', [{ $sort: { _id: 1 } }, { $lookup: { from: 'lookup_comments', localField: 'tags', foreignField: 'tag', as: 'tagged' } }, { $project: { ids: '$tagged._id' } }]);
      const ids = (rows: Document[]) => rows.map((row) => [...(row.ids as number[])].sort((a, b) => a - b));
      // ['a','b'] matches comments tagged ['a','b'] (0, 4, 8) and 'b' (1, 5, 9); ['b'] the same; [] nothing.
      expect(ids(rows)).toEqual([[0, 1, 4, 5, 8, 9], [0, 1, 4, 5, 8, 9], []]);
    });

    test('let + pipeline: $eq compares an array variable whole, not by its elements', async () => {
      const rows = await run('lookup_posts', [
        { $sort: { _id: 1 } },
        { $lookup: { from: 'lookup_comments', let: { tags: '$tags' }, pipeline: [{ $match: { $expr: { $eq: ['$tag', '$$tags'] } } }, { $project: { _id: 1 } }], as: 'same' } },
        { $project: { ids: '$same._id' } },
      ]);
      // Only p1's ['a','b'] equals a stored tag whole (comments 0, 4, 8); p2's ['b'] equals none; p3's [] none.
      expect(rows.map((row) => [...(row.ids as number[])].sort((a, b) => a - b))).toEqual([[0, 4, 8], [], []]);
    });
  });

  test('a lookup into a missing collection yields empty arrays', async () => {
    const rows = await run('customers', [
      { $lookup: { from: 'no_such_collection', localField: '_id', foreignField: 'x', as: 'none' } },
      { $project: { none: 1 } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'c1', none: [] },
      { _id: 'c2', none: [] },
      { _id: 'c3', none: [] },
    ]);
  });
});

// MongoDB docs, "$unionWith": the input's documents, then each branch's, in stage order (a single
// server streams them so; the docs leave the order unspecified, hence the explicit sorts in branches)
describe('$unionWith', () => {
  test('appends each branch after the input, in stage order, each branch with its own stages', async () => {
    const rows = await run('customers', [
      { $match: { tier: 'gold' } },
      { $sort: { _id: 1 } },
      { $project: { _id: 1 } },
      { $unionWith: { coll: 'orders', pipeline: [{ $match: { customer: 'c1' } }, { $sort: { day: -1 } }, { $limit: 1 }, { $project: { _id: 1, day: 1 } }] } },
      { $unionWith: { coll: 'orders', pipeline: [{ $match: { customer: 'c2' } }, { $project: { _id: 1, customer: 1 } }] } },
      { $unionWith: { coll: 'orders', pipeline: [{ $match: { day: { $gte: 2 } } }, { $sort: { _id: -1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }] } },
    ]);
    expect(rows).toEqual([{ _id: 'c1' }, { _id: 'c3' }, { _id: 3, day: 2 }, { _id: 2, customer: 'c2' }, { _id: 4 }, { _id: 3 }]);
  });

  test('the string form takes the whole collection; later stages see the union', async () => {
    const rows = await run('customers', [
      { $project: { _id: 0, key: '$_id' } },
      { $unionWith: 'orders' },
      { $group: { _id: { $type: '$key' }, n: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'missing', n: 5 },
      { _id: 'string', n: 3 },
    ]);
  });

  test('a branch over a missing collection adds nothing; the input may be empty', async () => {
    const rows = await run('orders', [
      { $match: { customer: 'nobody' } },
      { $unionWith: { coll: 'no_such_collection', pipeline: [{ $project: { _id: 1 } }] } },
      { $unionWith: { coll: 'customers', pipeline: [{ $match: { _id: 'c2' } }] } },
    ]);
    expect(rows).toEqual([{ _id: 'c2', name: 'Bob', tier: 'silver' }]);
  });

  test('branches nest, and a collection can be unioned with itself', async () => {
    const rows = await run('customers', [
      { $match: { _id: 'c1' } },
      { $project: { _id: 1 } },
      { $unionWith: { coll: 'customers', pipeline: [{ $match: { _id: 'c2' } }, { $project: { _id: 1 } }, { $unionWith: { coll: 'orders', pipeline: [{ $match: { _id: 5 } }, { $project: { customer: 1 } }] } }] } },
    ]);
    expect(rows).toEqual([{ _id: 'c1' }, { _id: 'c2' }, { _id: 5, customer: 'cX' }]);
  });

  test('rejects a specification that is neither a collection name nor { coll, pipeline }', async () => {
    await expect(run('customers', [{ $unionWith: 5 }])).rejects.toMatchObject({ code: 9 });
    await expect(run('customers', [{ $unionWith: { coll: 'orders', pipeline: [], as: 'x' } }])).rejects.toMatchObject({ code: 40415 });
  });
});

describe('$unwind', () => {
  test('drops documents with empty arrays by default', async () => {
    const rows = await run('orders', [{ $unwind: '$items' }, { $project: { sku: '$items.sku' } }, { $sort: { _id: 1, sku: 1 } }]);
    expect(rows).toEqual([
      { _id: 1, sku: 'a' },
      { _id: 1, sku: 'b' },
      { _id: 2, sku: 'a' },
      { _id: 4, sku: 'c' },
      { _id: 5, sku: 'b' },
    ]);
  });

  test('includeArrayIndex and preserveNullAndEmptyArrays', async () => {
    // MongoDB docs, "$unwind": a preserved empty array yields the document without the field and a null index.
    const rows = await run('orders', [
      { $match: { _id: { $in: [1, 3] } } },
      { $unwind: { path: '$items', includeArrayIndex: 'idx', preserveNullAndEmptyArrays: true } },
      { $project: { customer: 0, day: 0 } },
      { $sort: { _id: 1, idx: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 1, items: { sku: 'a', qty: 2, price: 5 }, idx: 0 },
      { _id: 1, items: { sku: 'b', qty: 1, price: 20 }, idx: 1 },
      { _id: 3, idx: null },
    ]);
  });

  test('unwinds a present value that is no array as a one-element array, an empty document or string included', async () => {
    // MongoDB docs, "$unwind": an operand that is not an array, but is not missing, null or an empty array, is treated as a one-element array.
    await ctx.db.collection('unwind_values').insertMany([{ _id: 1, v: {} }, { _id: 2, v: '' }, { _id: 3, v: 'x' }, { _id: 4, v: null }, { _id: 5 }, { _id: 6, v: [] }, { _id: 7, v: [0, [1]] }] as Document[]);
    expect(await run('unwind_values', [{ $unwind: { path: '$v', includeArrayIndex: 'i' } }, { $sort: { _id: 1, i: 1 } }])).toEqual([
      { _id: 1, v: {}, i: null },
      { _id: 2, v: '', i: null },
      { _id: 3, v: 'x', i: null },
      { _id: 7, v: 0, i: 0 },
      { _id: 7, v: [1], i: 1 },
    ]);
  });

  test('unwinds a dotted path through embedded documents, not through an array on the way', async () => {
    await ctx.db.collection('unwind_paths').insertMany([{ _id: 1, a: { b: [1, 2], c: 0 } }, { _id: 2, a: [{ b: [3] }] }] as Document[]);
    expect(await run('unwind_paths', [{ $unwind: '$a.b' }, { $sort: { _id: 1, 'a.b': 1 } }])).toEqual([
      { _id: 1, a: { b: 1, c: 0 } },
      { _id: 1, a: { b: 2, c: 0 } },
    ]);
  });

  test('reads only the fields a document has: a name an object inherits (constructor, toString) is missing', async () => {
    await ctx.db.collection('unwind_own').insertMany([{ _id: 1, meta: {} }, { _id: 2, constructor: 'c' }] as Document[]);
    expect(await run('unwind_own', [{ $unwind: '$constructor' }])).toEqual([{ _id: 2, constructor: 'c' }]);
    expect(await run('unwind_own', [{ $unwind: '$meta.toString' }])).toEqual([]);
  });

  test('sets a dotted includeArrayIndex as a nested field', async () => {
    expect(await run('orders', [{ $match: { _id: 4 } }, { $unwind: { path: '$items', includeArrayIndex: 'at.index' } }, { $project: { at: 1 } }])).toEqual([{ _id: 4, at: { index: 0 } }]);
  });

  test.each([
    ['a path that is not a field path', 'items', 28818],
    ['neither a string nor a document', 5, 15981],
    ['a path that is not a string', { path: 5 }, 28808],
    ['no path', {}, 28812],
    ['an unknown option', { path: '$items', keep: true }, 28811],
    ['a preserveNullAndEmptyArrays that is not a boolean', { path: '$items', preserveNullAndEmptyArrays: 1 }, 28809],
    ['an includeArrayIndex that is not a string', { path: '$items', includeArrayIndex: 5 }, 28810],
    ['an empty includeArrayIndex', { path: '$items', includeArrayIndex: '' }, 28810],
    ['an includeArrayIndex that starts with $', { path: '$items', includeArrayIndex: '$i' }, 28822],
  ])('refuses %s', async (_case, spec, code) => {
    await expect(run('orders', [{ $unwind: spec }])).rejects.toMatchObject({ code });
  });
});

describe('$group', () => {
  test('accumulators: $sum, $avg, $max, $min, $push, $addToSet, $first, $last', async () => {
    const rows = await run('orders', [
      { $sort: { _id: 1 } },
      { $unwind: '$items' },
      {
        $group: {
          _id: '$items.sku',
          qty: { $sum: '$items.qty' },
          revenue: { $sum: { $multiply: ['$items.qty', '$items.price'] } },
          lines: { $sum: 1 },
          avgQty: { $avg: '$items.qty' },
          maxPrice: { $max: '$items.price' },
          minQty: { $min: '$items.qty' },
          orders: { $push: '$_id' },
          customers: { $addToSet: '$customer' },
          firstOrder: { $first: '$_id' },
          lastOrder: { $last: '$_id' },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(rows.map((row) => ({ ...row, customers: [...(row.customers as string[])].sort() }))).toEqual([
      { _id: 'a', qty: 3, revenue: 15, lines: 2, avgQty: 1.5, maxPrice: 5, minQty: 1, orders: [1, 2], customers: ['c1', 'c2'], firstOrder: 1, lastOrder: 2 },
      { _id: 'b', qty: 4, revenue: 80, lines: 2, avgQty: 2, maxPrice: 20, minQty: 1, orders: [1, 5], customers: ['c1', 'cX'], firstOrder: 1, lastOrder: 5 },
      { _id: 'c', qty: 10, revenue: 10, lines: 1, avgQty: 10, maxPrice: 1, minQty: 10, orders: [4], customers: ['c3'], firstOrder: 4, lastOrder: 4 },
    ]);
  });

  test('$avg over a Long sum, or an Int32 sum past 2^31, whose digits end in zeros', async () => {
    await ctx.db.collection('long_avg').insertMany([
      { _id: 1, l: Long.fromNumber(100), n: 1_500_000_000 },
      { _id: 2, l: Long.fromNumber(200), n: 1_500_000_000 },
    ] as Document[]);
    expect(await run('long_avg', [{ $group: { _id: null, l: { $avg: '$l' }, n: { $avg: '$n' } } }])).toEqual([{ _id: null, l: 150, n: 1_500_000_000 }]);
  });

  test('$push and $addToSet leave out a missing value and keep a null one (AccumulatorPush skips missing)', async () => {
    await ctx.db.collection('sparse_values').insertMany([
      { _id: 1, g: 'x', v: 1 },
      { _id: 2, g: 'x' },
      { _id: 3, g: 'x', v: null },
      { _id: 4, g: 'y' },
    ] as Document[]);
    const rows = await run('sparse_values', [{ $sort: { _id: 1 } }, { $group: { _id: '$g', pushed: { $push: '$v' }, set: { $addToSet: '$v' } } }, { $sort: { _id: 1 } }]);
    expect(rows.map((row) => ({ ...row, set: [...(row.set as unknown[])].sort() }))).toEqual([
      { _id: 'x', pushed: [1, null], set: [1, null] },
      { _id: 'y', pushed: [], set: [] },
    ]);
  });

  test('expressions rank a missing value below null: $eq, $lt and $cmp against null, and two missing values are equal', async () => {
    await ctx.db.collection('missing_vs_null').insertMany([{ _id: 1, a: null }, { _id: 2 }, { _id: 3, a: 1 }] as Document[]);
    const rows = await run('missing_vs_null', [
      { $sort: { _id: 1 } },
      { $project: { eqNull: { $eq: ['$a', null] }, ltNull: { $lt: ['$a', null] }, cmp: { $cmp: ['$a', null] }, bothMissing: { $eq: ['$a', '$nothing'] } } },
    ]);
    expect(rows.map(({ _id, eqNull, ltNull, cmp, bothMissing }) => [_id, eqNull, ltNull, cmp, bothMissing])).toEqual([
      [1, true, false, 0, false],
      [2, false, true, -1, true],
      [3, false, false, 1, false],
    ]);
    expect(await idsOf(ctx.db.collection('missing_vs_null'), { $expr: { $eq: ['$a', null] } })).toEqual([1]);
  });

  test('expression $in compares as $eq does: a missing value is not in [null], nor in an array of missing fields (which hold null)', async () => {
    await ctx.db.collection('in_missing').insertMany([{ _id: 1, a: null }, { _id: 2 }, { _id: 3, a: 1 }] as Document[]);
    const rows = await run('in_missing', [{ $sort: { _id: 1 } }, { $project: { inNull: { $in: ['$a', [null]] }, inMissing: { $in: ['$a', ['$nothing']] } } }]);
    expect(rows.map(({ _id, inNull, inMissing }) => [_id, inNull, inMissing])).toEqual([
      [1, true, true],
      [2, false, false],
      [3, false, false],
    ]);
    expect(await idsOf(ctx.db.collection('in_missing'), { $expr: { $in: ['$a', [null]] } })).toEqual([1]);
  });

  test('_id: null groups everything; a compound _id groups by several fields', async () => {
    expect(await run('orders', [{ $group: { _id: null, n: { $sum: 1 }, days: { $addToSet: '$day' } } }, { $project: { _id: 1, n: 1 } }])).toEqual([
      { _id: null, n: 5 },
    ]);
    const rows = await run('orders', [{ $group: { _id: { c: '$customer', d: '$day' }, n: { $sum: 1 } } }, { $sort: { '_id.c': 1, '_id.d': 1 } }]);
    expect(rows).toEqual([
      { _id: { c: 'c1', d: 1 }, n: 1 },
      { _id: { c: 'c1', d: 2 }, n: 1 },
      { _id: { c: 'c2', d: 1 }, n: 1 },
      { _id: { c: 'c3', d: 2 }, n: 1 },
      { _id: { c: 'cX', d: 3 }, n: 1 },
    ]);
  });

  test('$group over no input documents emits no group, not a zero row', async () => {
    expect(await run('orders', [{ $match: { day: 99 } }, { $group: { _id: null, n: { $sum: 1 } } }])).toEqual([]);
  });

  test('$topN with n below 1 fails with 5787908 (accumulator_multi.cpp)', async () => {
    await ctx.db.collection('topn_zero').insertOne({ v: 1 });
    await expectServerError(ctx.db.collection('topn_zero').aggregate([{ $group: { _id: null, t: { $topN: { n: 0, sortBy: { v: 1 }, output: '$v' } } } }]).toArray(), 5787908);
  });

  test('$topN returns the n best per group by sortBy', async () => {
    // MongoDB docs, "$topN (aggregation accumulator)": find the top n scores per game.
    await ctx.db.collection('gamescores').insertMany([
      { playerId: 'PlayerA', gameId: 'G1', score: 31 },
      { playerId: 'PlayerB', gameId: 'G1', score: 33 },
      { playerId: 'PlayerC', gameId: 'G1', score: 99 },
      { playerId: 'PlayerD', gameId: 'G1', score: 1 },
      { playerId: 'PlayerA', gameId: 'G2', score: 10 },
      { playerId: 'PlayerB', gameId: 'G2', score: 14 },
      { playerId: 'PlayerC', gameId: 'G2', score: 66 },
      { playerId: 'PlayerD', gameId: 'G2', score: 80 },
    ]);
    const rows = await run('gamescores', [
      { $group: { _id: '$gameId', top: { $topN: { n: 3, sortBy: { score: -1 }, output: ['$playerId', '$score'] } } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'G1', top: [['PlayerC', 99], ['PlayerB', 33], ['PlayerA', 31]] },
      { _id: 'G2', top: [['PlayerD', 80], ['PlayerC', 66], ['PlayerB', 14]] },
    ]);
    const single = await run('gamescores', [
      { $match: { gameId: 'G2' } },
      { $group: { _id: '$gameId', low: { $topN: { n: 1, sortBy: { score: 1 }, output: '$playerId' } } } },
    ]);
    expect(single).toEqual([{ _id: 'G2', low: ['PlayerA'] }]);
  });
});

describe('field paths through arrays (ExpressionFieldPath::evaluatePathArray)', () => {
  beforeAll(async () => {
    await ctx.db.collection('nested_arrays').insertMany([
      { _id: 1, a: [[{ b: 1 }]] },
      { _id: 2, a: [3, [1]] },
      { _id: 3, a: [{ b: 1 }, [{ b: 2 }], 7] },
      { _id: 4, lines: [{ qty: 2 }, [{ qty: 5 }]] },
    ] as Document[]);
  });

  test('"$a.b" takes b from the elements that are documents, skipping nested arrays and scalars', async () => {
    const rows = await run('nested_arrays', [{ $match: { a: { $exists: true } } }, { $sort: { _id: 1 } }, { $project: { x: '$a.b' } }]);
    expect(rows).toEqual([{ _id: 1, x: [] }, { _id: 2, x: [] }, { _id: 3, x: [1] }]);
  });

  test('inside operators and in $group as well', async () => {
    const rows = await run('nested_arrays', [
      { $match: { _id: 4 } },
      { $project: { total: { $sum: '$lines.qty' }, keys: { $cond: [{ $isArray: '$lines.qty' }, '$lines.qty', ['$lines.qty']] } } },
    ]);
    expect(rows).toEqual([{ _id: 4, total: 2, keys: [2] }]);
    expect(await run('nested_arrays', [{ $match: { _id: 4 } }, { $group: { _id: '$lines.qty', n: { $sum: 1 } } }])).toEqual([{ _id: [2], n: 1 }]);
  });
});

describe('$facet and $count', () => {
  test('$facet runs several pipelines over the same input', async () => {
    const rows = await run('orders', [
      {
        $facet: {
          byDay: [{ $group: { _id: '$day', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
          total: [{ $count: 'n' }],
          newest: [{ $sort: { _id: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }],
        },
      },
    ]);
    expect(rows).toEqual([
      {
        byDay: [
          { _id: 1, n: 2 },
          { _id: 2, n: 2 },
          { _id: 3, n: 1 },
        ],
        total: [{ n: 5 }],
        newest: [{ _id: 5 }],
      },
    ]);
  });

  test('$count counts the documents that reach it, and emits nothing for no input', async () => {
    // MongoDB docs, "$count": it is $group + $project, so empty input gives an empty result
    // (the driver CRUD spec says countDocuments must read that as 0).
    expect(await run('orders', [{ $match: { day: { $gte: 2 } } }, { $count: 'late' }])).toEqual([{ late: 3 }]);
    expect(await run('orders', [{ $match: { day: 99 } }, { $count: 'none' }])).toEqual([]);
  });
});

describe('$setWindowFields', () => {
  test('running totals, moving averages and rank per partition', async () => {
    // MongoDB docs, "$setWindowFields": documents window ["unbounded", "current"] is a running total.
    await ctx.db.collection('sales').insertMany([
      { _id: 1, store: 'A', day: 1, amount: 10 },
      { _id: 2, store: 'A', day: 2, amount: 5 },
      { _id: 3, store: 'A', day: 3, amount: 20 },
      { _id: 4, store: 'B', day: 1, amount: 7 },
      { _id: 5, store: 'B', day: 2, amount: 7 },
    ] as Document[]);
    const rows = await run('sales', [
      {
        $setWindowFields: {
          partitionBy: '$store',
          sortBy: { day: 1 },
          output: {
            running: { $sum: '$amount', window: { documents: ['unbounded', 'current'] } },
            moving: { $avg: '$amount', window: { documents: [-1, 0] } },
            rank: { $rank: {} },
          },
        },
      },
      { $project: { running: 1, moving: 1, rank: 1 } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 1, running: 10, moving: 10, rank: 1 },
      { _id: 2, running: 15, moving: 7.5, rank: 2 },
      { _id: 3, running: 35, moving: 12.5, rank: 3 },
      { _id: 4, running: 7, moving: 7, rank: 1 },
      { _id: 5, running: 14, moving: 7, rank: 2 },
    ]);
  });
});

describe('field order of computed stages (asserted with Object.keys: toEqual ignores order)', () => {
  // MongoDB docs, "Document" > "Field Order": _id is always the first field. An inclusion $project
  // keeps included fields in the input document's order and appends computed fields in spec order
  // (see precog/quasar#598 for the observed behaviour); $addFields/$set append new fields after the
  // existing ones and overwrite existing ones in place ("$addFields" docs).
  beforeAll(async () => {
    await ctx.db.collection('ordered').insertOne({ _id: 1, b: 2, a: 1, c: 3 } as Document);
  });
  const keysOf = async (pipeline: Document[]) => Object.keys((await run('ordered', pipeline))[0]!);

  test('$project with a computed field keeps _id first', async () => {
    expect(await keysOf([{ $project: { z: '$a' } }])).toEqual(['_id', 'z']);
    expect(await keysOf([{ $project: { z: '$a', c: 1, a: 1 } }])).toEqual(['_id', 'a', 'c', 'z']);
    expect(await keysOf([{ $project: { _id: 0, z: '$a', b: 1 } }])).toEqual(['b', 'z']);
  });

  test('$project puts several computed fields in the order of its spec, not by name', async () => {
    expect(await keysOf([{ $project: { zz: { $add: [1, 1] }, bb: '$a', aa: { $literal: 1 } } }])).toEqual(['_id', 'zz', 'bb', 'aa']);
    expect(await keysOf([{ $project: { zz: { $add: [1, 1] }, c: 1, aa: { $literal: 1 }, b: 1 } }])).toEqual(['_id', 'b', 'c', 'zz', 'aa']);
  });

  test('$addFields and $set append new fields and overwrite existing ones where they are', async () => {
    expect(await keysOf([{ $addFields: { z: 1, a: 5 } }])).toEqual(['_id', 'b', 'a', 'c', 'z']);
    expect(await keysOf([{ $set: { y: 1, b: 0 } }])).toEqual(['_id', 'b', 'a', 'c', 'y']);
  });
});

describe('Long and Decimal128 in window functions and expressions', () => {
  // MongoDB docs, "Comparison/Sort Order": numbers compare by value whatever their BSON type;
  // "$rank": equal sortBy values share a rank, leaving gaps; "$denseRank": no gaps.
  beforeAll(async () => {
    await ctx.db.collection('mixed_numbers').insertMany([
      { _id: 1, g: 'x', v: Decimal128.fromString('-1') },
      { _id: 2, g: 'x', v: 3 },
      { _id: 3, g: 'x', v: new Double(2 ** 53) },
      { _id: 4, g: 'x', v: Decimal128.fromString('9007199254740992.5') },
      { _id: 5, g: 'x', v: Long.fromString('9007199254740993') },
      { _id: 6, g: 'x', v: Long.fromNumber(3) },
    ] as Document[]);
  });

  test('$setWindowFields sortBy ranks by numeric value across Int32, Double, Long and Decimal128', async () => {
    const rows = await run('mixed_numbers', [
      { $setWindowFields: { partitionBy: '$g', sortBy: { v: 1 }, output: { rank: { $rank: {} }, dense: { $denseRank: {} } } } },
      { $sort: { rank: 1, _id: 1 } },
      { $project: { _id: 1, rank: 1, dense: 1 } },
    ]);
    expect(rows.map((row) => [row._id, row.rank, row.dense])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [6, 2, 2],
      [3, 4, 3],
      [4, 5, 4],
      [5, 6, 5],
    ]);
  });

  test('$setWindowFields partitions by value: Long(1), 1 and Decimal128("1.0") are one partition', async () => {
    await ctx.db.collection('partitions').insertMany([
      { _id: 1, p: Long.fromNumber(1), n: 1 },
      { _id: 2, p: 1, n: 2 },
      { _id: 3, p: Decimal128.fromString('1.0'), n: 3 },
      { _id: 4, p: 2, n: 4 },
    ] as Document[]);
    const rows = await run('partitions', [
      { $setWindowFields: { partitionBy: '$p', output: { total: { $sum: '$n' } } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows.map((row) => row.total)).toEqual([6, 6, 6, 4]);
  });

  test('$sortArray orders mixed numeric types by value', async () => {
    const [row] = await run('mixed_numbers', [
      { $group: { _id: null, all: { $push: '$v' } } },
      { $project: { _id: 0, sorted: { $sortArray: { input: '$all', sortBy: -1 } } } },
    ]);
    expect(row!.sorted.map(String)).toEqual(['9007199254740993', '9007199254740992.5', '9007199254740992', '3', '3', '-1']);
  });

  test('$subtract on Long is exact and stays Long; $abs and $divide keep Decimal128', async () => {
    await ctx.db.collection('arith').insertOne({ _id: 1, l: Long.fromString('9007199254740993'), d: Decimal128.fromString('-2.50'), i: 7 } as Document);
    const [row] = await ctx.db
      .collection('arith')
      .aggregate([
        {
          $project: {
            _id: 0,
            sub: { $subtract: ['$l', 1] },
            subType: { $type: { $subtract: ['$l', 1] } },
            abs: { $abs: '$d' },
            absType: { $type: { $abs: '$d' } },
            div: { $divide: ['$d', 2] },
            divType: { $type: { $divide: ['$d', 2] } },
            intDiv: { $divide: ['$i', 2] },
            sum: { $add: ['$l', '$d'] },
          },
        },
      ])
      .toArray();
    expect({ ...row, sub: String(row!.sub), abs: String(row!.abs), div: String(row!.div), sum: String(row!.sum) }).toEqual({
      sub: '9007199254740992',
      subType: 'long',
      abs: '2.50',
      absType: 'decimal',
      div: '-1.25',
      divType: 'decimal',
      intDiv: 3.5,
      sum: '9007199254740990.50',
    });
  });

  test('$isNumber is true for every numeric type, a whole Double and a Long included, and false for anything else', async () => {
    const values = [new Double(2), 2.5, 7, Long.fromString('9007199254740993'), Decimal128.fromString('1.5'), '3', null, true, [1]];
    await ctx.db.collection('isNumber').insertMany(values.map((v, _id) => ({ _id, v }) as Document));
    const rows = await ctx.db.collection('isNumber').aggregate([{ $sort: { _id: 1 } }, { $project: { _id: 0, is: { $isNumber: '$v' } } }]).toArray();
    expect(rows.map((row) => row.is)).toEqual([true, true, true, true, true, false, false, false, false]);
  });

  // MongoDB docs, "$setUnion" and the other set expressions: results have no duplicates, and members
  // compare as values do ("Comparison/Sort Order"): numbers by value, documents and arrays by their contents.
  test('set expressions take Int32, Long, Double and Decimal128 of one value, and documents or arrays holding them, as one member', async () => {
    await ctx.db.collection('set_members').insertOne({
      _id: 1,
      ones: [Long.fromNumber(1), new Int32(1), Decimal128.fromString('1.0'), new Double(1)],
      docs: [{ a: 1 }, { a: Long.fromNumber(1) }, [1, 2], [Decimal128.fromString('1'), new Double(2)]],
      longs: [Long.fromNumber(1), Long.fromNumber(2), Long.fromNumber(3)],
      mixed: [1, Decimal128.fromString('2.0')],
    } as Document);
    const [row] = await run('set_members', [
      {
        $project: {
          _id: 0,
          union: { $size: { $setUnion: ['$ones', []] } },
          docs: { $size: { $setUnion: ['$docs'] } },
          intersection: { $size: { $setIntersection: ['$longs', '$mixed'] } },
          difference: { $setDifference: ['$longs', '$mixed'] },
          equals: { $setEquals: ['$ones', [1]] },
          subset: { $setIsSubset: ['$mixed', '$longs'] },
        },
      },
    ]);
    expect({ ...row, difference: row!.difference.map(String) }).toEqual({ union: 1, docs: 2, intersection: 2, difference: ['3'], equals: true, subset: true });
  });

  test("docjoin's per-parent keys ($reduce over $setUnion) count a child listing its parent as Int32 7 and Long 7 once", async () => {
    await ctx.db.collection('parent_keys').insertMany([
      { _id: 'b1', authorIds: [new Int32(7), Long.fromNumber(7)] },
      { _id: 'b2', authorIds: [new Int32(7)] },
    ] as Document[]);
    const asList = (value: string) => ({ $cond: [{ $isArray: value }, value, [value]] });
    const rows = await run('parent_keys', [
      { $addFields: { parent: { $reduce: { input: asList('$authorIds'), initialValue: [], in: { $setUnion: ['$$value', asList('$$this')] } } } } },
      { $unwind: '$parent' },
      { $group: { _id: '$parent', count: { $sum: 1 } } },
    ]);
    expect(rows).toEqual([{ _id: 7, count: 2 }]);
  });
});

