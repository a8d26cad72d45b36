/**
 * Collations (MongoDB docs: "Collation"): the `collation` option of find, updates, deletes,
 * findOneAndUpdate, distinct, countDocuments and aggregate, a collection's default collation from
 * createCollection, and MongoDB 7.0's errors for collation documents it rejects.
 * Runs unchanged against MONGODB_URI.
 */
import type { CollationOptions, Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_collation');

const WORDS = [
  { _id: 1, name: 'apple' },
  { _id: 2, name: 'Apple' },
  { _id: 3, name: 'APPLE' },
  { _id: 4, name: 'äpple' },
  { _id: 5, name: 'banana' },
  { _id: 6, name: 'Banana' },
  { _id: 7, name: 'cherry' },
];

const en = (strength?: number, extra: Partial<CollationOptions> = {}): CollationOptions =>
  strength === undefined ? { locale: 'en', ...extra } : { locale: 'en', strength, ...extra };

/** A fresh collection holding WORDS. */
async function words(name: string): Promise<ReturnType<typeof ctx.db.collection>> {
  const collection = ctx.db.collection(name);
  await collection.insertMany(WORDS.map((word) => ({ ...word })) as Document[]);
  return collection;
}

const ids = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

describe('matching', () => {
  test('equality: strength 1 ignores case and diacritics, 2 only case, 3 neither; simple is binary', async () => {
    const collection = await words('match_strengths');
    const find = (collation: CollationOptions) => collection.find({ name: 'apple' }).sort({ _id: 1 }).collation(collation).toArray();
    expect(ids(await find(en(1)))).toEqual([1, 2, 3, 4]);
    expect(ids(await find(en(2)))).toEqual([1, 2, 3]);
    expect(ids(await find(en(3)))).toEqual([1]);
    expect(ids(await find(en()))).toEqual([1]);
    expect(ids(await find({ locale: 'simple' }))).toEqual([1]);
  });

  test('$in, $nin, $ne and $eq follow the collation', async () => {
    const collection = await words('match_operators');
    const find = (filter: Document) => collection.find(filter).sort({ _id: 1 }).collation(en(2)).toArray();
    expect(ids(await find({ name: { $in: ['BANANA', 'Cherry'] } }))).toEqual([5, 6, 7]);
    expect(ids(await find({ name: { $nin: ['APPLE', 'banana'] } }))).toEqual([4, 7]);
    expect(ids(await find({ name: { $ne: 'APPLE' } }))).toEqual([4, 5, 6, 7]);
    expect(ids(await find({ name: { $eq: 'CHERRY' } }))).toEqual([7]);
  });

  test('ranges compare in the collation order: under en, "äpple" < "b"; in binary it is above', async () => {
    const collection = await words('match_ranges');
    const below = (collation: CollationOptions) => collection.find({ name: { $lt: 'b' } }).sort({ _id: 1 }).collation(collation).toArray();
    expect(ids(await below(en()))).toEqual([1, 2, 3, 4]);
    expect(ids(await below({ locale: 'simple' }))).toEqual([1, 2, 3, 6]);
  });

  test('caseLevel at strength 1: diacritics ignored, case compared', async () => {
    const collection = await words('match_case_level');
    const found = await collection.find({ name: 'apple' }).sort({ _id: 1 }).collation(en(1, { caseLevel: true })).toArray();
    expect(ids(found)).toEqual([1, 4]);
  });

  test('strings inside documents and arrays compare under the collation too', async () => {
    const collection = ctx.db.collection('match_nested');
    await collection.insertMany([
      { _id: 1, tags: ['Red', 'green'], owner: { name: 'ANN' } },
      { _id: 2, tags: ['blue'], owner: { name: 'bob' } },
    ] as Document[]);
    const find = (filter: Document) => collection.find(filter).collation(en(2)).toArray();
    expect(ids(await find({ tags: 'red' }))).toEqual([1]);
    expect(ids(await find({ owner: { name: 'ann' } }))).toEqual([1]);
    expect(ids(await find({ tags: ['RED', 'Green'] }))).toEqual([1]);
  });
});

describe('sorting', () => {
  const letters = ['B', 'a', 'b', 'A'];

  test('en (strength 3) orders "a" < "A" < "b" < "B"; simple orders by code point', async () => {
    const collection = ctx.db.collection('sort_letters');
    await collection.insertMany(letters.map((letter, i) => ({ _id: i, v: letter })) as Document[]);
    const sorted = async (collation?: CollationOptions) => {
      const cursor = collection.find({}, { projection: { _id: 0, v: 1 } }).sort({ v: 1 });
      return (await (collation === undefined ? cursor : cursor.collation(collation)).toArray()).map((doc) => doc.v);
    };
    expect(await sorted()).toEqual(['A', 'B', 'a', 'b']);
    expect(await sorted({ locale: 'simple' })).toEqual(['A', 'B', 'a', 'b']);
    expect(await sorted(en())).toEqual(['a', 'A', 'b', 'B']);
    expect(await sorted(en(3, { caseFirst: 'upper' }))).toEqual(['A', 'a', 'B', 'b']);
  });

  test('diacritics sort after the plain letter under en and after every ASCII letter in binary', async () => {
    const collection = await words('sort_words');
    const names = async (collation: CollationOptions) => (await collection.find().sort({ name: 1 }).collation(collation).toArray()).map((doc) => doc.name);
    expect(await names(en())).toEqual(['apple', 'Apple', 'APPLE', 'äpple', 'banana', 'Banana', 'cherry']);
    expect(await names({ locale: 'simple' })).toEqual(['APPLE', 'Apple', 'Banana', 'apple', 'banana', 'cherry', 'äpple']);
  });

  test('numericOrdering compares digit runs as numbers', async () => {
    const collection = ctx.db.collection('sort_numeric');
    await collection.insertMany(['10', '9', '2', '100'].map((v, i) => ({ _id: i, v })) as Document[]);
    const sorted = await collection.find().sort({ v: 1 }).collation(en(3, { numericOrdering: true })).toArray();
    expect(sorted.map((doc) => doc.v)).toEqual(['2', '9', '10', '100']);
    const binary = await collection.find().sort({ v: 1 }).toArray();
    expect(binary.map((doc) => doc.v)).toEqual(['10', '100', '2', '9']);
  });
});

describe('writes', () => {
  test('updateMany and updateOne match under the collation', async () => {
    const collection = await words('write_update');
    const many = await collection.updateMany({ name: 'apple' }, { $set: { fruit: true } }, { collation: en(2) });
    expect({ matched: many.matchedCount, modified: many.modifiedCount }).toEqual({ matched: 3, modified: 3 });
    const one = await collection.updateOne({ name: 'CHERRY' }, { $set: { fruit: true } }, { collation: en(1) });
    expect(one.modifiedCount).toBe(1);
    expect(ids(await collection.find({ fruit: true }).sort({ _id: 1 }).toArray())).toEqual([1, 2, 3, 7]);
  });

  test('findOneAndUpdate finds and sorts under the collation', async () => {
    const collection = await words('write_find_and_modify');
    const updated = await collection.findOneAndUpdate(
      { name: 'BANANA' },
      { $set: { seen: true } },
      { collation: en(2), sort: { name: 1, _id: -1 }, returnDocument: 'after' },
    );
    expect(updated).toEqual({ _id: 6, name: 'Banana', seen: true });
  });

  test('deleteMany and deleteOne match under the collation', async () => {
    const collection = await words('write_delete');
    expect((await collection.deleteMany({ name: 'APPLE' }, { collation: en(1) })).deletedCount).toBe(4);
    expect((await collection.deleteOne({ name: 'BANANA' }, { collation: en(2) })).deletedCount).toBe(1);
    expect(await collection.countDocuments()).toBe(2);
  });
});

describe('counting, distinct and aggregation', () => {
  test('countDocuments counts under the collation', async () => {
    const collection = await words('count_words');
    expect(await collection.countDocuments({ name: 'apple' }, { collation: en(1) })).toBe(4);
    expect(await collection.countDocuments({ name: 'apple' })).toBe(1);
  });

  test('distinct returns one value per set of equal strings (the first stored), in collation order', async () => {
    const collection = ctx.db.collection('distinct_words');
    await collection.insertMany(['b', 'A', 'a', 'B', 'c'].map((v, i) => ({ _id: i, v })) as Document[]);
    expect(await collection.distinct('v', {}, { collation: en(2) })).toEqual(['A', 'b', 'c']);
    expect(await collection.distinct('v', {})).toEqual(['A', 'B', 'a', 'b', 'c']);
  });

  test('aggregate: $match, $group and $sort run under the collation', async () => {
    const collection = await words('aggregate_words');
    const groups = await collection
      .aggregate(
        [
          { $match: { name: { $ne: 'CHERRY' } } },
          { $group: { _id: '$name', n: { $sum: 1 } } },
          { $sort: { n: -1 } },
        ],
        { collation: en(1) },
      )
      .toArray();
    expect(groups).toEqual([
      { _id: 'apple', n: 4 },
      { _id: 'banana', n: 2 },
    ]);
  });

  test('aggregate expressions ($eq, $in) compare under the collation', async () => {
    const collection = await words('aggregate_expressions');
    const rows = await collection
      .aggregate(
        [
          { $match: { _id: { $lte: 3 } } },
          { $project: { same: { $eq: ['$name', 'APPLE'] }, listed: { $in: ['$name', ['aPPle']] } } },
          { $sort: { _id: 1 } },
        ],
        { collation: en(2) },
      )
      .toArray();
    expect(rows).toEqual([
      { _id: 1, same: true, listed: true },
      { _id: 2, same: true, listed: true },
      { _id: 3, same: true, listed: true },
    ]);
  });

  test('set expressions ($setUnion, $setDifference, $setEquals) compare under the collation', async () => {
    const collection = await words('set_expressions');
    const [row] = await collection
      .aggregate(
        [
          { $match: { _id: 1 } },
          {
            $project: {
              _id: 0,
              union: { $size: { $setUnion: [['$name'], ['APPLE', 'äpple']] } },
              difference: { $setDifference: [['$name', 'banana'], ['APPLE']] },
              equals: { $setEquals: [['$name'], ['Apple']] },
            },
          },
        ],
        { collation: en(2) },
      )
      .toArray();
    expect(row).toEqual({ union: 2, difference: ['banana'], equals: true });
  });
});

describe('a collection default collation', () => {
  test('applies to every operation that names none; an explicit collation overrides it', async () => {
    await ctx.db.createCollection('default_ci', { collation: en(2) });
    const collection = ctx.db.collection('default_ci');
    await collection.insertMany([
      { _id: 1, name: 'apple' },
      { _id: 2, name: 'Apple' },
      { _id: 3, name: 'banana' },
    ] as Document[]);
    expect(ids(await collection.find({ name: 'APPLE' }).sort({ _id: 1 }).toArray())).toEqual([1, 2]);
    expect(await collection.countDocuments({ name: 'APPLE' })).toBe(2);
    expect(ids(await collection.find({ name: 'APPLE' }).collation({ locale: 'simple' }).toArray())).toEqual([]);
    const updated = await collection.updateMany({ name: 'APPLE' }, { $set: { seen: true } });
    expect(updated.modifiedCount).toBe(2);
    expect((await collection.deleteMany({ name: 'BANANA' })).deletedCount).toBe(1);
  });

  test('listCollections shows the collation with every option filled in', async () => {
    await ctx.db.createCollection('default_listed', { collation: en(2) });
    const [info] = await ctx.db.listCollections({ name: 'default_listed' }, { nameOnly: false }).toArray();
    expect(info?.options).toEqual({
      collation: {
        locale: 'en',
        caseLevel: false,
        caseFirst: 'off',
        strength: 2,
        numericOrdering: false,
        alternate: 'non-ignorable',
        maxVariable: 'punct',
        normalization: false,
        backwards: false,
        version: expect.any(String),
      },
    });
  });

  test('a simple collation is not stored', async () => {
    await ctx.db.createCollection('default_simple', { collation: { locale: 'simple' } });
    const [info] = await ctx.db.listCollections({ name: 'default_simple' }, { nameOnly: false }).toArray();
    expect(info?.options).toEqual({});
  });
});

describe('collation documents MongoDB 7.0 rejects', () => {
  const findWith = (collation: unknown) => ctx.db.collection('errors').find({}).collation(collation as CollationOptions).toArray();

  test('a missing locale: 40414 IDLFailedToParse', async () => {
    const error = await expectServerError(findWith({ strength: 2 }), 40414, 'IDLFailedToParse');
    expect(error.errmsg).toMatch(/locale/);
  });

  test('an unknown option: 40415 IDLUnknownField', async () => {
    const error = await expectServerError(findWith({ locale: 'en', colour: 'blue' }), 40415, 'IDLUnknownField');
    expect(error.errmsg).toBe("BSON field 'collation.colour' is an unknown field.");
  });

  test('a locale ICU does not know: 2 BadValue', async () => {
    const error = await expectServerError(findWith({ locale: 'xx' }), 2, 'BadValue');
    expect(error.errmsg).toMatch(/Field 'locale' is invalid in:/);
  });

  test('a strength above 5: 51024', async () => {
    await expectServerError(findWith({ locale: 'en', strength: 6 }), 51024, 'Location51024');
  });

  test('a wrongly typed option: 14 TypeMismatch; an unknown enum value: 2 BadValue', async () => {
    await expectServerError(findWith({ locale: 'en', strength: 'two' }), 14, 'TypeMismatch');
    await expectServerError(findWith({ locale: 'en', caseFirst: 'sideways' }), 2, 'BadValue');
  });

  test('caseFirst below strength 3 without caseLevel: 2 BadValue', async () => {
    await expectServerError(findWith({ locale: 'en', strength: 2, caseFirst: 'upper' }), 2, 'BadValue');
  });

  test('the same checks apply to createCollection and to write statements', async () => {
    await expectServerError(ctx.db.createCollection('never_created', { collation: { locale: 'xx' } } as Document), 2, 'BadValue');
    await expectServerError(ctx.db.collection('errors').updateOne({}, { $set: { a: 1 } }, { collation: { locale: 'xx' } }), 2);
    expect(await ctx.db.listCollections({ name: 'never_created' }).toArray()).toEqual([]);
  });
});
