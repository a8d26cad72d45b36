/**
 * BSON fidelity: every type survives a write/read round trip with its type; null vs missing;
 * comparisons, sorts, $inc and $sum are numerically exact across Int32/Double/Long/Decimal128.
 * Stored types are checked with `$type`, which MongoDB answers itself (no driver promotion in the way).
 * Runs unchanged against MONGODB_URI.
 */
import { Binary, BSONRegExp, Decimal128, Double, Int32, Long, ObjectId, type Document } from 'mongodb';
import { expectServerError, idsOf, storedTypes, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_bson');
let counter = 0;
const freshCollection = () => ctx.db.collection(`bson_${++counter}`);
const byId = (id: unknown) => ({ _id: id }) as Document;

const BEYOND_2_53 = '9007199254740993'; // 2^53 + 1: not representable as a JS number

describe('round trips', () => {
  const oid = new ObjectId('65a1b2c3d4e5f60718293a4b');
  const when = new Date('2024-02-29T12:34:56.789Z');
  const bytes = new Binary(Buffer.from([0, 1, 2, 250, 255]), 0);
  const uuid = new Binary(Buffer.from('0123456789abcdef0123456789abcdef', 'hex'), 4);
  const sample = {
    _id: 1,
    oid,
    when,
    dec: Decimal128.fromString('1234567890.123456789012345678901234'),
    bigLong: Long.fromString(BEYOND_2_53),
    maxLong: Long.MAX_VALUE,
    smallLong: Long.fromNumber(42),
    int: new Int32(7),
    negInt: new Int32(-2147483648),
    double: new Double(1),
    fraction: 2.5,
    bigDouble: 2 ** 40,
    bytes,
    uuid,
    nothing: null,
    yes: true,
    text: 'héllo ✓',
    regex: new BSONRegExp('^ab', 'i'),
    nested: { arr: [1, 'two', { three: [3] }], empty: {} },
  };

  beforeAll(async () => {
    await ctx.db.collection('round_trip').insertOne(sample as Document);
  });

  test('$type reports the BSON type each value was stored with', async () => {
    const c = ctx.db.collection('round_trip');
    const fields: Record<string, string> = {
      oid: 'objectId',
      when: 'date',
      dec: 'decimal',
      bigLong: 'long',
      maxLong: 'long',
      smallLong: 'long',
      int: 'int',
      negInt: 'int',
      double: 'double',
      fraction: 'double',
      bigDouble: 'double',
      bytes: 'binData',
      uuid: 'binData',
      nothing: 'null',
      yes: 'bool',
      text: 'string',
      regex: 'regex',
      nested: 'object',
      'nested.arr': 'array',
      missingField: 'missing',
    };
    const actual: Record<string, string | undefined> = {};
    for (const field of Object.keys(fields)) actual[field] = (await storedTypes(c, field))['1'];
    expect(actual).toEqual(fields);
  });

  test('values read back equal what was written', async () => {
    const doc = await ctx.db.collection('round_trip').findOne(byId(1));
    expect(doc!.oid).toBeInstanceOf(ObjectId);
    expect((doc!.oid as ObjectId).toHexString()).toBe(oid.toHexString());
    expect(doc!.when).toBeInstanceOf(Date);
    expect((doc!.when as Date).getTime()).toBe(when.getTime());
    expect(doc!.dec).toBeInstanceOf(Decimal128);
    expect(String(doc!.dec)).toBe('1234567890.123456789012345678901234');
    // The driver keeps int64 values beyond 2^53 as Long (promoteLongs only promotes safe values).
    expect(Long.isLong(doc!.bigLong)).toBe(true);
    expect(String(doc!.bigLong)).toBe(BEYOND_2_53);
    expect(String(doc!.maxLong)).toBe('9223372036854775807');
    expect(doc!.smallLong).toBe(42);
    expect(doc!.int).toBe(7);
    expect(doc!.negInt).toBe(-2147483648);
    expect(doc!.double).toBe(1);
    expect(doc!.fraction).toBe(2.5);
    expect(doc!.bigDouble).toBe(2 ** 40);
    expect(doc!.bytes).toBeInstanceOf(Binary);
    expect((doc!.bytes as Binary).sub_type).toBe(0);
    expect(Buffer.from((doc!.bytes as Binary).buffer)).toEqual(Buffer.from([0, 1, 2, 250, 255]));
    expect((doc!.uuid as Binary).sub_type).toBe(4);
    expect(Buffer.from((doc!.uuid as Binary).buffer).toString('hex')).toBe('0123456789abcdef0123456789abcdef');
    expect(doc!.nothing).toBeNull();
    expect('nothing' in doc!).toBe(true);
    expect(doc!.yes).toBe(true);
    expect(doc!.text).toBe('héllo ✓');
    expect(doc!.nested).toEqual({ arr: [1, 'two', { three: [3] }], empty: {} });
  });

  test('with promoteValues: false the numeric wrappers come back as Int32, Double and Long', async () => {
    const doc = await ctx.db.collection('round_trip').findOne(byId(1), { promoteValues: false });
    expect(doc!.int).toBeInstanceOf(Int32);
    expect(doc!.double).toBeInstanceOf(Double);
    expect((doc!.double as Double).valueOf()).toBe(1);
    expect(doc!.smallLong).toBeInstanceOf(Long);
    expect(doc!.fraction).toBeInstanceOf(Double);
  });

  test('$type queries by alias, by number and by "number"', async () => {
    const c = freshCollection();
    await c.insertMany([
      { _id: 1, a: new Int32(1) },
      { _id: 2, a: new Double(1) },
      { _id: 3, a: Long.fromNumber(1) },
      { _id: 4, a: Decimal128.fromString('1') },
      { _id: 5, a: '1' },
      { _id: 6, a: null },
      { _id: 7 },
      { _id: 8, a: [new Int32(5), 'x'] },
    ] as Document[]);
    // MongoDB docs, "$type": aliases and numbers; "number" matches int, long, double and decimal;
    // for arrays $type matches when any element has the type.
    expect(await idsOf(c, { a: { $type: 'int' } })).toEqual([1, 8]);
    expect(await idsOf(c, { a: { $type: 'double' } })).toEqual([2]);
    expect(await idsOf(c, { a: { $type: 'long' } })).toEqual([3]);
    expect(await idsOf(c, { a: { $type: 'decimal' } })).toEqual([4]);
    expect(await idsOf(c, { a: { $type: 18 } })).toEqual([3]);
    expect(await idsOf(c, { a: { $type: 'number' } })).toEqual([1, 2, 3, 4, 8]);
    expect(await idsOf(c, { a: { $type: ['string', 'null'] } })).toEqual([5, 6, 8]);
    expect(await idsOf(c, { a: { $type: 'array' } })).toEqual([8]);
  });

  test('Binary and Date values can be queried by equality and range', async () => {
    const c = freshCollection();
    await c.insertMany([
      { _id: 1, b: new Binary(Buffer.from([1, 2, 3]), 0), t: new Date('2020-01-01T00:00:00Z') },
      { _id: 2, b: new Binary(Buffer.from([1, 2, 4]), 0), t: new Date('2021-01-01T00:00:00Z') },
      { _id: 3, b: new Binary(Buffer.from([1, 2, 3]), 5), t: new Date('2022-01-01T00:00:00Z') },
    ] as Document[]);
    expect(await idsOf(c, { b: new Binary(Buffer.from([1, 2, 3]), 0) })).toEqual([1]);
    expect(await idsOf(c, { t: { $gte: new Date('2021-01-01T00:00:00Z') } })).toEqual([2, 3]);
    expect(await idsOf(c, { t: new Date('2020-01-01T00:00:00Z') })).toEqual([1]);
  });
});

describe('regular expression values', () => {
  test('a stored regex keeps its pattern and every option, also those JavaScript has no flag for', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, r: new BSONRegExp('a b # spaced', 'imsux') } as Document);
    const [read] = await c.find(byId(1), { bsonRegExp: true }).toArray();
    expect(read.r).toEqual(new BSONRegExp('a b # spaced', 'imsux'));
  });

  test('a regex JavaScript cannot compile is stored and read back; querying by it is error 51091 and the connection stays up', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, r: new BSONRegExp('a(b', '') }, { _id: 2, s: 'ab' }] as Document[]);
    const [read] = await c.find(byId(1), { bsonRegExp: true }).toArray();
    expect(read.r).toEqual(new BSONRegExp('a(b', ''));
    await expectServerError(c.find({ s: new BSONRegExp('a(b', '') } as Document).toArray(), 51091);
    await expectServerError(c.find({ s: { $in: [new BSONRegExp('a(b', '')] } } as Document).toArray(), 51091);
    expect(await idsOf(c, { s: new BSONRegExp('^a', '') })).toEqual([2]);
  });
});

