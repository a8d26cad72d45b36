import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId, type Db } from 'mongodb';
import { connectMongo } from 'docjoin';
import type { AdviceReport, FieldAdvice } from '../../../src/advise/recommend/advice-types';
import { runAdviseCli } from '../../../src/advise/cli';
import { createCheckedGateway } from '../../support/checked-gateway';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { captureIo } from '../../unit/cli/capture-io';

/**
 * A gateway refuses a copy, a counter or a total derived from a MongoDB view (validate-against-database.ts
 * derivedFromViews), and nothing can write one kept in a view's rows (derivedIntoViews): advise, which
 * checks each change by the schema it leaves, gives neither, though the same reads over collections earn them.
 */
const SDL = (publishers: string, books: string) => /* GraphQL */ `
  type Query { books: [Book!]! @list authors: [Author!]! @list }
  type Book @collection(name: "${books}") { id: ID! title: String! pages: Int! publisher: Publisher @join(localField: "publisherId") }
  type Publisher @collection(name: "${publishers}") { id: ID! name: String! }
  type Author @collection(name: "authors") {
    id: ID!
    books: [Book!]! @join(localField: "_id", foreignField: "authorId")
    booksAggregate: BookAggregate! @aggregate(of: "books", fields: ["pages"])
  }
`;
const READS = [...Array.from({ length: 20 }, () => '{ books { title publisher { name } } }'), ...Array.from({ length: 20 }, () => '{ authors { booksAggregate { count } } }')];

async function seed(db: Db): Promise<void> {
  const [publisher, author] = [new ObjectId(), new ObjectId()];
  await db.collection('publishers').insertOne({ _id: publisher, name: 'P', active: true });
  await db.collection('authors').insertOne({ _id: author });
  await db.collection('books').insertMany(Array.from({ length: 4 }, (_, i) => ({ title: `b${i}`, pages: 100 + i, publisherId: publisher, authorId: author, active: true })));
  await db.collection('books').createIndex({ authorId: 1 });
  await db.createCollection('activePublishers', { viewOn: 'publishers', pipeline: [{ $match: { active: true } }] });
  await db.createCollection('activeBooks', { viewOn: 'books', pipeline: [{ $match: { active: true } }] });
}

let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
}, 60_000);
afterAll(() => mongo?.stop());

/** Records READS through a gateway over `sdl`, then advises on them: the advice per relation field. */
async function adviceOver(sdl: string): Promise<ReadonlyMap<string, FieldAdvice>> {
  const db = mongo.freshDb('advise_views');
  await seed(db);
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-advise-views-'));
  writeFileSync(join(folder, 'schema.graphql'), sdl);
  writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
  const workload = join(folder, 'workload.jsonl');
  const client = await connectMongo(mongo.uri);
  try {
    const gateway = await createCheckedGateway({ typeDefs: sdl, mongoClient: client, db: db.databaseName, listen: false, workload: { file: workload }, onWarning: () => undefined });
    for (const query of READS) expect((await gateway.execute({ query })).errors).toBeUndefined();
    await gateway.stop();
  } finally {
    await client.close();
  }
  const { io, err } = captureIo();
  const json = join(folder, 'advice.json');
  expect(await runAdviseCli(['--workload', workload, '--mongo-uri', mongo.uri, '--db', db.databaseName, '--config', join(folder, 'docjoin.config.json'), '--json', json, '--assumed-costs', '--latency-ms', '0'], {}, io)).toBe(0);
  expect(err()).toBe('');
  const { advice } = JSON.parse(readFileSync(json, 'utf8')) as { advice: AdviceReport };
  return new Map(advice.fields.map((field) => [field.coordinate, field]));
}

it('gives a snapshot and a counter over collections, and neither over views, saying why', async () => {
  const collections = await adviceOver(SDL('publishers', 'books'));
  expect([collections.get('Book.publisher')?.kind, collections.get('Author.books')?.kind]).toEqual(['add-snapshot', 'add-counter']);

  const views = await adviceOver(SDL('activePublishers', 'activeBooks'));
  const [publisher, books] = [views.get('Book.publisher')!, views.get('Author.books')!];
  expect([publisher.kind, books.kind]).toEqual(['keep', 'keep']);
  expect(publisher.rejected).toMatchObject({ kind: 'add-snapshot', because: expect.stringContaining('Book.publisher: its snapshot is derived from activePublishers, a MongoDB view on publishers') });
  expect(books.rejected).toMatchObject({ kind: 'add-counter', because: expect.stringContaining('Author.booksCount: its counter is derived from activeBooks, a MongoDB view on books') });

  // A copy kept in a view's rows: the backfill and the writes keeping it would write the view.
  const heldInView = (await adviceOver(SDL('publishers', 'activeBooks'))).get('Book.publisher')!;
  expect(heldInView.kind).toBe('keep');
  expect(heldInView.rejected).toMatchObject({ kind: 'add-snapshot', because: expect.stringContaining('Book.publisher: its snapshot would be kept in activeBooks, a MongoDB view on books, which MongoDB cannot write') });
}, 120_000);
