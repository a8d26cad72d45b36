/**
 * Error replies: the `{ ok: 0, errmsg, code, codeName }` shape and MongoDB's real codes for bad
 * queries (2 BadValue), bad updates (9, 14), unknown stages and commands. DuplicateKey, NamespaceNotFound
 * and CursorNotFound live with their topics (indexes, cursors). Runs unchanged against MONGODB_URI.
 */
import { type Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_errors');

beforeAll(async () => {
  await ctx.db.collection('things').insertMany([{ _id: 1, a: 1, s: 'text' }, { _id: 2, a: 2 }] as Document[]);
});
const things = () => ctx.db.collection('things');

describe('error reply shape', () => {
  test('a failed command carries ok: 0, errmsg, code and codeName', async () => {
    const error = await expectServerError(ctx.db.command({ definitelyNotACommand: 1 }), 59, 'CommandNotFound');
    expect(error.errorResponse).toMatchObject({ ok: 0, code: 59, codeName: 'CommandNotFound' });
    expect(typeof error.errorResponse.errmsg).toBe('string');
  });

  test('errors do not break the connection: the next command on it succeeds', async () => {
    await expectServerError(things().find({ a: { $foo: 1 } }).toArray(), 2, 'BadValue');
    expect(await things().countDocuments()).toBe(2);
  });
});

describe('BadValue (2) for malformed queries', () => {
  // MongoDB source, expression_parser.cpp: unknown operators and non-array $in/$and are BadValue.
  test('an unknown field operator', async () => {
    const error = await expectServerError(things().find({ a: { $foo: 1 } }).toArray(), 2, 'BadValue');
    expect(error.errmsg).toMatch(/unknown operator: \$foo/);
  });

  test('an unknown top-level operator', async () => {
    const error = await expectServerError(things().find({ $foo: [{ a: 1 }] }).toArray(), 2, 'BadValue');
    expect(error.errmsg).toMatch(/unknown top level operator: \$foo/);
  });

  test('$in with a non-array', async () => {
    const error = await expectServerError(things().find({ a: { $in: 5 } }).toArray(), 2, 'BadValue');
    expect(error.errmsg).toMatch(/\$in needs an array/);
  });

  test('$and with a non-array', async () => {
    await expectServerError(things().find({ $and: { a: 1 } } as Document).toArray(), 2, 'BadValue');
  });

  test('the same filter errors also fail updates, deletes, counts and aggregation $match', async () => {
    // Write commands report statement failures as writeErrors, which have no codeName.
    await expectServerError(things().updateOne({ a: { $foo: 1 } }, { $set: { b: 1 } }), 2);
    await expectServerError(things().deleteMany({ a: { $foo: 1 } }), 2);
    await expectServerError(things().countDocuments({ a: { $foo: 1 } }), 2, 'BadValue');
    await expectServerError(things().aggregate([{ $match: { a: { $foo: 1 } } }]).toArray(), 2, 'BadValue');
    expect(await things().countDocuments({ b: 1 })).toBe(0);
  });
});

describe('malformed updates', () => {
  // Update failures are writeErrors entries: code and errmsg, no codeName (MongoDB source,
  // write_ops WriteError::serialize).

  test('an unknown update operator fails with 9 FailedToParse', async () => {
    const error = await expectServerError(things().updateOne({ _id: 1 } as Document, { $foo: { a: 1 } } as Document), 9);
    expect(error.errmsg).toMatch(/Unknown modifier: \$foo/);
  });

  test('$inc with a non-numeric argument fails with 14 TypeMismatch', async () => {
    await expectServerError(things().updateOne({ _id: 1 } as Document, { $inc: { a: 'x' } } as Document), 14);
  });

  test('$inc of a non-numeric field fails with 14 TypeMismatch and leaves it unchanged', async () => {
    await expectServerError(things().updateOne({ _id: 1 } as Document, { $inc: { s: 1 } }), 14);
    expect((await things().findOne({ _id: 1 } as Document))!.s).toBe('text');
  });

  test('two operators on the same path conflict with 40 ConflictingUpdateOperators', async () => {
    await expectServerError(things().updateOne({ _id: 1 } as Document, { $set: { a: 5 }, $inc: { a: 1 } }), 40);
    expect((await things().findOne({ _id: 1 } as Document))!.a).toBe(1);
  });
});

describe('aggregation errors', () => {
  test('an unknown stage fails with 40324', async () => {
    const error = await expectServerError(things().aggregate([{ $notAStage: {} }]).toArray(), 40324);
    expect(error.errmsg).toMatch(/Unrecognized pipeline stage name/);
  });

  test("set expressions: a non-array operand fails with the operator's code; a null or missing one makes $setUnion and $setDifference null", async () => {
    const project = (expression: Document) => things().aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, v: expression } }]).toArray();
    await expectServerError(project({ $setUnion: [[1], '$a'] }), 17043);
    await expectServerError(project({ $setDifference: [[1], '$a'] }), 17049);
    await expectServerError(project({ $setIsSubset: ['$a', [1]] }), 17046);
    expect(await project({ $setUnion: [[1], '$missing'] })).toEqual([{ v: null }]);
    expect(await project({ $setDifference: ['$a', null] })).toEqual([{ v: null }]);
  });
});
