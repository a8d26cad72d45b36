import { EJSON } from 'bson';
import type { Db } from 'mongodb';
import { DEMO_COLLECTIONS, demoSizes, generateDemoData, type DemoCollectionName } from '../../../seed/generate';
import { seedDemoData, type SeedSummary } from '../../../seed/seed-database';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

const ejson = (value: unknown): string => EJSON.stringify(value, { relaxed: false });

let mongo: TestMongo;
let db: Db;
let summary: SeedSummary;
const progress: [DemoCollectionName, number, number][] = [];

beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('seed');
  summary = await seedDemoData(db, { scale: 1, onProgress: (...report) => progress.push(report) });
}, 180_000);

afterAll(async () => {
  await mongo?.stop();
});

test('the summary and the database hold exactly the scale-1 counts', async () => {
  const expected = demoSizes(1);
  expect(summary.counts).toEqual(expected);
  for (const collection of DEMO_COLLECTIONS) {
    expect([collection, await db.collection(collection).countDocuments()]).toEqual([collection, expected[collection]]);
  }
});

test('progress is reported from 0 to the total per collection, in batches of 5,000', () => {
  const logs = progress.filter(([collection]) => collection === 'logMessages').map(([, inserted]) => inserted);
  expect(logs).toEqual(Array.from({ length: 21 }, (_, i) => i * 5_000));
  expect(progress.filter(([collection]) => collection === 'people')).toEqual([
    ['people', 0, 500],
    ['people', 500, 500],
  ]);
  expect(new Set(progress.map(([collection]) => collection))).toEqual(new Set(DEMO_COLLECTIONS));
});

test('every join and lookup key is indexed, unique where the key is', async () => {
  const described: string[] = [];
  for (const collection of DEMO_COLLECTIONS) {
    for (const index of await db.collection(collection).listIndexes().toArray()) {
      if (index.name === '_id_') continue;
      described.push(`${collection}.${index.name as string} ${ejson(index.key)}${index.unique ? ' unique' : ''}`);
    }
  }
  expect(described.sort()).toEqual([
    'authors.bookIds_1 {"bookIds":{"$numberInt":"1"}}',
    'books.authors.id_1 {"authors.id":{"$numberInt":"1"}}',
    'books.isbn_1 {"isbn":{"$numberInt":"1"}} unique',
    'books.publisherId_1 {"publisherId":{"$numberInt":"1"}}',
    'comments.postId_1_createdAt_-1__id_-1 {"postId":{"$numberInt":"1"},"createdAt":{"$numberInt":"-1"},"_id":{"$numberInt":"-1"}}',
    'hosts.ipaddr_1 {"ipaddr":{"$numberInt":"1"}} unique',
    'logMessages.host.id_1_time_-1__id_-1 {"host.id":{"$numberInt":"1"},"time":{"$numberInt":"-1"},"_id":{"$numberInt":"-1"}}',
    'products.catalogNumber_1 {"catalogNumber":{"$numberInt":"1"}} unique',
    'products.parts.id_1 {"parts.id":{"$numberInt":"1"}}',
    'stocks.symbol_1 {"symbol":{"$numberInt":"1"}} unique',
    'tasks.due_1 {"due":{"$numberInt":"1"}}',
    'tasks.ownerId_1 {"ownerId":{"$numberInt":"1"}}',
  ]);
  expect(summary.indexes).toEqual({
    comments: ['postId_1_createdAt_-1__id_-1'],
    books: ['publisherId_1', 'authors.id_1', 'isbn_1'],
    logMessages: ['host.id_1_time_-1__id_-1'],
    tasks: ['ownerId_1', 'due_1'],
    stocks: ['symbol_1'],
    products: ['catalogNumber_1', 'parts.id_1'],
    hosts: ['ipaddr_1'],
    authors: ['bookIds_1'],
  });
});

test('documents round-trip exactly, and the embedded copies match what the joins return', async () => {
  const generated = generateDemoData(1);
  const book = await db.collection('books').findOne({ _id: generated.books[7]!._id });
  expect(ejson(book)).toBe(ejson(generated.books[7]));

  const post = generated.posts[0]!;
  const newest = await db.collection('comments').find({ postId: post._id }).sort({ createdAt: -1 }).limit(3).toArray();
  expect(ejson(newest)).toBe(ejson(post.recentComments));

  const host = await db.collection('hosts').findOne({ ipaddr: '10.66.0.1' });
  const logs = await db.collection('logMessages').find({ 'host.id': host!._id }).sort({ time: -1 }).limit(10).toArray();
  expect(ejson(logs)).toBe(ejson(host!.recentLogs));
});

test('unique indexes reject a duplicate symbol', async () => {
  const existing = await db.collection('stocks').findOne({});
  await expect(db.collection('stocks').insertOne({ symbol: existing!.symbol })).rejects.toMatchObject({ code: 11000 });
});

test('seeding again replaces the demo collections and leaves other collections alone', async () => {
  await db.collection('unrelated').insertOne({ keep: true });
  const again = await seedDemoData(db, { scale: 0.01 });
  expect(again.counts).toEqual(demoSizes(0.01));
  expect(await db.collection('books').countDocuments()).toBe(10);
  expect(await db.collection('logMessages').countDocuments()).toBe(1_000);
  expect(await db.collection('unrelated').countDocuments()).toBe(1);
  expect((await db.collection('stocks').listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'symbol_1']);
}, 60_000);
