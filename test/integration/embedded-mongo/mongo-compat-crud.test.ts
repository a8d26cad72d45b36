/**
 * insert, find (filter, projection, sort, skip, limit), delete, findAndModify, count, distinct,
 * and copy-on-write isolation, through the driver's normal API. Runs unchanged against MONGODB_URI.
 */
import { Decimal128, Double, Long, ObjectId, type Document } from 'mongodb';
import { idsOf, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_crud');
const coll = <T extends Document = Document>(name: string) => ctx.db.collection<T>(name);

describe('insert', () => {
  test('insertOne returns the _id and the document reads back unchanged', async () => {
    const c = coll('insert_one');
    const result = await c.insertOne({ name: 'Ada', tags: ['x', 'y'], nested: { deep: { n: 1 } } });
    expect(result.acknowledged).toBe(true);
    expect(result.insertedId).toBeInstanceOf(ObjectId);
    const read = await c.findOne({ _id: result.insertedId });
    expect(read).toEqual({ _id: result.insertedId, name: 'Ada', tags: ['x', 'y'], nested: { deep: { n: 1 } } });
  });

  test('a document past 16 MiB is refused, by an insert or by an update that would make one, and the collection stays readable', async () => {
    const c = coll<{ _id: number; text?: string; a?: string; b?: string }>('too_large');
    await c.insertOne({ _id: 1, text: 'small' });
    // The driver may refuse it before sending (its maxBsonObjectSize check); either way nothing is stored.
    await expect(c.insertOne({ _id: 2, text: 'x'.repeat(17 * 1024 * 1024) })).rejects.toThrow();
    // Each update is small enough to send; the second's result is not small enough to keep.
    const nineMiB = 'x'.repeat(9 * 1024 * 1024);
    await c.updateOne({ _id: 1 }, { $set: { a: nineMiB } });
    await expect(c.updateOne({ _id: 1 }, { $set: { b: nineMiB } })).rejects.toThrow(/too large|larger than/);
    await expect(c.findOneAndUpdate({ _id: 1 }, { $set: { b: nineMiB } })).rejects.toThrow(/too large|larger than/);
    expect(await c.find({}, { projection: { a: 0 } }).toArray()).toEqual([{ _id: 1, text: 'small' }]);
    expect(await c.countDocuments({ b: { $exists: true } })).toBe(0);
  });

  test('insertMany inserts every document and reports the count and ids by position', async () => {
    const c = coll('insert_many');
    const result = await c.insertMany([{ _id: 1, v: 'a' }, { _id: 2, v: 'b' }, { _id: 3, v: 'c' }] as Document[]);
    expect(result.insertedCount).toBe(3);
    expect(result.insertedIds).toEqual({ 0: 1, 1: 2, 2: 3 });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'a' },
      { _id: 2, v: 'b' },
      { _id: 3, v: 'c' },
    ]);
  });

  test('the raw insert command replies with n, and the server adds an ObjectId _id as the first field', async () => {
    // MongoDB docs, "Documents" > "Field Order": _id is always the first field; the server adds
    // an ObjectId _id when the inserted document has none.
    const reply = await ctx.db.command({ insert: 'insert_raw', documents: [{ a: 1 }, { b: 2 }] });
    expect(reply).toMatchObject({ ok: 1, n: 2 });
    const docs = await coll('insert_raw').find().toArray();
    expect(docs).toHaveLength(2);
    for (const doc of docs) {
      expect(doc._id).toBeInstanceOf(ObjectId);
      expect(Object.keys(doc)[0]).toBe('_id');
    }
  });

  test('an _id given last is stored first', async () => {
    const c = coll('insert_order');
    await c.insertOne({ a: 1, b: 2, _id: 5 } as Document);
    const doc = await c.findOne({ _id: 5 } as Document);
    expect(Object.keys(doc!)).toEqual(['_id', 'a', 'b']);
  });
});

