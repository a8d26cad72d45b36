import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { MongoClient } from 'mongodb';
import { connectMongo, createDocjoin, STRATEGY_HEADER, type CostReport, type Docjoin, type GatewayContext } from 'docjoin';
import { startTestMongo, type TestMongo } from '../support/test-mongo';

/**
 * docjoin added to an Apollo Server a team already runs: its schema, plugins and formatError in the
 * team's `new ApolloServer`, its context from the team's context function, over Apollo's own HTTP server.
 */
const SDL = /* GraphQL */ `
  type Query { authors(first: Int = 20): [Author!]! @list book(id: ID!): Book @find }
  type Author @collection(name: "authors") { id: ID! name: String! }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
  }
`;

let mongo: TestMongo;
let client: MongoClient;
let docjoin: Docjoin;
let server: ApolloServer<GatewayContext>;
let url: string;
let bookId: string;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('mounted');
  const { insertedId: authorId } = await db.collection('authors').insertOne({ name: 'Ada' });
  const { insertedId } = await db.collection('books').insertOne({ title: 'Notes', authors: [{ id: authorId, name: 'Ada' }] });
  bookId = insertedId.toHexString();
  client = await connectMongo(mongo.uri);
  docjoin = await createDocjoin({ typeDefs: SDL, mongoClient: client, db });
  server = new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins: [...docjoin.plugins], formatError: docjoin.formatError });
  ({ url } = await startStandaloneServer(server, { listen: { port: 0 }, context: async ({ req }) => docjoin.createContext({ headers: req.headers }) }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  docjoin?.close();
  await client?.close();
  await mongo?.stop();
});

async function post(query: string, headers: Record<string, string> = {}): Promise<{ data: unknown; extensions: { cost: CostReport } }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return (await response.json()) as { data: unknown; extensions: { cost: CostReport } };
}

it('serves the schema with extensions.cost, and the strategy header switches a field', async () => {
  const query = `{ book(id: "${bookId}") { title authors { name } } }`;
  const snapshot = await post(query);
  expect(snapshot.data).toEqual({ book: { title: 'Notes', authors: [{ name: 'Ada' }] } });
  expect(snapshot.extensions.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  const joined = await post(query, { [STRATEGY_HEADER]: 'Book.authors=join' });
  expect(joined.data).toEqual(snapshot.data);
  expect(joined.extensions.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Book.authors': { strategy: 'join' } } });
});

it('answers GET /health through the Docjoin it was given', async () => {
  expect(await docjoin.health()).toMatchObject({ status: 200, body: { status: 'ok' } });
});
