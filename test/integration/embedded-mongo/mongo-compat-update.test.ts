/**
 * The update command: multi, upsert with $setOnInsert, operators, positional $, $[], arrayFilters,
 * $push with $each/$sort/$slice, pipeline updates, replacement. Runs unchanged against MONGODB_URI.
 */
import { Decimal128, Long, ObjectId, type Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_update');
let counter = 0;
/** A new collection per test, so tests never depend on each other's leftovers. */
const freshCollection = () => ctx.db.collection(`upd_${++counter}`);
const byId = (id: unknown) => ({ _id: id }) as Document;

describe('update basics', () => {
  test('updateOne changes one document; updateMany (multi) changes all matches', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, g: 'a', n: 0 }, { _id: 2, g: 'a', n: 0 }, { _id: 3, g: 'b', n: 0 }] as Document[]);
    const one = await c.updateOne({ g: 'a' }, { $inc: { n: 1 } });
    expect([one.matchedCount, one.modifiedCount]).toEqual([1, 1]);
    const many = await c.updateMany({ g: 'a' }, { $set: { touched: true } });
    expect([many.matchedCount, many.modifiedCount, many.upsertedCount]).toEqual([2, 2, 0]);
    expect(await c.countDocuments({ touched: true })).toBe(2);
    expect((await c.find({ g: 'a' }).toArray()).map((d) => d.n).sort()).toEqual([0, 1]);
  });

  test('an update that changes nothing is matched but not modified', async () => {
    // MongoDB docs, "update": nModified counts only documents whose content changed.
    const c = freshCollection();
    await c.insertOne({ _id: 1, v: 5 } as Document);
    const result = await c.updateOne(byId(1), { $set: { v: 5 } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 0]);
  });

  test('the raw update command replies with n, nModified and upserted entries by statement index', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, v: 0 }, { _id: 2, v: 0 }] as Document[]);
    const reply = await ctx.db.command({
      update: c.collectionName,
      updates: [
        { q: {}, u: { $set: { v: 1 } }, multi: true },
        { q: { _id: 7 }, u: { $set: { v: 7 } }, upsert: true },
      ],
    });
    expect(reply.ok).toBe(1);
    expect(reply.n).toBe(3);
    expect(reply.nModified).toBe(2);
    expect(reply.upserted).toEqual([{ index: 1, _id: 7 }]);
  });

  test('a replacement with multi: true is refused (9 FailedToParse) and replaces nothing', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, v: 0 }, { _id: 2, v: 0 }] as Document[]);
    const reply = await ctx.db.command({ update: c.collectionName, updates: [{ q: {}, u: { w: 1 }, multi: true }] });
    expect(reply.n).toBe(0);
    expect(reply.writeErrors.map((error: Document) => [error.index, error.code])).toEqual([[0, 9]]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, v: 0 }, { _id: 2, v: 0 }]);
  });

  test('$set creates nested paths, $unset removes, $rename moves, $min/$max/$mul compute', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: 1, old: 'x', lo: 5, hi: 5, m: 3 } as Document);
    await c.updateOne(byId(1), {
      $set: { 'deep.er.path': true },
      $unset: { a: '' },
      $rename: { old: 'renamed' },
      $min: { lo: 2 },
      $max: { hi: 9 },
      $mul: { m: 4 },
    });
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, deep: { er: { path: true } }, renamed: 'x', lo: 2, hi: 9, m: 12 });
  });

  // A write error carries no codeName (see ImmutableField below), so only the code is asserted.
  test('$rename of a source path through an array fails with PathNotViable (28), and changes nothing (rename_node.cpp)', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [{ a: 1 }, { b: 2 }] } as Document);
    await expectServerError(c.updateOne(byId(1), { $rename: { 'a.a': 'b' } }), 28);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [{ a: 1 }, { b: 2 }] });
  });

  test('$addToSet with $each adds only missing values; $pull removes by condition; $pop removes an end', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, tags: ['a', 'b'], nums: [1, 5, 8, 12], q: [1, 2, 3] } as Document);
    await c.updateOne(byId(1), { $addToSet: { tags: { $each: ['b', 'c', 'c'] } }, $pull: { nums: { $gte: 6 } }, $pop: { q: -1 } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, tags: ['a', 'b', 'c'], nums: [1, 5], q: [2, 3] });
  });

  test('replaceOne replaces the whole document and keeps _id', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: 1, b: 2 } as Document);
    const result = await c.replaceOne(byId(1), { c: 3 });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 1]);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, c: 3 });
  });

  // Update failures arrive as writeErrors entries, which carry code and errmsg but no codeName
  // (MongoDB source, write_ops WriteError::serialize), so only the code is asserted.
  test('changing _id fails with ImmutableField (66)', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1 } as Document);
    await expectServerError(c.updateOne(byId(1), { $set: { _id: 2 } }), 66);
  });
});

