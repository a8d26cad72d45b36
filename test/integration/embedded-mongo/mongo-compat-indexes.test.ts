/**
 * createIndexes / listIndexes / dropIndexes, unique indexes and DuplicateKey (11000) with
 * keyPattern/keyValue: single inserts, insertMany ordered and unordered, arrays, sparse, updates.
 * Also 26 NamespaceNotFound and 27 IndexNotFound. Runs unchanged against MONGODB_URI.
 */
import { Decimal128, Double, Long, MongoBulkWriteError, MongoServerError, ObjectId, type Document } from 'mongodb';
import { expectServerError, idsOf, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_indexes');
let counter = 0;
const freshCollection = () => ctx.db.collection(`idx_${++counter}`);

/** The error thrown by `operation`, which must be a bulk write error. */
async function bulkError(operation: Promise<unknown>): Promise<MongoBulkWriteError> {
  try {
    await operation;
  } catch (error) {
    if (error instanceof MongoBulkWriteError) return error;
    throw error;
  }
  throw new Error('expected a MongoBulkWriteError, but the operation succeeded');
}

describe('createIndexes, listIndexes, dropIndexes', () => {
  test('createIndex returns the generated name and listIndexes shows it after _id_', async () => {
    const c = freshCollection();
    await c.insertOne({ a: 1, b: 'x' });
    expect(await c.createIndex({ a: 1 })).toBe('a_1');
    expect(await c.createIndex({ b: -1, a: 1 }, { unique: true })).toBe('b_-1_a_1');
    expect(await c.createIndex({ 'n.x': 1 }, { name: 'custom', sparse: true })).toBe('custom');
    const indexes = await c.listIndexes().toArray();
    expect(indexes.map((ix) => ({ v: ix.v, key: ix.key, name: ix.name, unique: ix.unique, sparse: ix.sparse }))).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_', unique: undefined, sparse: undefined },
      { v: 2, key: { a: 1 }, name: 'a_1', unique: undefined, sparse: undefined },
      { v: 2, key: { b: -1, a: 1 }, name: 'b_-1_a_1', unique: true, sparse: undefined },
      { v: 2, key: { 'n.x': 1 }, name: 'custom', unique: undefined, sparse: true },
    ]);
    // Key order inside a compound key pattern is significant and must be kept.
    expect(Object.keys(indexes[2]!.key)).toEqual(['b', 'a']);
  });

  test('an index of an existing name and key: 86 when an identifying option differs, 85 when only another does (index_catalog_impl.cpp, jstests index_signature.js)', async () => {
    const c = freshCollection();
    await c.insertOne({ a: 1 });
    await c.createIndex({ a: 1 });
    for (const options of [{ unique: true }, { sparse: true }, { partialFilterExpression: { a: { $exists: true } } }, { collation: { locale: 'fr' } }]) {
      await expectServerError(c.createIndex({ a: 1 }, options), 86, 'IndexKeySpecsConflict');
    }
    await expectServerError(c.createIndex({ a: 1 }, { expireAfterSeconds: 60 }), 85, 'IndexOptionsConflict');
    expect(await c.createIndex({ a: 1 }, { background: true })).toBe('a_1');
    // Under another name, one that differs by an identifying option is another index.
    expect(await c.createIndex({ a: 1 }, { name: 'a_partial', partialFilterExpression: { a: { $gt: 0 } } })).toBe('a_partial');
    await expectServerError(c.createIndex({ a: 1 }, { name: 'a_again' }), 85, 'IndexOptionsConflict');
  });

  test('the raw createIndexes reply counts indexes and notes an implicitly created collection', async () => {
    const name = `idx_raw_${++counter}`;
    const reply = await ctx.db.command({ createIndexes: name, indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(reply).toMatchObject({ ok: 1, numIndexesBefore: 1, numIndexesAfter: 2, createdCollectionAutomatically: true });
    const again = await ctx.db.command({ createIndexes: name, indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(again).toMatchObject({ ok: 1, numIndexesBefore: 2, numIndexesAfter: 2 });
    expect(again.note).toBe('all indexes already exist');
  });

  test('dropIndex by name and by key pattern; dropIndexes("*") keeps _id_', async () => {
    const c = freshCollection();
    await c.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }, { key: { c: 1 } }]);
    await c.dropIndex('a_1');
    await ctx.db.command({ dropIndexes: c.collectionName, index: { b: 1 } });
    expect((await c.listIndexes().toArray()).map((ix) => ix.name)).toEqual(['_id_', 'c_1']);
    await c.createIndex({ d: 1 });
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((ix) => ix.name)).toEqual(['_id_']);
  });

  test('dropping a unique index lifts the constraint', async () => {
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a@x' });
    await expectServerError(c.insertOne({ email: 'a@x' }), 11000);
    await c.dropIndex('email_1');
    await c.insertOne({ email: 'a@x' });
    expect(await c.countDocuments({ email: 'a@x' })).toBe(2);
  });

  test('dropping an index that does not exist fails with 27 IndexNotFound', async () => {
    const c = freshCollection();
    await c.insertOne({});
    await expectServerError(c.dropIndex('nope_1'), 27, 'IndexNotFound');
  });

  test('listIndexes on a missing collection fails with 26 NamespaceNotFound', async () => {
    // MongoDB jstests core/list_indexes_invalid.js: listIndexes on a non-existing collection → code 26.
    await expectServerError(ctx.db.command({ listIndexes: 'never_created' }), 26, 'NamespaceNotFound');
  });

  test('an index on a field speeds nothing up visibly but must not change query results', async () => {
    const c = freshCollection();
    await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, k: i % 10, tags: [i % 3, 100 + (i % 4)] })) as Document[]);
    const before = await c.find({ k: { $in: [2, 7] }, tags: 101 }).sort({ _id: 1 }).toArray();
    await c.createIndex({ k: 1 });
    await c.createIndex({ tags: 1 });
    const after = await c.find({ k: { $in: [2, 7] }, tags: 101 }).sort({ _id: 1 }).toArray();
    expect(after).toEqual(before);
    expect(after.map((d) => d._id)).toEqual(
      Array.from({ length: 300 }, (_, i) => i).filter((i) => [2, 7].includes(i % 10) && i % 4 === 1),
    );
    // An index must also keep up with writes after it was built.
    await c.updateOne({ _id: 5 } as Document, { $set: { k: 2 } });
    await c.deleteOne({ _id: 17 } as Document);
    expect(await c.countDocuments({ k: 2 })).toBe(31);
    expect(await c.countDocuments({ k: 7 })).toBe(29);
  });
});