describe('find', () => {
  const people = [
    { _id: 1, name: 'ann', age: 31, city: 'Oslo', tags: ['a', 'b'], pets: [{ kind: 'cat', age: 3 }] },
    { _id: 2, name: 'bob', age: 25, city: 'Rome', tags: ['b'], pets: [{ kind: 'dog', age: 5 }, { kind: 'cat', age: 1 }] },
    { _id: 3, name: 'cid', age: 40, city: 'Oslo', tags: [], pets: [] },
    { _id: 4, name: 'dee', age: 25, city: 'Lima', tags: ['c', 'a'], pets: [{ kind: 'dog', age: 2 }] },
    { _id: 5, name: 'eve', age: 52, tags: ['a', 'b', 'c'] },
  ];
  beforeAll(async () => {
    await coll('people').insertMany(people as Document[]);
  });

  test.each<[string, Document, number[]]>([
    ['equality', { city: 'Oslo' }, [1, 3]],
    ['$gt/$lte range', { age: { $gt: 25, $lte: 40 } }, [1, 3]],
    ['$in', { city: { $in: ['Rome', 'Lima'] } }, [2, 4]],
    ['$nin (also matches a missing field)', { city: { $nin: ['Oslo', 'Rome'] } }, [4, 5]],
    ['$ne', { age: { $ne: 25 } }, [1, 3, 5]],
    ['$or', { $or: [{ age: 52 }, { city: 'Rome' }] }, [2, 5]],
    ['$and', { $and: [{ tags: 'a' }, { tags: 'b' }] }, [1, 5]],
    ['$not', { age: { $not: { $gte: 30 } } }, [2, 4]],
    ['$nor', { $nor: [{ city: 'Oslo' }, { age: 25 }] }, [5]],
    ['array contains a scalar', { tags: 'c' }, [4, 5]],
    ['$all', { tags: { $all: ['a', 'c'] } }, [4, 5]],
    ['$size', { tags: { $size: 1 } }, [2]],
    ['dotted path into an array of documents', { 'pets.kind': 'cat' }, [1, 2]],
    ['$elemMatch needs one element to satisfy every condition', { pets: { $elemMatch: { kind: 'cat', age: { $gt: 2 } } } }, [1]],
    ['without $elemMatch conditions may match different elements', { 'pets.kind': 'cat', 'pets.age': { $gt: 4 } }, [2]],
    ['$regex', { name: { $regex: '^[ab]' } }, [1, 2]],
    ['$exists: false', { city: { $exists: false } }, [5]],
    ['$expr comparing two fields', { $expr: { $gt: ['$age', 30] } }, [1, 3, 5]],
  ])('filter: %s', async (_label, filter, expected) => {
    expect(await idsOf(coll('people'), filter)).toEqual(expected);
  });

  test('sort on two keys, then skip and limit', async () => {
    const rows = await coll('people').find({}).sort({ age: 1, name: -1 }).skip(1).limit(3).toArray();
    // ages 25 (dee, bob), 31, 40, 52: sorted by age asc then name desc → dee, bob, ann, cid, eve
    expect(rows.map((row) => row.name)).toEqual(['bob', 'ann', 'cid']);
  });

  test('inclusion projection keeps _id unless excluded; exclusion projection drops only the named fields', async () => {
    expect(await coll('people').findOne({ _id: 1 } as Document, { projection: { name: 1, city: 1 } })).toEqual({
      _id: 1,
      name: 'ann',
      city: 'Oslo',
    });
    expect(await coll('people').findOne({ _id: 1 } as Document, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'ann' });
    expect(await coll('people').findOne({ _id: 2 } as Document, { projection: { pets: 0, tags: 0 } })).toEqual({
      _id: 2,
      name: 'bob',
      age: 25,
      city: 'Rome',
    });
    expect(await coll('people').findOne({ _id: 2 } as Document, { projection: { 'pets.kind': 1 } })).toEqual({
      _id: 2,
      pets: [{ kind: 'dog' }, { kind: 'cat' }],
    });
  });

  test('find on a missing collection returns nothing', async () => {
    expect(await coll('no_such_collection').find({}).toArray()).toEqual([]);
    expect(await coll('no_such_collection').findOne({})).toBeNull();
  });
});