describe('upsert', () => {
  test('a $in of one value seeds the new document like an equality', async () => {
    const c = freshCollection();
    await c.updateOne({ g: { $in: [7] }, h: { $in: [1, 2] } } as Document, { $set: { x: 1 } }, { upsert: true });
    expect(await c.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ g: 7, x: 1 }]);
  });

  test('an upsert seeds the new document from the filter equality fields and applies $setOnInsert', async () => {
    // MongoDB docs, "Upsert Behavior": the new document takes the equality fields of the query,
    // then the update operators; $setOnInsert only applies when the update inserts.
    const c = freshCollection();
    const inserted = await c.updateOne(
      { sku: 'abc', qty: { $gt: 5 }, 'meta.kind': 'box' },
      { $set: { price: 10 }, $setOnInsert: { createdBy: 'upsert' } },
      { upsert: true },
    );
    expect([inserted.matchedCount, inserted.modifiedCount, inserted.upsertedCount]).toEqual([0, 0, 1]);
    expect(inserted.upsertedId).toBeInstanceOf(ObjectId);
    const doc = await c.findOne({ _id: inserted.upsertedId! });
    expect(doc).toEqual({ _id: inserted.upsertedId, sku: 'abc', meta: { kind: 'box' }, price: 10, createdBy: 'upsert' });

    const matched = await c.updateOne({ sku: 'abc' }, { $set: { price: 11 }, $setOnInsert: { createdBy: 'second' } }, { upsert: true });
    expect([matched.matchedCount, matched.modifiedCount, matched.upsertedCount]).toEqual([1, 1, 0]);
    expect(matched.upsertedId).toBeNull();
    expect(await c.findOne({ sku: 'abc' }, { projection: { _id: 0 } })).toEqual({ sku: 'abc', meta: { kind: 'box' }, price: 11, createdBy: 'upsert' });
  });

  test('an upsert takes _id from the filter', async () => {
    const c = freshCollection();
    const result = await c.updateOne({ _id: 'given' } as Document, { $inc: { n: 1 } }, { upsert: true });
    expect(result.upsertedId).toBe('given');
    expect(await c.findOne(byId('given'))).toEqual({ _id: 'given', n: 1 });
  });

  test('a replacement upsert inserts the replacement plus only the filter _id', async () => {
    // Driver CRUD spec "ReplaceOne with upsert when no documents match without an id specified":
    // filter {_id: 4}, replacement {x: 1} → {_id: 4, x: 1}; other filter fields are not copied.
    const c = freshCollection();
    const result = await c.replaceOne({ _id: 4, tag: 'q' } as Document, { x: 1 }, { upsert: true });
    expect(result.upsertedId).toBe(4);
    expect(await c.findOne(byId(4))).toEqual({ _id: 4, x: 1 });
  });

  test('upsert: true with updateMany and several matches updates them all without inserting', async () => {
    const c = freshCollection();
    await c.insertMany([{ g: 1 }, { g: 1 }]);
    const result = await c.updateMany({ g: 1 }, { $set: { s: true } }, { upsert: true });
    expect([result.matchedCount, result.modifiedCount, result.upsertedCount]).toEqual([2, 2, 0]);
    expect(await c.countDocuments()).toBe(2);
  });
});