describe('equality lookups through indexes', () => {
  test('_id $in over 1,000 ObjectIds returns exactly the matching documents', async () => {
    const c = freshCollection();
    const ids = Array.from({ length: 3000 }, () => new ObjectId());
    await c.insertMany(ids.map((_id, i) => ({ _id, i })));
    const wanted = ids.filter((_, i) => i % 3 === 0);
    const unknown = Array.from({ length: 10 }, () => new ObjectId());
    const rows = await c.find({ _id: { $in: [...wanted, ...unknown] } }).toArray();
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row._id.toHexString()))).toEqual(new Set(wanted.map((id) => id.toHexString())));
  });

  test('$in matches numerically equal values of other types, on _id and on an indexed field', async () => {
    const c = freshCollection();
    await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, k: i * 10 })) as Document[]);
    await c.createIndex({ k: 1 });
    const byId = await c.find({ _id: { $in: [Long.fromNumber(5), new Double(7), Decimal128.fromString('9.0')] } } as Document).sort({ _id: 1 }).toArray();
    expect(byId.map((d) => d._id)).toEqual([5, 7, 9]);
    const byK = await c.find({ k: { $in: [Long.fromNumber(50), new Double(70)] } }).sort({ _id: 1 }).toArray();
    expect(byK.map((d) => d._id)).toEqual([5, 7]);
  });

  test('a multikey $in returns a document once even when several of its elements match', async () => {
    const c = freshCollection();
    await c.createIndex({ tags: 1 });
    await c.insertMany([
      { _id: 1, tags: ['a', 'b', 'c'] },
      { _id: 2, tags: ['b'] },
      { _id: 3, tags: ['x'] },
    ] as Document[]);
    const rows = await c.find({ tags: { $in: ['a', 'b', 'c'] } }).sort({ _id: 1 }).toArray();
    expect(rows.map((d) => d._id)).toEqual([1, 2]);
    expect(await c.countDocuments({ tags: { $in: ['a', 'b'] } })).toBe(2);
  });
});