describe('$elemMatch on values tests each element as a whole (ElemMatchValueMatchExpression: matchesSingleElement)', () => {
  beforeAll(async () => {
    await coll('nested_values').insertMany([
      { _id: 1, a: [5] },
      { _id: 2, a: [[5]] },
      { _id: 3, a: [[3, 7]] },
      { _id: 4, a: [1, 9] },
    ] as Document[]);
  });

  test.each<[string, Document, number[]]>([
    ['every operator holds for one element, not for elements of an inner array', { a: { $elemMatch: { $gt: 4, $lt: 6 } } }, [1]],
    ['$ne compares the element whole: [5] is not 5', { a: { $elemMatch: { $ne: 5 } } }, [2, 3, 4]],
    ['$in compares the element whole', { a: { $elemMatch: { $in: [5, 7] } } }, [1]],
  ])('%s', async (_label, filter, expected) => {
    expect(await idsOf(coll('nested_values'), filter)).toEqual(expected);
  });
});

describe('NaN in comparisons', () => {
  // jstests/core/nan.js: NaN equals NaN, and any other comparison with it is false (though sorts put it below every number).
  beforeAll(async () => {
    await coll('nan').insertMany([
      { _id: 0, a: -Infinity },
      { _id: 1, a: -3 },
      { _id: 2, a: 0 },
      { _id: 3, a: 3 },
      { _id: 4, a: Infinity },
      { _id: 5, a: NaN },
      { _id: 6, a: Decimal128.fromString('NaN') },
      { _id: 7, a: null },
      { _id: 8, a: Long.fromNumber(7) },
    ] as Document[]);
  });

  test.each<[string, Document, number[]]>([
    ['equality', { a: NaN }, [5, 6]],
    ['$lt NaN', { a: { $lt: NaN } }, []],
    ['$lte NaN', { a: { $lte: NaN } }, [5, 6]],
    ['$gt NaN', { a: { $gt: NaN } }, []],
    ['$gte NaN', { a: { $gte: NaN } }, [5, 6]],
    ['$lt a double', { a: { $lt: 1 } }, [0, 1, 2]],
    ['$lt a Long', { a: { $lt: Long.fromNumber(1) } }, [0, 1, 2]],
    ['$gte a Decimal128', { a: { $gte: Decimal128.fromString('-5') } }, [1, 2, 3, 4, 8]],
  ])('%s', async (_label, filter, expected) => {
    expect(await idsOf(coll('nan'), filter)).toEqual(expected);
  });
});

