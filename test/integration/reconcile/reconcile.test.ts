import type { Db, ObjectId } from 'mongodb';
import { DEMO_CONFIG, demoTypeDefs } from '../../support/demo-project';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { runReconcileCli } from '../../../src/reconcile/cli';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { ReconcileProgress, ReconcileReport } from '../../../src/reconcile/reconcile-types';
import { seedDemoData } from '../../../seed/seed-database';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/** Data corrupted behind the gateway's back: reconcile finds each case exactly, fixes it, then finds nothing. */
let mongo: TestMongo;
let db: Db;
const model = buildWriteModelFromSdl(demoTypeDefs());

beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('reconcile');
  await seedDemoData(db, { scale: 0.1 });
}, 60_000);
afterAll(() => mongo?.stop());

/** Every check, keyed `kind coordinate`, as `drifted` counts. */
function drifts(report: ReconcileReport): Record<string, number> {
  return Object.fromEntries(report.checks.map((check) => [`${check.kind} ${check.coordinate}`, check.drifted]));
}

const CLEAN = {
  'snapshot Book.authors': 0,
  'snapshot Product.parts': 0,
  'snapshot Host.recentLogs.host': 0,
  'snapshot LogMessage.host': 0,
  'bounded-array Post.recentComments': 0,
  'bounded-array Host.recentLogs': 0,
  'inverse Person.tasks': 0,
  'inverse Author.books': 0,
  'counter Post.commentCount': 0,
  'counter Author.countOfBooks': 0,
};

it('declares every copy of the demo schema', () => {
  expect(model.snapshots.map((s) => s.coordinate).sort()).toEqual(['Book.authors', 'Host.recentLogs.host', 'LogMessage.host', 'Product.parts']);
  expect(Object.keys(CLEAN).length).toBe(model.snapshots.length + model.boundedArrays.length + model.inverses.length + model.counters.length);
});

it('finds no drift in the seeded data', async () => {
  const report = await reconcile(db, model);
  expect(drifts(report)).toEqual(CLEAN);
  expect(report.checks.find((check) => check.coordinate === 'Book.authors')!.scanned).toBe(await db.collection('books').countDocuments());
  expect(report.checks.every((check) => check.dangling === 0)).toBe(true);
});

it('finds a stale snapshot, an off-by-one counter and an over-long bounded array, fixes them, then finds nothing', async () => {
  // 1. An author renamed without touching the books that copy the name.
  const author = (await db.collection('authors').findOne({}, { sort: { _id: 1 } }))!;
  await db.collection('authors').updateOne({ _id: author._id }, { $set: { name: 'Renamed Behind-The-Back' } });
  const staleBooks = await db.collection('books').find({ 'authors.id': author._id }, { sort: { _id: 1 } }).toArray();
  // 2. Another author's countOfBooks off by one.
  const [, counted] = await db.collection('authors').find({}, { sort: { _id: 1 }, limit: 2 }).toArray();
  await db.collection('authors').updateOne({ _id: counted!._id }, { $inc: { countOfBooks: 1 } });
  // 3. A post whose recentComments holds 5 comments (its 5 newest).
  const post = (await db.collection('posts').findOne({ commentCount: { $gte: 5 } }, { sort: { _id: 1 } }))!;
  const newestFive = await db.collection('comments').find({ postId: post._id }, { sort: { createdAt: -1, _id: -1 }, limit: 5 }).toArray();
  await db.collection('posts').updateOne({ _id: post._id }, { $set: { recentComments: newestFive } });

  const progress: ReconcileProgress[] = [];
  const found = await reconcile(db, model, { batchSize: 25, onProgress: (p) => progress.push(p) });
  expect(drifts(found)).toEqual({ ...CLEAN, 'snapshot Book.authors': staleBooks.length, 'counter Author.countOfBooks': 1, 'bounded-array Post.recentComments': 1 });
  const byCoordinate = (report: ReconcileReport, coordinate: string) => report.checks.find((check) => check.coordinate === coordinate)!;
  expect(byCoordinate(found, 'Book.authors').sampleIds).toEqual(staleBooks.slice(0, 5).map((book) => (book._id as ObjectId).toHexString()));
  expect(byCoordinate(found, 'Author.countOfBooks').sampleIds).toEqual([counted!._id.toHexString()]);
  expect(byCoordinate(found, 'Post.recentComments').sampleIds).toEqual([post._id.toHexString()]);
  expect(found.fixed).toBe(0);
  // Progress: batches of 25 books, ending at the total.
  const books = await db.collection('books').countDocuments();
  const bookProgress = progress.filter((p) => p.coordinate === 'Book.authors').map((p) => p.scanned);
  expect(bookProgress[0]).toBe(0);
  expect(bookProgress[bookProgress.length - 1]).toBe(books);
  expect(bookProgress.length).toBe(1 + Math.ceil(books / 25));

  const fixed = await reconcile(db, model, { fix: true, batchSize: 25 });
  expect(fixed.drifted).toBe(staleBooks.length + 2);
  expect(fixed.fixed).toBe(staleBooks.length + 2);

  const again = await reconcile(db, model);
  expect(drifts(again)).toEqual(CLEAN);
  for (const book of await db.collection('books').find({ 'authors.id': author._id }).toArray()) {
    expect(book.authors.find((entry: { id: ObjectId }) => entry.id.equals(author._id)).name).toBe('Renamed Behind-The-Back');
  }
  expect((await db.collection('authors').findOne({ _id: counted!._id }))!.countOfBooks).toBe(counted!.countOfBooks);
  const repaired = (await db.collection('posts').findOne({ _id: post._id }))!;
  expect(repaired.recentComments).toEqual(newestFive.slice(0, 3));
});

describe('npm run reconcile', () => {
  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runReconcileCli([...argv, '--config', DEMO_CONFIG], {}, { out: { write: (text: string) => (out += text) }, err: { write: (text: string) => (err += text) } });
    return { code, out, err };
  };

  it('exits 3 on drift without --fix, repairs it with --fix, then exits 0 with "No drift."', async () => {
    const [, , author] = await db.collection('authors').find({}, { sort: { _id: 1 }, limit: 3 }).toArray();
    await db.collection('authors').updateOne({ _id: author!._id }, { $inc: { countOfBooks: -1 } });
    const args = ['--mongo-uri', mongo.uri, '--db', db.databaseName];

    const found = await run(args);
    expect(found.code).toBe(3);
    expect(found.err).toBe('');
    expect(found.out).toContain(`Author.countOfBooks`);
    expect(found.out).toMatch(new RegExp(`Author\\.countOfBooks +counter +\\d+ scanned +1 drifted  e\\.g\\. ${author!._id.toHexString()}`));
    expect(found.out).toContain('Drift in 1 document over 1 of 10 checks; run with --fix to repair.');

    const fixed = await run([...args, '--fix', '--batch-size', '50']);
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('fixed 1.');
    const clean = await run(args);
    expect(clean.code).toBe(0);
    expect(clean.out.trim().split('\n').pop()).toBe('No drift.');
  });

  it('fails in one line, exit 1, when the server is unreachable', async () => {
    const result = await run(['--mongo-uri', 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^reconcile: checking docjoin on mongodb:\/\/127\.0\.0\.1:1\/\?serverSelectionTimeoutMS=300 failed: .+\n$/);
  });
});
