/**
 * `maxTimeMS` (50 MaxTimeMSExpired): a long scan, sort or pipeline stops once its time is up, and the
 * server answers the other connections' commands as soon as it has stopped, instead of after the whole
 * of the work. The same reads without a limit, or with time enough, finish. Runs unchanged against
 * MONGODB_URI.
 */
import { MongoClient, type Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_max_time');
const DOCUMENTS = 3_000;

beforeAll(async () => {
  await ctx.db.collection('numbers').insertMany(Array.from({ length: DOCUMENTS }, (_, n) => ({ _id: n, n, text: `number ${n}` })) as Document[]);
}, 60_000);
const numbers = () => ctx.db.collection('numbers');

// Every document against every other: millions of expression evaluations, seconds of work.
const EVERY_PAIR = [{ $lookup: { from: 'numbers', let: { n: '$n' }, pipeline: [{ $match: { $expr: { $lt: ['$n', '$$n'] } } }, { $count: 'below' }], as: 'below' } }];
// A filter that builds an array of a thousand numbers for every document it looks at.
const HEAVY_SCAN = { $expr: { $gt: [{ $size: { $filter: { input: { $range: [0, 1000] }, cond: { $gte: ['$$this', '$n'] } } } }, 2000] } };

test('a pipeline stops at its maxTimeMS with 50 MaxTimeMSExpired', async () => {
  const error = await expectServerError(numbers().aggregate(EVERY_PAIR, { maxTimeMS: 50 }).toArray(), 50, 'MaxTimeMSExpired');
  expect(error.errmsg).toMatch(/time limit/);
});

test('a scan stops at its maxTimeMS, and a sort of what it found too', async () => {
  await expectServerError(numbers().find(HEAVY_SCAN, { maxTimeMS: 20 }).toArray(), 50, 'MaxTimeMSExpired');
  await expectServerError(numbers().find(HEAVY_SCAN, { maxTimeMS: 20, sort: { text: -1 } }).toArray(), 50, 'MaxTimeMSExpired');
});

test('with time enough, or no limit, the same reads finish', async () => {
  expect(await numbers().find({ n: { $lt: 5 } }, { maxTimeMS: 60_000, sort: { text: -1 } }).toArray()).toHaveLength(5);
  expect(await numbers().aggregate([{ $match: { n: { $lt: 3 } } }, ...EVERY_PAIR], { maxTimeMS: 60_000 }).toArray()).toEqual([
    { _id: 0, n: 0, text: 'number 0', below: [] },
    { _id: 1, n: 1, text: 'number 1', below: [{ below: 1 }] },
    { _id: 2, n: 2, text: 'number 2', below: [{ below: 2 }] },
  ]);
});

test('another connection is answered while a long command runs, once that command has stopped at its limit', async () => {
  const other = await MongoClient.connect(ctx.mongo.uri);
  try {
    const otherDb = other.db(ctx.db.databaseName);
    await otherDb.command({ ping: 1 });
    const [stopped, answered] = await Promise.all([
      expectServerError(numbers().aggregate(EVERY_PAIR, { maxTimeMS: 100 }).toArray(), 50, 'MaxTimeMSExpired'),
      otherDb.collection('numbers').findOne({ _id: 7 } as Document),
    ]);
    expect([stopped.code, answered]).toEqual([50, { _id: 7, n: 7, text: 'number 7' }]);
  } finally {
    await other.close();
  }
});