describe('array updates', () => {
  test('$[] and $[id] on a null or scalar field fail with 2 BadValue, naming the element (update_array_node.cpp)', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, arr: null }, { _id: 2, arr: 5 }, { _id: 3, arr: new Date(0) }] as Document[]);
    const onNull = await expectServerError(c.updateOne(byId(1), { $set: { 'arr.$[e].x': 1 } }, { arrayFilters: [{ 'e._id': 1 }] }), 2);
    expect(onNull.message).toBe('Cannot apply array updates to non-array element arr: null');
    const onScalar = await expectServerError(c.updateOne(byId(2), { $set: { 'arr.$[].x': 1 } }), 2);
    expect(onScalar.message).toBe('Cannot apply array updates to non-array element arr: 5');
    const onDate = await expectServerError(c.updateOne(byId(3), { $set: { 'arr.$[].x': 1 } }), 2);
    expect(onDate.message).toBe('Cannot apply array updates to non-array element arr: new Date(0)');
    // Whatever the operator, and on a document too.
    const unset = await expectServerError(c.updateOne(byId(2), { $unset: { 'arr.$[].x': '' } }), 2);
    expect(unset.message).toBe('Cannot apply array updates to non-array element arr: 5');
    await c.insertOne({ _id: 4, arr: { a: 1 } } as Document);
    const onDocument = await expectServerError(c.updateOne(byId(4), { $inc: { 'arr.$[].x': 1 } }), 2);
    expect(onDocument.message).toBe('Cannot apply array updates to non-array element arr: { a: 1 }');
  });

  test('$push takes $slice and $position as any integral number: a long, a decimal without fraction (push_node.cpp)', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [3, 4, 5] } as Document);
    await c.updateOne(byId(1), { $push: { a: { $each: [6], $position: Long.fromNumber(0), $slice: Long.fromNumber(2) } } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [6, 3] });
    await c.updateOne(byId(1), { $push: { a: { $each: [7], $slice: Decimal128.fromString('2') } } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [6, 3] });
    await expectServerError(c.updateOne(byId(1), { $push: { a: { $each: [8], $slice: Decimal128.fromString('1.5') } } } as Document), 2);
  });

  test('positional $ updates the first element the query matched', async () => {
    // MongoDB docs, "$ (update)": updateOne({_id: 1, grades: 80}, {$set: {"grades.$": 82}}).
    const c = freshCollection();
    await c.insertMany([{ _id: 1, grades: [85, 80, 80] }, { _id: 2, grades: [88, 90, 92] }] as Document[]);
    await c.updateOne({ _id: 1, grades: 80 } as Document, { $set: { 'grades.$': 82 } });
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, grades: [85, 82, 80] });
  });

  test('positional $ on an array of documents with $elemMatch in the query', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 1 }, { sku: 'b', qty: 5 }] } as Document);
    await c.updateOne({ _id: 1, items: { $elemMatch: { sku: 'b', qty: { $gt: 2 } } } } as Document, { $inc: { 'items.$.qty': 10 } });
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 1 }, { sku: 'b', qty: 15 }] });
  });

  test('positional $ without a matching array condition in the query fails with BadValue (2)', async () => {
    // MongoDB source update/positional: "The positional operator did not find the match needed from the query."
    const c = freshCollection();
    await c.insertOne({ _id: 1, grades: [1, 2] } as Document);
    const error = await expectServerError(c.updateOne(byId(1), { $set: { 'grades.$': 0 } }), 2);
    expect(error.errmsg).toMatch(/positional operator did not find the match/);
  });

  test('$[] updates every element', async () => {
    // MongoDB docs, "$[] (update)".
    const c = freshCollection();
    await c.insertOne({ _id: 1, grades: [85, 82, 80] } as Document);
    await c.updateOne(byId(1), { $inc: { 'grades.$[]': 10 } });
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, grades: [95, 92, 90] });
  });

  test('arrayFilters update only the elements that match the filter', async () => {
    // MongoDB docs, "$[<identifier>]": updateMany({}, {$set: {"grades.$[element]": 100}},
    // {arrayFilters: [{element: {$gte: 100}}]}).
    const c = freshCollection();
    await c.insertMany([
      { _id: 1, grades: [95, 92, 90] },
      { _id: 2, grades: [98, 100, 102] },
      { _id: 3, grades: [95, 110, 100] },
    ] as Document[]);
    const result = await c.updateMany({}, { $set: { 'grades.$[element]': 100 } }, { arrayFilters: [{ element: { $gte: 100 } }] });
    expect(result.matchedCount).toBe(3);
    expect(result.modifiedCount).toBe(2);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, grades: [95, 92, 90] },
      { _id: 2, grades: [98, 100, 100] },
      { _id: 3, grades: [95, 100, 100] },
    ]);
  });

  test('arrayFilters on fields of embedded documents, nested two levels', async () => {
    const c = freshCollection();
    await c.insertOne({
      _id: 1,
      classes: [
        { name: 'm', students: [{ n: 'a', grade: 80 }, { n: 'b', grade: 95 }] },
        { name: 'p', students: [{ n: 'c', grade: 99 }] },
      ],
    } as Document);
    await c.updateOne(byId(1), { $set: { 'classes.$[cls].students.$[s].honors': true } }, {
      arrayFilters: [{ 'cls.name': 'm' }, { 's.grade': { $gte: 90 } }],
    });
    expect(await c.findOne(byId(1))).toEqual({
      _id: 1,
      classes: [
        { name: 'm', students: [{ n: 'a', grade: 80 }, { n: 'b', grade: 95, honors: true }] },
        { name: 'p', students: [{ n: 'c', grade: 99 }] },
      ],
    });
  });

  test('an array filter written with $or names its identifier inside its branches', async () => {
    // MongoDB takes an array filter's identifier from its top-level field name, looked for through $and, $or and $nor.
    const c = freshCollection();
    await c.insertOne({ _id: 1, arr: [{ a: 1 }, { b: 2 }, { a: 3 }] } as Document);
    const result = await c.updateOne(byId(1), { $set: { 'arr.$[x].hit': true } }, { arrayFilters: [{ $or: [{ 'x.a': 1 }, { 'x.b': 2 }] }] });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 1]);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, arr: [{ a: 1, hit: true }, { b: 2, hit: true }, { a: 3 }] });
  });

  test('an identifier without an array filter fails with BadValue (2), even when nothing matches', async () => {
    // MongoDB jstests core/update_arrayFilters.js: "No array filter found for identifier 'i' in path 'a.$[i]'".
    const c = freshCollection();
    const error = await expectServerError(c.updateOne(byId(0), { $set: { 'a.$[i]': 0 } }), 2);
    expect(error.errmsg).toMatch(/No array filter found for identifier 'i'/);
  });

  test('an array filter that the update never uses fails with FailedToParse (9)', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [1] } as Document);
    await expectServerError(c.updateOne(byId(1), { $set: { b: 1 } }, { arrayFilters: [{ x: { $gt: 0 } }] }), 9);
  });

  test('$push with $each, $sort and $slice keeps the top three', async () => {
    // MongoDB docs, "$push" > "Use $push Operator with Multiple Modifiers".
    const c = freshCollection();
    await c.insertOne({ _id: 5, quizzes: [{ wk: 1, score: 10 }, { wk: 2, score: 8 }, { wk: 3, score: 5 }, { wk: 4, score: 6 }] } as Document);
    await c.updateOne(byId(5), {
      $push: { quizzes: { $each: [{ wk: 5, score: 8 }, { wk: 6, score: 7 }, { wk: 7, score: 6 }], $sort: { score: -1 }, $slice: 3 } },
    } as Document);
    expect(await c.findOne(byId(5))).toEqual({ _id: 5, quizzes: [{ wk: 1, score: 10 }, { wk: 2, score: 8 }, { wk: 5, score: 8 }] });
  });

  test('$push $sort by a field reads it as getFieldDotted does, not as find sorts (push_sorter.h): an array is one value, after numbers; a path through an array finds null', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, a: [{ _id: 'x', t: 3 }] }, { _id: 2, a: [{ _id: 'x', t: { u: 3 } }] }] as Document[]);
    // find's sort would put [1, 9] first, by its smallest element; $push compares the array whole, and so cuts it.
    await c.updateOne(byId(1), { $push: { a: { $each: [{ _id: 'y', t: [1, 9] }, { _id: 'z', t: 2 }], $sort: { t: 1 }, $slice: 2 } } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [{ _id: 'z', t: 2 }, { _id: 'x', t: 3 }] });
    await c.updateOne(byId(2), { $push: { a: { $each: [{ _id: 'y', t: [{ u: 5 }] }], $sort: { 't.u': 1 } } } } as Document);
    expect((await c.findOne(byId(2)))!.a).toEqual([{ _id: 'y', t: [{ u: 5 }] }, { _id: 'x', t: { u: 3 } }]);
  });

  test('$push with $each and $position; $slice negative keeps the tail; $push creates a missing array', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [1, 2, 3] } as Document);
    await c.updateOne(byId(1), { $push: { a: { $each: [9, 8], $position: 1 }, b: 'first' } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [1, 9, 8, 2, 3], b: ['first'] });
    await c.updateOne(byId(1), { $push: { a: { $each: [7], $sort: 1, $slice: -3 } } } as Document);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [7, 8, 9], b: ['first'] });
  });

  test('a $push that pushes a value or sorts modifies the document even when $slice leaves the array as it was (push_node.cpp)', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [9, 8], b: [1] } as Document);
    // 1 is pushed, sorted last and sliced away: the array is unchanged, yet MongoDB counts the document modified.
    const sliced = await c.updateOne(byId(1), { $push: { a: { $each: [1], $sort: -1, $slice: 2 } } } as Document);
    expect([sliced.matchedCount, sliced.modifiedCount]).toEqual([1, 1]);
    const sortedOnly = await c.updateOne(byId(1), { $push: { a: { $each: [], $sort: -1 } } } as Document);
    expect([sortedOnly.matchedCount, sortedOnly.modifiedCount]).toEqual([1, 1]);
    // Nothing pushed, nothing sorted: no change.
    const empty = await c.updateOne(byId(1), { $push: { b: { $each: [] } } } as Document);
    expect([empty.matchedCount, empty.modifiedCount]).toEqual([1, 0]);
    expect(await c.findOne(byId(1))).toEqual({ _id: 1, a: [9, 8], b: [1] });
  });
});