describe('find projection operators', () => {
  beforeAll(async () => {
    await coll('projection_ops').insertMany([
      { _id: 1, name: 'n1', arr: [1, 2, 3, 4, 5] },
      // MongoDB docs, "$elemMatch (projection)" example data
      { _id: 10, zipcode: '63109', students: [{ name: 'john', school: 102, age: 10 }, { name: 'jess', school: 102, age: 11 }, { name: 'jeff', school: 108, age: 15 }] },
      { _id: 11, zipcode: '63110', students: [{ name: 'ajax', school: 100, age: 7 }, { name: 'achilles', school: 100, age: 8 }] },
      { _id: 13, zipcode: '63109', students: [{ name: 'barney', school: 102, age: 7 }, { name: 'ruth', school: 102, age: 16 }] },
      { _id: 14, zipcode: '63109', students: [{ name: 'ajax', school: 100, age: 7 }] },
      // MongoDB docs, "$ (projection)" example data
      { _id: 20, semester: 1, grades: [70, 87, 90] },
      { _id: 21, semester: 1, grades: [90, 88, 92] },
      { _id: 22, semester: 1, grades: [85, 100, 90] },
      { _id: 23, semester: 2, grades: [79, 85, 80] },
    ] as Document[]);
  });

  test('$slice: n, -n and [skip, n]; alone it keeps the other fields', async () => {
    // MongoDB docs, "$slice (projection)".
    const c = coll('projection_ops');
    expect(await c.findOne({ _id: 1 } as Document, { projection: { arr: { $slice: 2 } } })).toEqual({ _id: 1, name: 'n1', arr: [1, 2] });
    expect(await c.findOne({ _id: 1 } as Document, { projection: { arr: { $slice: -2 } } })).toEqual({ _id: 1, name: 'n1', arr: [4, 5] });
    expect(await c.findOne({ _id: 1 } as Document, { projection: { arr: { $slice: [1, 2] } } })).toEqual({ _id: 1, name: 'n1', arr: [2, 3] });
    expect(await c.findOne({ _id: 1 } as Document, { projection: { arr: { $slice: 10 } } })).toEqual({ _id: 1, name: 'n1', arr: [1, 2, 3, 4, 5] });
  });

  test('$slice of a field inside an array of documents slices each element\'s array', async () => {
    // MongoDB's jstests: find({}, {d: 1, "a.b": {$slice: 1}}) on {a: [{b: [1, 2]}, {b: [2, 3]}]} gives a: [{b: [1]}, {b: [2]}].
    const c = coll('projection_nested_slice');
    await c.insertOne({ _id: 1, d: 0, a: [{ x: 1, b: [1, 2] }, 'scalar', { x: 2, b: [3, 4] }, { x: 3 }] } as Document);
    expect(await c.findOne({ _id: 1 } as Document, { projection: { _id: 0, d: 1, 'a.b': { $slice: 1 } } })).toEqual({ d: 0, a: [{ b: [1] }, { b: [3] }, {}] });
    expect(await c.findOne({ _id: 1 } as Document, { projection: { _id: 0, 'a.b': { $slice: -1 } } })).toEqual({ d: 0, a: [{ x: 1, b: [2] }, 'scalar', { x: 2, b: [4] }, { x: 3 }] });
  });

  test('$elemMatch returns only the first matching element and omits the field when none match', async () => {
    // MongoDB docs, "$elemMatch (projection)", "Zip Code Search" example.
    const rows = await coll('projection_ops')
      .find({ zipcode: '63109' }, { projection: { students: { $elemMatch: { school: 102 } } } })
      .sort({ _id: 1 })
      .toArray();
    expect(rows).toEqual([
      { _id: 10, students: [{ name: 'john', school: 102, age: 10 }] },
      { _id: 13, students: [{ name: 'barney', school: 102, age: 7 }] },
      { _id: 14 },
    ]);
  });

  test('positional $ returns the first array element the query matched', async () => {
    // MongoDB docs, "$ (projection)": find({semester: 1, grades: {$gte: 85}}, {"grades.$": 1}).
    const rows = await coll('projection_ops')
      .find({ semester: 1, grades: { $gte: 85 } }, { projection: { 'grades.$': 1 } })
      .sort({ _id: 1 })
      .toArray();
    expect(rows).toEqual([
      { _id: 20, grades: [87] },
      { _id: 21, grades: [90] },
      { _id: 22, grades: [85] },
    ]);
  });
});

describe('delete', () => {
  beforeEach(async () => {
    await coll('deletes').deleteMany({});
    await coll('deletes').insertMany([1, 2, 3, 4, 5, 6].map((n) => ({ _id: n, even: n % 2 === 0 })) as Document[]);
  });

  test('deleteOne removes exactly one matching document', async () => {
    const result = await coll('deletes').deleteOne({ even: true });
    expect(result.deletedCount).toBe(1);
    expect(await coll('deletes').countDocuments({ even: true })).toBe(2);
    expect(await coll('deletes').countDocuments()).toBe(5);
  });

  test('deleteMany removes every matching document', async () => {
    const result = await coll('deletes').deleteMany({ even: false });
    expect(result.deletedCount).toBe(3);
    expect(await idsOf(coll('deletes'))).toEqual([2, 4, 6]);
  });

  test('the raw delete command with several statements replies with the total n', async () => {
    const reply = await ctx.db.command({
      delete: 'deletes',
      deletes: [
        { q: { _id: { $in: [1, 2] } }, limit: 0 },
        { q: { even: true }, limit: 1 },
      ],
    });
    expect(reply).toMatchObject({ ok: 1, n: 3 });
    expect(await coll('deletes').countDocuments()).toBe(3);
  });

  test('deleting nothing reports 0', async () => {
    expect((await coll('deletes').deleteMany({ _id: 99 } as Document)).deletedCount).toBe(0);
  });
});