describe('null and missing', () => {
  beforeAll(async () => {
    await ctx.db.collection('nulls').insertMany([
      { _id: 1, a: null },
      { _id: 2 },
      { _id: 3, a: 1 },
      { _id: 4, a: [null, 2] },
      { _id: 5, a: { b: null } },
    ] as Document[]);
  });
  const c = () => ctx.db.collection('nulls');

  test('{a: null} matches null, missing, and arrays containing null', async () => {
    // MongoDB docs, "Query for Null or Missing Fields".
    expect(await idsOf(c(), { a: null })).toEqual([1, 2, 4]);
    expect(await idsOf(c(), { a: { $in: [null] } })).toEqual([1, 2, 4]);
    expect(await idsOf(c(), { a: { $ne: null } })).toEqual([3, 5]);
  });

  test('$exists and $type: "null" tell null and missing apart', async () => {
    expect(await idsOf(c(), { a: { $exists: false } })).toEqual([2]);
    expect(await idsOf(c(), { a: { $exists: true } })).toEqual([1, 3, 4, 5]);
    expect(await idsOf(c(), { a: { $type: 'null' } })).toEqual([1, 4]);
    // MongoDB jstests core/query/null_query_semantics.js: a dotted path through null, a number or a
    // missing field is null too (arrays are left out: their dotted-null semantics changed in 9.0).
    expect(await idsOf(c(), { 'a.b': null, _id: { $ne: 4 } })).toEqual([1, 2, 3, 5]);
    expect(await idsOf(c(), { 'a.b': { $exists: true } })).toEqual([5]);
  });

  test('null and missing sort together, before numbers', async () => {
    // MongoDB docs, "Comparison/Sort Order": a missing field sorts as null.
    const rows = await c().find({ _id: { $in: [1, 2, 3] } } as Document).sort({ a: 1, _id: -1 }).toArray();
    expect(rows.map((row) => row._id)).toEqual([2, 1, 3]);
  });

  test('an explicit null survives a round trip; a projection does not invent missing fields', async () => {
    expect(await c().findOne(byId(1))).toEqual({ _id: 1, a: null });
    const missing = await c().findOne(byId(2), { projection: { a: 1 } });
    expect(missing).toEqual({ _id: 2 });
    expect('a' in missing!).toBe(false);
  });
});

