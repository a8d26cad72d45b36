import { resolve } from 'node:path';
import type { Db, ObjectId } from 'mongodb';
import { rootResolvers, rootWritePlans } from '../../../resolvers';
import { seedDemoData } from '../../../seed/seed-database';
import { DEMO_CONFIG, DEMO_DIR } from '../../support/demo-project';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { adviseAndReplay, expectPredictedWrites, type AdviceReplay, type ReplayedOperation } from './support/advise-replay';

/**
 * Issue 38 on the demo, end to end: book reads that miss Book.authors' snapshot for countOfBooks while
 * new books move their authors' counts, and host renames that rewrite every LogMessage.host copy.
 * `docjoin advise`, then each change it gives applied with `docjoin migrate` to a fresh copy of the
 * data and the same workload replayed: predicted documents written and mutation round trips must be
 * within 10% of what the replay measures.
 */
const BOOK_QUERY = '{ books(first: 10) { name authors { name countOfBooks } } }';
const HOST_QUERY = '{ hosts(first: 2) { logs(first: 5) { message host { name } } } }';

async function demoWorkload(db: Db): Promise<ReplayedOperation[]> {
  const hex = (id: unknown) => (id as ObjectId).toHexString();
  const authors = await db.collection('authors').find({}, { projection: { _id: 1 } }).sort({ _id: 1 }).limit(6).toArray();
  const publisher = (await db.collection('publishers').findOne({}, { projection: { _id: 1 }, sort: { _id: 1 } }))!;
  const hosts = await db.collection('hosts').find({}, { projection: { _id: 1, ipaddr: 1 } }).sort({ _id: 1 }).limit(3).toArray();
  const operations: ReplayedOperation[] = [];
  for (let i = 0; i < 40; i++) operations.push({ query: BOOK_QUERY });
  for (let i = 0; i < 3; i++) operations.push({ query: HOST_QUERY });
  // Four new books by two authors each: every one moves two countOfBooks.
  for (let i = 0; i < 4; i++) {
    operations.push({
      query: 'mutation($input: PublishBookInput!) { publishBook(input: $input) { name } }',
      variables: { input: { name: `Replayed ${i}`, isbn: `978-0-00-00000${i}-0`, pages: 100 + i, publishedAt: '2026-11-01T00:00:00.000Z', publisherId: hex(publisher._id), authorIds: [hex(authors[i]!._id), hex(authors[i + 2]!._id)] } },
    });
  }
  // Two renames: their copies in books are rewritten today already.
  for (let i = 0; i < 2; i++) operations.push({ query: `mutation { renameAuthor(id: "${hex(authors[5]!._id)}", firstName: "Renamed", lastName: "Author ${i}") { name } }` });
  for (const [i, host] of hosts.entries()) {
    operations.push({ query: `mutation { updateHost(id: "${hex(host._id)}", name: "renamed-${i}.example.com", ipaddr: "${String(host.ipaddr)}") { name } }` });
  }
  return operations;
}

let mongo: TestMongo;
let replay: AdviceReplay;
beforeAll(async () => {
  mongo = await startTestMongo();
  replay = await adviseAndReplay(mongo, {
    schemaDir: resolve(DEMO_DIR, 'schema'),
    config: DEMO_CONFIG,
    resolvers: rootResolvers,
    writePlans: rootWritePlans,
    // Scale 0.1: 100 books, 10 hosts of 1,000 log messages each.
    seed: async (db) => void (await seedDemoData(db, { scale: 0.1 })),
    operations: demoWorkload,
  });
}, 300_000);
afterAll(async () => {
  await mongo?.stop();
});

const adviceFor = (coordinate: string) => replay.report.fields.find((field) => field.coordinate === coordinate)!;

it('advises copying countOfBooks, priced with the copies each new book moves', () => {
  const authors = adviceFor('Book.authors');
  expect(authors).toMatchObject({ kind: 'widen-snapshot', snapshotFields: ['id', 'name', 'thumbnailUrl', 'countOfBooks'] });
  // Each new book moves two counts, each now copied into the author's books: one updateMany of books more per book.
  expect(authors.evidence).toContain('mutations send +4 command(s) over the recorded workload (0 read(s), +4 write(s))');
  expect(authors.evidence.find((line) => line.startsWith('8 change(s) of Author countOfBooks: about '))).toBeDefined();
});

it('advises dropping the host copies: 1,000 rewritten per rename, for 3 reads', () => {
  const host = adviceFor('LogMessage.host');
  expect(host.kind).toBe('drop-snapshot');
  expect(host.evidence).toContain('mutations send −3 command(s) over the recorded workload (0 read(s), −3 write(s))');
});

it('predicts the documents written and the mutation round trips each migrated schema measures, within 10%', () => {
  expect(replay.replays.map((replayed) => replayed.advice.coordinate).sort()).toEqual(['Book.authors', 'LogMessage.host']);
  expectPredictedWrites(replay, 'demo');
});