describe('findAndModify', () => {
  beforeEach(async () => {
    await coll('fam').deleteMany({});
    await coll('fam').insertMany([
      { _id: 1, name: 'low', rank: 1, qty: 10 },
      { _id: 2, name: 'high', rank: 9, qty: 20 },
      { _id: 3, name: 'mid', rank: 5, qty: 30 },
    ] as Document[]);
  });

  test('findOneAndUpdate returns the document before the update by default, after with returnDocument', async () => {
    const before = await coll('fam').findOneAndUpdate({ _id: 1 } as Document, { $inc: { qty: 1 } });
    expect(before).toEqual({ _id: 1, name: 'low', rank: 1, qty: 10 });
    const after = await coll('fam').findOneAndUpdate({ _id: 1 } as Document, { $inc: { qty: 1 } }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 1, name: 'low', rank: 1, qty: 12 });
  });

  test('findOneAndUpdate with sort modifies the first document in sort order, with projection', async () => {
    const result = await coll('fam').findOneAndUpdate(
      {},
      { $set: { picked: true } },
      { sort: { rank: -1 }, projection: { name: 1, picked: 1, _id: 0 }, returnDocument: 'after' },
    );
    expect(result).toEqual({ name: 'high', picked: true });
    expect(await idsOf(coll('fam'), { picked: true })).toEqual([2]);
  });

  test('findOneAndUpdate with upsert inserts, and lastErrorObject reports it', async () => {
    const raw = await coll('fam').findOneAndUpdate(
      { name: 'new' },
      { $set: { qty: 1 }, $setOnInsert: { rank: 0 } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(raw.ok).toBe(1);
    expect(raw.value).toMatchObject({ name: 'new', qty: 1, rank: 0 });
    expect(raw.value?._id).toBeInstanceOf(ObjectId);
    expect(raw.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: raw.value?._id });
    expect(await coll('fam').countDocuments()).toBe(4);
  });

  test('an upsert that returns the document before finds nothing to return', async () => {
    const result = await coll('fam').findOneAndUpdate({ name: 'newer' }, { $set: { qty: 2 } }, { upsert: true });
    expect(result).toBeNull();
    expect(await coll('fam').findOne({ name: 'newer' }, { projection: { _id: 0 } })).toEqual({ name: 'newer', qty: 2 });
  });

  test('lastErrorObject for an existing match and for no match', async () => {
    const hit = await coll('fam').findOneAndUpdate({ _id: 3 } as Document, { $set: { qty: 0 } }, { includeResultMetadata: true });
    expect(hit.lastErrorObject).toEqual({ n: 1, updatedExisting: true });
    const miss = await coll('fam').findOneAndUpdate({ _id: 99 } as Document, { $set: { qty: 0 } }, { includeResultMetadata: true });
    expect(miss.value).toBeNull();
    expect(miss.lastErrorObject).toEqual({ n: 0, updatedExisting: false });
  });

  test('findOneAndReplace replaces the whole document but keeps _id', async () => {
    const after = await coll('fam').findOneAndReplace({ name: 'mid' }, { name: 'MID', replaced: true }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 3, name: 'MID', replaced: true });
    expect(await coll('fam').findOne({ _id: 3 } as Document)).toEqual({ _id: 3, name: 'MID', replaced: true });
  });

  test('findOneAndDelete with sort deletes and returns the first document in sort order', async () => {
    const deleted = await coll('fam').findOneAndDelete({ rank: { $gte: 1 } }, { sort: { qty: -1 } });
    expect(deleted).toEqual({ _id: 3, name: 'mid', rank: 5, qty: 30 });
    expect(await idsOf(coll('fam'))).toEqual([1, 2]);
  });
});

