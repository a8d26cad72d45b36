import { ObjectId, type MongoClient } from 'mongodb';
import { connectMongo, directiveTypeDefs, type Gateway } from 'docjoin';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import type { CostReport } from '../../../src/gateway/request/cost/cost-ledger';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Issue 15: identical operations on identical data report identical `extensions.cost`. Two root fields
 * reading one collection (and their joins into a shared one) answer in whichever order the network
 * delivers their replies; the cost must not depend on it. Each operation runs 400 times, 20 at once,
 * against a server that delays every reply by 1 ms (so the replies of two root fields sometimes arrive
 * in one turn of the event loop, sometimes in two, sometimes swapped), and every report must be the
 * same, down to the order of its keys, except `durationMs`.
 */
const SDL = /* GraphQL */ `
  type Query { books(first: Int = 100): [Book!]! @list authors(first: Int = 100): [Author!]! @list }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    year: Int!
    author: Author @join(localField: "authorId")
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    born: Int!
    favourite: Book @join(localField: "favouriteId")
    books(first: Int = 2): [Book!]! @join(localField: "_id", foreignField: "authorId", sort: "title")
    "The newest two, kept in the author: a filter needs them all, so it goes to the join."
    recentBooks(minYear: Int @filter(field: "year", op: GTE)): [Book!]!
      @embedded @join(collection: "books", localField: "_id", foreignField: "authorId", sort: "-year", limit: 2) @read(strategy: EMBEDDED)
  }
`;

const authorIds = [1, 2, 3, 4].map((i) => new ObjectId(`65a00000000000000000000${i}`));
const books = [0, 1, 2, 3, 4, 5].map((i) => ({ _id: new ObjectId(`65b00000000000000000000${i + 1}`), title: `Book ${i}`, year: 2000 + i, authorId: authorIds[i % 4]! }));
const authors = authorIds.map((_id, i) => ({
  _id,
  name: `Author ${i}`,
  born: 1950 + i,
  favouriteId: books[(i + 1) % books.length]!._id,
  recentBooks: books.filter((book) => book.authorId.equals(_id)).reverse(),
}));

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
beforeAll(async () => {
  mongo = await startTestMongo({ latencyMs: 1 });
  const db = mongo.freshDb('cost_determinism');
  await db.collection('books').insertMany(books);
  await db.collection('authors').insertMany(authors);
  await db.collection('books').createIndex({ authorId: 1, title: 1, _id: 1 });
  await db.collection('books').createIndex({ authorId: 1, year: -1, _id: -1 });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({
    db: client.db(db.databaseName),
    mongoClient: client,
    mongoKind: 'embedded',
    ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
    typeDefs: [directiveTypeDefs, SDL],
    listen: false,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

type Expected = Pick<CostReport, 'roundTrips' | 'documents' | 'fields' | 'collections'>;

/** The report without the one measure that is time, as text: key order counts too. */
function comparable(cost: CostReport): string {
  const { durationMs: _durationMs, ...rest } = cost;
  return JSON.stringify(rest);
}

/** Runs `query` `runs` times, `concurrency` at once, and returns each distinct report with how often it came. */
async function reportsOf(query: string, runs: number, concurrency: number): Promise<Map<string, number>> {
  const reports = new Map<string, number>();
  for (let done = 0; done < runs; done += concurrency) {
    const results = await Promise.all(Array.from({ length: concurrency }, () => gateway.execute({ query })));
    for (const { errors, cost } of results) {
      expect(errors).toBeUndefined();
      const report = comparable(cost!);
      reports.set(report, (reports.get(report) ?? 0) + 1);
    }
  }
  return reports;
}

const cases: ReadonlyArray<[string, string, Expected]> = [
  [
    // Reused before when b's books replied first: a's authors then came from b's wider find (3, 16).
    'two root fields join one collection with different selections: each level reads its own',
    '{ a: books { title author { name } } b: books { year author { name born } } }',
    {
      roundTrips: 4,
      documents: 6 + 6 + 4 + 4,
      fields: { 'Book.author': { strategy: 'join', roundTrips: 2, documents: 8, keys: 12 } },
      collections: { authors: { roundTrips: 2, documents: 8 }, books: { roundTrips: 2, documents: 12 } },
    },
  ],
  [
    'two root fields join one collection, one set of keys inside the other',
    '{ a: books(first: 2) { author { name } } b: books { author { name } } }',
    {
      roundTrips: 4,
      documents: 2 + 6 + 2 + 4,
      fields: { 'Book.author': { strategy: 'join', roundTrips: 2, documents: 6, keys: 8 } },
      collections: { authors: { roundTrips: 2, documents: 6 }, books: { roundTrips: 2, documents: 8 } },
    },
  ],
  [
    // Reused before when a's list replied first (2 round trips), read when b's did (3).
    "a sibling root field's list does not answer a join, whichever replied first",
    '{ a: authors { name born } b: books { author { name } } }',
    {
      roundTrips: 3,
      documents: 4 + 6 + 4,
      fields: { 'Book.author': { strategy: 'join', roundTrips: 1, documents: 4, keys: 6 } },
      collections: { authors: { roundTrips: 2, documents: 8 }, books: { roundTrips: 1, documents: 6 } },
    },
  ],
  [
    // Merged into one aggregate before when both lists' replies arrived in one turn of the event loop.
    "two root fields' bounded reverse joins on one collection: one aggregate each",
    '{ a: authors { books(first: 1) { title } } b: authors { books(first: 2) { title } } }',
    {
      roundTrips: 4,
      documents: 4 + 4 + 4 + 6,
      fields: { 'Author.books': { strategy: 'join', roundTrips: 2, documents: 10, keys: 8 } },
      collections: { authors: { roundTrips: 2, documents: 8 }, books: { roundTrips: 2, documents: 10 } },
    },
  ],
  [
    // The entry named whichever alias resolved first before: embedded or join.
    'aliases that resolve one field with two strategies report the one that reads',
    '{ a: authors { recentBooks { title } } b: authors { recentBooks(minYear: 2002) { title } } }',
    {
      roundTrips: 3,
      documents: 4 + 4 + 4,
      fields: { 'Author.recentBooks': { strategy: 'join', roundTrips: 1, documents: 4, keys: 4 } },
      collections: { authors: { roundTrips: 2, documents: 8 }, books: { roundTrips: 1, documents: 4 } },
    },
  ],
  [
    // What a field above read still answers the joins below it: every favourite's author is a listed author.
    'a join below the root list that read its documents costs nothing',
    '{ authors { name favourite { title author { name } } } }',
    {
      roundTrips: 2,
      documents: 4 + 4,
      fields: {
        'Author.favourite': { strategy: 'join', roundTrips: 1, documents: 4, keys: 4 },
        'Book.author': { strategy: 'join', roundTrips: 0, documents: 0, keys: 4 },
      },
      collections: { authors: { roundTrips: 1, documents: 4 }, books: { roundTrips: 1, documents: 4 } },
    },
  ],
];

describe('identical operations report identical costs', () => {
  it.each(cases)('%s', async (_title, query, expected) => {
    const { errors, cost } = await gateway.execute({ query });
    expect(errors).toBeUndefined();
    expect(cost).toMatchObject(expected);
    expect(cost!.fields).toEqual(expected.fields);
    expect(cost!.collections).toEqual(expected.collections);
    expect(cost!.roundTrips).toBeLessThanOrEqual(cost!.estimatedRoundTrips);

    const reports = await reportsOf(query, 400, 20);
    expect([...reports.keys()]).toEqual([comparable(cost!)]);
  }, 120_000);
});