describe('a missing field stays missing through writes of other fields (never becomes null)', () => {
  // MongoDB docs, "Query for Null or Missing Fields": `$exists: false` and aggregation `$type`
  // ("missing") tell an absent field from a stored null; `$type: "null"` matches only stored nulls.
  // Pipeline updates: `$set` to a path that resolves to nothing adds no field ("$addFields" docs:
  // a missing value is not added).
  test('after $set of another field, replaceOne, an upsert, a pipeline update and findOneAndUpdate', async () => {
    const c = freshCollection();
    await c.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }, { _id: 4, a: 4 }, { _id: 5, a: 5, kept: null }] as Document[]);
    await c.updateOne(byId(1), { $set: { a: 10 } });
    await c.replaceOne(byId(2), { a: 20 });
    await c.updateOne(byId(3), { $set: { a: 30 } }, { upsert: true });
    await c.updateOne(byId(5), [{ $set: { a: 50, copy: '$absent' } }]);
    const after = await c.findOneAndUpdate(byId(4), { $inc: { a: 1 } }, { returnDocument: 'after' });
    expect(Object.keys(after!)).toEqual(['_id', 'a']);
    expect(await storedTypes(c, 'absent')).toEqual({ '1': 'missing', '2': 'missing', '3': 'missing', '4': 'missing', '5': 'missing' });
    expect(await storedTypes(c, 'copy')).toEqual({ '1': 'missing', '2': 'missing', '3': 'missing', '4': 'missing', '5': 'missing' });
    expect(await idsOf(c, { absent: { $exists: false } })).toEqual([1, 2, 3, 4, 5]);
    expect(await idsOf(c, { absent: { $type: 'null' } })).toEqual([]);
    // and a stored null stays null through a write of another field
    expect(await idsOf(c, { kept: { $type: 'null' } })).toEqual([5]);
    expect(await c.findOne(byId(5))).toEqual({ _id: 5, a: 50, kept: null });
  });
});