describe('count and distinct', () => {
  beforeAll(async () => {
    await coll('counted').insertMany([
      { _id: 1, g: 'a', tags: ['x', 'y'], n: 1, sub: { k: 'p' } },
      { _id: 2, g: 'b', tags: ['y'], n: new Double(1), sub: { k: 'q' } },
      { _id: 3, g: 'a', tags: 'z', n: Long.fromNumber(2), sub: { k: 'p' } },
      { _id: 4, g: 'c', n: Decimal128.fromString('3') },
      { _id: 5, g: 'a', tags: ['x'], n: 2 },
    ] as Document[]);
  });

  test('countDocuments with a filter, skip and limit', async () => {
    expect(await coll('counted').countDocuments()).toBe(5);
    expect(await coll('counted').countDocuments({ g: 'a' })).toBe(3);
    expect(await coll('counted').countDocuments({ g: 'a' }, { skip: 1 })).toBe(2);
    expect(await coll('counted').countDocuments({}, { limit: 2 })).toBe(2);
  });

  test('estimatedDocumentCount uses the count command', async () => {
    expect(await coll('counted').estimatedDocumentCount()).toBe(5);
    expect(await coll('no_such_collection').estimatedDocumentCount()).toBe(0);
  });

  test('the raw count command honours query, skip and limit', async () => {
    expect(await ctx.db.command({ count: 'counted', query: { n: { $gte: 2 } } })).toMatchObject({ ok: 1, n: 3 });
    expect(await ctx.db.command({ count: 'counted', query: {}, skip: 1, limit: 2 })).toMatchObject({ ok: 1, n: 2 });
    expect(await ctx.db.command({ count: 'no_such_collection' })).toMatchObject({ ok: 1, n: 0 });
  });

  test('distinct unwinds arrays, de-duplicates numerically equal values and honours the filter', async () => {
    // MongoDB docs, "distinct": "If the value of the specified field is an array, distinct
    // considers each element of the array as a separate value."
    expect((await coll('counted').distinct('tags')).sort()).toEqual(['x', 'y', 'z']);
    const numbers = (await coll('counted').distinct('n')).map((value: unknown) => Number(String(value)));
    expect(numbers.sort((a, b) => a - b)).toEqual([1, 2, 3]);
    expect((await coll('counted').distinct('g', { n: { $lt: 3 } })).sort()).toEqual(['a', 'b']);
    expect((await coll('counted').distinct('sub.k')).sort()).toEqual(['p', 'q']);
    expect(await coll('no_such_collection').distinct('a')).toEqual([]);
  });
});

describe('stored documents never share values with each other or with earlier versions', () => {
  // Mutating the caller's object after insertOne, or a document after reading it, cannot reach any
  // server through the driver (it serialises both ways), so those checks live in
  // test/unit/embedded-mongo/commands/data/write-commands.test.ts, against the command handlers.
  test('a value pushed by one updateMany is not shared between the documents it changed', async () => {
    const c = coll('cow_update_many');
    await c.insertMany([{ _id: 1, arr: [] }, { _id: 2, arr: [] }] as Document[]);
    await c.updateMany({}, { $push: { arr: { x: 1 } }, $set: { sub: { y: 1 } } } as Document);
    await c.updateOne({ _id: 1 } as Document, { $set: { 'arr.0.x': 2, 'sub.y': 2 } });
    expect(await c.findOne({ _id: 2 } as Document)).toEqual({ _id: 2, arr: [{ x: 1 }], sub: { y: 1 } });
    expect(await c.findOne({ _id: 1 } as Document)).toEqual({ _id: 1, arr: [{ x: 2 }], sub: { y: 2 } });
  });

  test('a pipeline update that copies a subdocument keeps an independent copy', async () => {
    const c = coll('cow_pipeline');
    await c.insertOne({ _id: 1, a: { x: 1 } } as Document);
    await c.updateOne({ _id: 1 } as Document, [{ $set: { b: '$a' } }]);
    await c.updateOne({ _id: 1 } as Document, { $set: { 'a.x': 2 } });
    expect(await c.findOne({ _id: 1 } as Document)).toEqual({ _id: 1, a: { x: 2 }, b: { x: 1 } });
  });

  test('the pre-image returned by findOneAndUpdate is not affected by the update', async () => {
    const c = coll('cow_fam');
    await c.insertOne({ _id: 1, inner: { n: 1 }, list: [1] } as Document);
    const before = await c.findOneAndUpdate({ _id: 1 } as Document, { $set: { 'inner.n': 2 }, $push: { list: 2 } } as Document);
    expect(before).toEqual({ _id: 1, inner: { n: 1 }, list: [1] });
  });
});
