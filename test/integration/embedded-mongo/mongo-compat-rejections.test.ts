/**
 * Requests MongoDB 7.0 rejects although newer servers or drivers send them: `sort` in an update
 * statement (updateOne/replaceOne with a sort option, added in 8.0) and `$`-prefixed fields in a
 * document `_id` (insert, replace, upsert). Runs unchanged against a MongoDB 7.0 at MONGODB_URI.
 */
import type { Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_rejections');

beforeAll(async () => {
  await ctx.db.collection('things').insertMany([
    { _id: 1, n: 2 },
    { _id: 2, n: 1 },
  ] as Document[]);
});
const things = () => ctx.db.collection('things');

describe('sort on updateOne and replaceOne: 40415 IDLUnknownField', () => {
  test('updateOne with a sort option fails the whole command; nothing changes', async () => {
    const error = await expectServerError(things().updateOne({}, { $set: { touched: true } }, { sort: { n: 1 } }), 40415, 'IDLUnknownField');
    expect(error.errmsg).toBe("BSON field 'update.updates.sort' is an unknown field.");
    expect(await things().countDocuments({ touched: true })).toBe(0);
  });

  test('replaceOne with a sort option fails the same way', async () => {
    const error = await expectServerError(things().replaceOne({}, { n: 0 }, { sort: { n: -1 } }), 40415, 'IDLUnknownField');
    expect(error.errmsg).toBe("BSON field 'update.updates.sort' is an unknown field.");
    expect(await things().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 2 },
      { _id: 2, n: 1 },
    ]);
  });

  test('findOneAndUpdate keeps its sort (findAndModify has always had one)', async () => {
    const updated = await things().findOneAndUpdate({}, { $inc: { n: 10 } }, { sort: { n: 1 }, returnDocument: 'after' });
    expect(updated).toEqual({ _id: 2, n: 11 });
    await things().updateOne({ _id: 2 } as Document, { $inc: { n: -10 } });
  });
});

describe("'$'-prefixed fields in _id: 52 DollarPrefixedFieldName", () => {
  test('insert', async () => {
    const error = await expectServerError(ctx.db.collection('ids').insertOne({ _id: { $a: 1 } } as Document), 52);
    expect(error.errmsg).toBe("_id fields may not contain '$'-prefixed fields: $a is not valid for storage.");
  });

  test('insert with the $-prefixed field deeper inside _id', async () => {
    const error = await expectServerError(ctx.db.collection('ids').insertOne({ _id: { x: { $b: 1 } }, v: 1 } as Document), 52);
    expect(error.errmsg).toBe("_id fields may not contain '$'-prefixed fields: $b is not valid for storage.");
  });

  test('replaceOne with upsert, and findOneAndReplace with upsert', async () => {
    await expectServerError(ctx.db.collection('ids').replaceOne({ v: 1 }, { _id: { $a: 1 }, v: 1 }, { upsert: true }), 52);
    await expectServerError(ctx.db.collection('ids').findOneAndReplace({ v: 2 }, { _id: { $a: 1 }, v: 2 }, { upsert: true }), 52, 'DollarPrefixedFieldName');
    expect(await ctx.db.collection('ids').countDocuments()).toBe(0);
  });

  test('a plain document _id is fine', async () => {
    await ctx.db.collection('ids_ok').insertOne({ _id: { a: 1, b: [{ c: 2 }] } } as Document);
    expect(await ctx.db.collection('ids_ok').countDocuments()).toBe(1);
  });
});
