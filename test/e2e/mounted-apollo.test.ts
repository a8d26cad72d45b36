import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { MongoClient } from 'mongodb';
import { connectMongo, STRATEGY_HEADER, type CostReport, type Docjoin, type GatewayContext } from 'docjoin';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedDocjoin } from '../support/checked-gateway';

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
  docjoin = await createCheckedDocjoin({ typeDefs: SDL, mongoClient: client, db });
  server = new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins: [...docjoin.plugins], formatError: docjoin.formatError });
  ({ url } = await startStandaloneServer(server, { listen: { port: 0 }, context: async ({ req }) => docjoin.createContext({ headers: req.headers }) }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  docjoin?.close();
  await client?.close();
  await mongo?.stop();
});

async function post(query: string, headers: Record<string, string> = {}, at = url): Promise<{ data: unknown; extensions: { cost: CostReport } }> {
  const response = await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
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

it('runs the same operations compiled with the plugin docjoin.compiledExecution()', async () => {
  const compiled = new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins: [...docjoin.plugins, docjoin.compiledExecution()], formatError: docjoin.formatError });
  const { url: compiledUrl } = await startStandaloneServer(compiled, { listen: { port: 0 }, context: async ({ req }) => docjoin.createContext({ headers: req.headers }) });
  try {
    const query = `{ book(id: "${bookId}") { title authors { name } } }`;
    const headerSets: Array<Record<string, string>> = [{}, { [STRATEGY_HEADER]: 'Book.authors=join' }];
    for (const headers of headerSets) {
      const [interpreted, fromCompiled] = await Promise.all([post(query, headers), post(query, headers, compiledUrl)]);
      expect(fromCompiled.data).toEqual(interpreted.data);
      expect(fromCompiled.extensions.cost).toMatchObject({ roundTrips: interpreted.extensions.cost.roundTrips, estimatedRoundTrips: interpreted.extensions.cost.estimatedRoundTrips });
    }
    // A resolver's error: the same message, path, locations and code from both executors.
    const errorsFrom = async (at: string) => {
      const response = await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{\n  book(id: "nope") { title }\n}' }) });
      return ((await response.json()) as { errors: Array<{ path: unknown; extensions: { code: string } }> }).errors;
    };
    const [interpretedErrors, compiledErrors] = await Promise.all([errorsFrom(url), errorsFrom(compiledUrl)]);
    expect(compiledErrors.map((error) => [error.path, error.extensions.code])).toEqual([[['book'], 'BAD_USER_INPUT']]);
    expect(compiledErrors).toEqual(interpretedErrors);
  } finally {
    await compiled.stop();
  }
});