describe('numeric comparison and sort across types', () => {
  const values: [number, unknown][] = [
    [1, new Int32(3)],
    [2, new Double(2.5)],
    [3, Long.fromString(BEYOND_2_53)],
    [4, Decimal128.fromString('9007199254740992.5')],
    [5, Long.fromNumber(-1)],
    [6, new Double(1e20)],
    [7, Decimal128.fromString('-0.5')],
    [8, new Int32(2)],
    [9, new Double(9007199254740992)],
    [10, new Double(-Infinity)],
    [11, new Double(NaN)],
  ];
  beforeAll(async () => {
    await ctx.db.collection('numbers').insertMany(values.map(([_id, n]) => ({ _id, n })) as Document[]);
  });
  const c = () => ctx.db.collection('numbers');

  test('sort orders every numeric type by exact value', async () => {
    // MongoDB docs, "Comparison/Sort Order": numeric types are compared by value after conversion;
    // NaN sorts below every other number. 2^53 (double) < 2^53 + 0.5 (decimal) < 2^53 + 1 (long).
    const ascending = [11, 10, 5, 7, 8, 2, 1, 9, 4, 3, 6];
    expect((await c().find().sort({ n: 1 }).toArray()).map((d) => d._id)).toEqual(ascending);
    expect((await c().find().sort({ n: -1 }).toArray()).map((d) => d._id)).toEqual([...ascending].reverse());
  });

  test('range queries compare exactly beyond 2^53', async () => {
    expect(await idsOf(c(), { n: { $gt: Long.fromString('9007199254740992') } })).toEqual([3, 4, 6]);
    expect(await idsOf(c(), { n: { $gte: Decimal128.fromString('9007199254740992.5') } })).toEqual([3, 4, 6]);
    // MongoDB source, ComparisonMatchExpression: "NaN is equal to NaN but otherwise always compares
    // to false", so $lt 0 does not match NaN although NaN sorts first.
    expect(await idsOf(c(), { n: { $lt: new Int32(0) } })).toEqual([5, 7, 10]);
    expect(await idsOf(c(), { n: NaN })).toEqual([11]);
    expect(await idsOf(c(), { n: Long.fromString(BEYOND_2_53) })).toEqual([3]);
  });

  test('numerically equal values of different types match each other', async () => {
    const d = freshCollection();
    await d.insertMany([
      { _id: 1, n: new Int32(2) },
      { _id: 2, n: new Double(2) },
      { _id: 3, n: Long.fromNumber(2) },
      { _id: 4, n: Decimal128.fromString('2.00') },
      { _id: 5, n: '2' },
    ] as Document[]);
    expect(await idsOf(d, { n: 2 })).toEqual([1, 2, 3, 4]);
    expect(await idsOf(d, { n: Decimal128.fromString('2') })).toEqual([1, 2, 3, 4]);
    expect(await idsOf(d, { n: { $in: [Long.fromNumber(2)] } })).toEqual([1, 2, 3, 4]);
  });

  test('values of different types sort in BSON type order', async () => {
    // MongoDB docs, "Comparison/Sort Order": MinKey, Null, Numbers, Symbol/String, Object, Array,
    // BinData, ObjectId, Boolean, Date, Timestamp, Regular Expression, MaxKey.
    const d = freshCollection();
    await d.insertMany([
      { _id: 1, v: new Date(0) },
      { _id: 2, v: true },
      { _id: 3, v: new ObjectId('000000000000000000000001') },
      { _id: 4, v: new Binary(Buffer.from([1]), 0) },
      { _id: 5, v: { x: 1 } },
      { _id: 6, v: 'str' },
      { _id: 7, v: 5 },
      { _id: 8, v: null },
      { _id: 9, v: new BSONRegExp('a', '') },
    ] as Document[]);
    expect((await d.find().sort({ v: 1 }).toArray()).map((doc) => doc._id)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 9]);
  });

  test('arrays sort by their smallest element ascending and largest element descending', async () => {
    // MongoDB docs, "Comparison/Sort Order" > "Arrays".
    const d = freshCollection();
    await d.insertMany([
      { _id: 1, a: [3, 10] },
      { _id: 2, a: 5 },
      { _id: 3, a: [1, 7] },
    ] as Document[]);
    expect((await d.find().sort({ a: 1 }).toArray()).map((doc) => doc._id)).toEqual([3, 1, 2]);
    expect((await d.find().sort({ a: -1 }).toArray()).map((doc) => doc._id)).toEqual([1, 3, 2]);
  });
});