describe('$pull on arrays holding arrays (pull_node.cpp)', () => {
  const pulled = async (pull: Document) => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, a: [1, [1], [1, 2], 7, [7], 'x', ['x']] } as Document);
    await c.updateOne(byId(1), { $pull: pull } as Document);
    return (await c.findOne(byId(1)))!.a as unknown[];
  };

  test('a scalar or an array removes the elements equal to it as a whole', async () => {
    expect(await pulled({ a: 1 })).toEqual([[1], [1, 2], 7, [7], 'x', ['x']]);
    expect(await pulled({ a: [1] })).toEqual([1, [1, 2], 7, [7], 'x', ['x']]);
  });

  test('an operator condition or a regex also reaches into an element that is an array', async () => {
    expect(await pulled({ a: { $gte: 6 } })).toEqual([1, [1], [1, 2], 'x', ['x']]);
    expect(await pulled({ a: /x/ })).toEqual([1, [1], [1, 2], 7, [7]]);
  });
});

describe('pipeline updates', () => {
  test('an aggregation pipeline computes new fields from existing ones', async () => {
    // MongoDB docs, "Updates with Aggregation Pipeline".
    const c = freshCollection();
    await c.insertMany([{ _id: 1, a: 2, b: 3, tmp: 'x' }, { _id: 2, a: 10, b: -1, tmp: 'y' }] as Document[]);
    const result = await c.updateMany({}, [
      { $set: { total: { $add: ['$a', '$b'] }, label: { $concat: ['id-', { $toString: '$_id' }] } } },
      { $unset: 'tmp' },
    ]);
    expect(result.modifiedCount).toBe(2);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 2, b: 3, total: 5, label: 'id-1' },
      { _id: 2, a: 10, b: -1, total: 9, label: 'id-2' },
    ]);
  });

  test('a pipeline upsert seeds the document from the filter', async () => {
    const c = freshCollection();
    const result = await c.updateOne({ key: 'k' }, [{ $set: { n: { $ifNull: ['$n', 0] } } }, { $set: { n: { $add: ['$n', 1] } } }], {
      upsert: true,
    });
    expect(result.upsertedCount).toBe(1);
    expect(await c.findOne({ key: 'k' }, { projection: { _id: 0 } })).toEqual({ key: 'k', n: 1 });
  });
});