describe('DuplicateKey (11000)', () => {
  test('insertOne with a duplicate _id reports keyPattern and keyValue', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1 } as Document);
    const error = await expectServerError(c.insertOne({ _id: 1 } as Document), 11000);
    expect(error.keyPattern).toEqual({ _id: 1 });
    expect(error.keyValue).toEqual({ _id: 1 });
    expect(error.errmsg).toMatch(/E11000 duplicate key error/);
  });

  test('insertOne violating a unique index reports that index', async () => {
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a@x' });
    const error = await expectServerError(c.insertOne({ email: 'a@x' }), 11000);
    expect(error.keyPattern).toEqual({ email: 1 });
    expect(error.keyValue).toEqual({ email: 'a@x' });
    expect(error.errmsg).toMatch(/index: email_1 dup key/);
    expect(await c.countDocuments()).toBe(1);
  });

  test('a partial unique index constrains only the documents matching its filter, on build, insert, update and in a compound key', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, handle: null, active: false }, { _id: 2, handle: null, active: false }, { _id: 3, handle: 'h', active: true }] as Document[]);
    expect(await c.createIndex({ handle: 1 }, { unique: true, partialFilterExpression: { active: true } })).toBe('handle_1');
    await c.insertOne({ _id: 4, handle: 'h', active: false } as Document);
    const error = await expectServerError(c.insertOne({ _id: 5, handle: 'h', active: true } as Document), 11000);
    expect(error.keyValue).toEqual({ handle: 'h' });
    await expectServerError(c.updateOne({ _id: 4 } as Document, { $set: { active: true } }), 11000);
    await c.updateOne({ _id: 3 } as Document, { $set: { active: false } });
    await c.updateOne({ _id: 4 } as Document, { $set: { active: true } });
    // The index still finds documents outside its filter for queries that do not imply it.
    expect(await idsOf(c, { handle: null })).toEqual([1, 2]);
    const compound = freshCollection();
    await compound.createIndex({ a: 1, b: 1 }, { unique: true, partialFilterExpression: { b: { $type: 'string' } } });
    await compound.insertMany([{ a: 1 }, { a: 1 }, { a: 1, b: 'x' }]);
    await expectServerError(compound.insertOne({ a: 1, b: 'x' }), 11000);
  });

  test('a compound unique index reports every key field', async () => {
    const c = freshCollection();
    await c.createIndex({ a: 1, b: 1 }, { unique: true });
    await c.insertMany([{ a: 1, b: 1 }, { a: 1, b: 2 }]);
    const error = await expectServerError(c.insertOne({ a: 1, b: 2 }), 11000);
    expect(error.keyPattern).toEqual({ a: 1, b: 1 });
    expect(error.keyValue).toEqual({ a: 1, b: 2 });
  });

  test('ordered insertMany stops at the first duplicate', async () => {
    const c = freshCollection();
    const error = await bulkError(c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 4 }] as Document[]));
    expect(error.code).toBe(11000);
    expect(error.insertedCount).toBe(2);
    expect(error.writeErrors).toHaveLength(1);
    const writeErrors = error.writeErrors as unknown as { index: number; code: number }[];
    expect(writeErrors.map((e) => [e.index, e.code])).toEqual([[2, 11000]]);
    expect((await c.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 2]);
  });

  test('unordered insertMany inserts every valid document and reports each failure by index', async () => {
    const c = freshCollection();
    await c.createIndex({ k: 1 }, { unique: true });
    const error = await bulkError(
      c.insertMany([{ _id: 1, k: 'a' }, { _id: 2, k: 'a' }, { _id: 3, k: 'b' }, { _id: 1, k: 'c' }, { _id: 5, k: 'd' }] as Document[], {
        ordered: false,
      }),
    );
    expect(error.code).toBe(11000);
    expect(error.insertedCount).toBe(3);
    // The driver keeps only index/code/errmsg of each write error; keyValue is checked on the raw reply below.
    const writeErrors = error.writeErrors as unknown as { index: number; code: number; errmsg: string }[];
    expect(writeErrors.map((e) => [e.index, e.code])).toEqual([
      [1, 11000],
      [3, 11000],
    ]);
    expect(writeErrors[0]!.errmsg).toMatch(/index: k_1 dup key/);
    expect(writeErrors[1]!.errmsg).toMatch(/index: _id_ dup key/);
    expect((await c.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 3, 5]);
  });

  test('the raw insert command reports writeErrors with ok: 1 and n of the inserted documents', async () => {
    const c = freshCollection();
    const reply = await ctx.db.command({ insert: c.collectionName, documents: [{ _id: 1 }, { _id: 1 }, { _id: 2 }], ordered: false });
    expect(reply.ok).toBe(1);
    expect(reply.n).toBe(2);
    expect(reply.writeErrors).toHaveLength(1);
    expect(reply.writeErrors[0]).toMatchObject({ index: 1, code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 1 } });
  });

  test('a unique index over an array field indexes every element, across documents only', async () => {
    // MongoDB docs, "Unique Indexes" > "Unique Constraint Across Separate Documents": the constraint
    // applies between documents; one document may repeat a value within its own array.
    const c = freshCollection();
    await c.createIndex({ tags: 1 }, { unique: true });
    await c.insertOne({ _id: 1, tags: ['a', 'b'] } as Document);
    const error = await expectServerError(c.insertOne({ _id: 2, tags: ['c', 'b'] } as Document), 11000);
    expect(error.keyValue).toEqual({ tags: 'b' });
    await c.insertOne({ _id: 3, tags: ['d', 'd'] } as Document);
    await c.insertOne({ _id: 4, tags: 'e' } as Document);
    await expectServerError(c.insertOne({ _id: 5, tags: ['e'] } as Document), 11000);
    expect((await c.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 3, 4]);
  });

  test('a unique index keys an empty array apart from null: [] and null coexist, a second [] is a duplicate', async () => {
    // MongoDB indexes an empty array as undefined, a missing field or null as null.
    const c = freshCollection();
    await c.createIndex({ tags: 1 }, { unique: true });
    await c.insertOne({ _id: 1, tags: [] } as Document);
    await c.insertOne({ _id: 2, tags: null } as Document);
    await expectServerError(c.insertOne({ _id: 3 } as Document), 11000);
    await expectServerError(c.insertOne({ _id: 4, tags: [] } as Document), 11000);
    expect(await idsOf(c, { tags: null })).toEqual([2]);
    expect(await idsOf(c, { tags: [] })).toEqual([1]);
  });

  test('a non-sparse unique index allows only one document missing the field', async () => {
    // MongoDB docs, "Unique Indexes" > "Missing Document Field in a Unique Single-Field Index":
    // a missing field is indexed as null, so only one such document is allowed.
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ _id: 1 } as Document);
    const error = await expectServerError(c.insertOne({ _id: 2 } as Document), 11000);
    expect(error.keyValue).toEqual({ email: null });
    await expectServerError(c.insertOne({ _id: 3, email: null } as Document), 11000);
  });

  test('a sparse unique index allows many documents without the field but still rejects duplicates', async () => {
    // MongoDB docs, "Sparse Indexes" > "Sparse and Unique Properties".
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3, email: 'x' }] as Document[]);
    await expectServerError(c.insertOne({ _id: 4, email: 'x' } as Document), 11000);
    expect(await c.countDocuments()).toBe(3);
  });

  test('numerically equal values of different BSON types are duplicates', async () => {
    // MongoDB docs, "Comparison/Sort Order": numeric types are compared by value.
    const c = freshCollection();
    await c.createIndex({ n: 1 }, { unique: true });
    await c.insertOne({ n: 1 });
    await expectServerError(c.insertOne({ n: new Double(1) }), 11000);
    await expectServerError(c.insertOne({ n: Long.fromNumber(1) }), 11000);
    await expectServerError(c.insertOne({ n: Decimal128.fromString('1.0') }), 11000);
    await c.insertOne({ n: '1' });
    expect(await c.countDocuments()).toBe(2);
  });

  test('an update that would create a duplicate fails and leaves the document unchanged', async () => {
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([{ _id: 1, email: 'a' }, { _id: 2, email: 'b' }] as Document[]);
    const error = await expectServerError(c.updateOne({ _id: 2 } as Document, { $set: { email: 'a' } }), 11000);
    expect(error.keyValue).toEqual({ email: 'a' });
    expect(await c.findOne({ _id: 2 } as Document)).toEqual({ _id: 2, email: 'b' });
  });

  test('an upsert that would create a duplicate fails', async () => {
    const c = freshCollection();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ _id: 1, email: 'a', n: 1 } as Document);
    await expectServerError(c.updateOne({ n: 2 }, { $set: { email: 'a' } }, { upsert: true }), 11000);
    expect(await c.countDocuments()).toBe(1);
  });

  test('building a unique index over existing duplicates fails with 11000 and creates no index', async () => {
    const c = freshCollection();
    await c.insertMany([{ v: 1 }, { v: 1 }]);
    const error = await c.createIndex({ v: 1 }, { unique: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(11000);
    expect((await c.listIndexes().toArray()).map((ix) => ix.name)).toEqual(['_id_']);
  });
});