describe('$inc keeps numeric types exact', () => {
  test('Long + Long beyond 2^53 stays an exact Long', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, n: Long.fromString(BEYOND_2_53) } as Document);
    await c.updateOne(byId(1), { $inc: { n: Long.fromNumber(2) } });
    const doc = await c.findOne(byId(1));
    expect(String(doc!.n)).toBe('9007199254740995');
    expect((await storedTypes(c, 'n'))['1']).toBe('long');
  });

  test('Int32 overflow is promoted to Long', async () => {
    // MongoDB jstests core/inc-SERVER-7446.js: "A 32 bit overflow spills to 64 bits".
    const c = freshCollection();
    await c.insertOne({ _id: 1, n: new Int32(2147483647) } as Document);
    await c.updateOne(byId(1), { $inc: { n: new Int32(1) } });
    expect((await c.findOne(byId(1)))!.n).toBe(2147483648);
    expect((await storedTypes(c, 'n'))['1']).toBe('long');
  });

  test('Decimal128 increments are decimal-exact; Int32 + Double is a Double; a missing field takes the increment', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, d: Decimal128.fromString('0.1'), i: new Int32(1), l: Long.fromNumber(5) } as Document);
    await c.updateOne(byId(1), {
      $inc: { d: Decimal128.fromString('0.2'), i: new Double(0.5), l: new Int32(1), fresh: Long.fromNumber(3) },
    });
    const doc = await c.findOne(byId(1));
    expect(String(doc!.d)).toBe('0.3');
    expect(doc!.i).toBe(1.5);
    expect(doc!.l).toBe(6);
    expect(doc!.fresh).toBe(3);
    expect(await storedTypes(c, 'd')).toEqual({ 1: 'decimal' });
    expect(await storedTypes(c, 'i')).toEqual({ 1: 'double' });
    expect(await storedTypes(c, 'l')).toEqual({ 1: 'long' });
    expect(await storedTypes(c, 'fresh')).toEqual({ 1: 'long' });
  });

  test('an Int32 stays an Int32 when the result fits', async () => {
    const c = freshCollection();
    await c.insertOne({ _id: 1, n: new Int32(5) } as Document);
    await c.updateOne(byId(1), { $inc: { n: new Int32(-7) } });
    expect((await c.findOne(byId(1)))!.n).toBe(-2);
    expect(await storedTypes(c, 'n')).toEqual({ 1: 'int' });
  });
});

describe('$sum keeps numeric types exact', () => {
  test('Decimal128 0.1 three times sums to exactly 0.3', async () => {
    const c = freshCollection();
    await c.insertMany([1, 2, 3].map((i) => ({ _id: i, d: Decimal128.fromString('0.1') })) as Document[]);
    const [row] = await c.aggregate([{ $group: { _id: null, total: { $sum: '$d' } } }, { $addFields: { t: { $type: '$total' } } }]).toArray();
    expect(row!.total).toBeInstanceOf(Decimal128);
    expect(String(row!.total)).toBe('0.3');
    expect(row!.t).toBe('decimal');
  });

  test('Long values beyond 2^53 sum exactly to a Long', async () => {
    const c = freshCollection();
    await c.insertMany([
      { _id: 1, n: Long.fromString(BEYOND_2_53) },
      { _id: 2, n: Long.fromNumber(2) },
      { _id: 3, n: new Int32(1) },
    ] as Document[]);
    const [row] = await c.aggregate([{ $group: { _id: null, total: { $sum: '$n' } } }, { $addFields: { t: { $type: '$total' } } }]).toArray();
    expect(String(row!.total)).toBe('9007199254740996');
    expect(row!.t).toBe('long');
  });

  test('Int32 sums that overflow become Long; mixing in a Double gives a Double', async () => {
    // MongoDB docs, "$sum" > "Result Data Type".
    const c = freshCollection();
    await c.insertMany([
      { _id: 1, g: 'int', n: new Int32(2147483647) },
      { _id: 2, g: 'int', n: new Int32(1) },
      { _id: 3, g: 'mixed', n: new Int32(1) },
      { _id: 4, g: 'mixed', n: new Double(0.5) },
    ] as Document[]);
    const rows = await c
      .aggregate([{ $group: { _id: '$g', total: { $sum: '$n' } } }, { $addFields: { t: { $type: '$total' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(rows).toEqual([
      { _id: 'int', total: 2147483648, t: 'long' },
      { _id: 'mixed', total: 1.5, t: 'double' },
    ]);
  });
});
