import type { MongoClient } from 'mongodb';
import type { GraphQLResolveInfo } from 'graphql';
import { connectMongo, createGateway, type Gateway, type GatewayContext } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from 'docjoin/embedded-mongo';

/**
 * An operation that costs more than its static estimate says so: `extensions.cost.estimateExceeded`
 * names the measures, /metrics counts them. Here a hand-written root resolver reads its collection
 * twice where the estimate counts one find (the self-check that fails the test suite on such
 * operations is off: this gateway is what a user runs).
 */
const SDL = /* GraphQL */ `
  type Query { twice(first: Int = 20): [Item!]! items(first: Int = 20): [Item!]! @list }
  type Item @collection(name: "items") { id: ID! name: String! }
`;

const resolvers = {
  Query: {
    async twice(_parent: unknown, args: { first: number }, context: GatewayContext, info: GraphQLResolveInfo) {
      await context.documents.findMany(info, 'Item', { first: args.first });
      return context.documents.findMany(info, 'Item', { first: args.first });
    },
  },
};

let mongo: EmbeddedMongo;
let client: MongoClient;
let gateway: Gateway;

beforeAll(async () => {
  mongo = await startEmbeddedMongo();
  client = await connectMongo(mongo.uri);
  await client.db('exceeded').collection('items').insertMany([{ name: 'a' }, { name: 'b' }]);
  gateway = await createGateway({ typeDefs: SDL, resolvers, mongoClient: client, db: 'exceeded', port: 0 });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const post = async (query: string) => {
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await response.json()) as { data?: unknown; errors?: unknown[]; extensions: { cost: { roundTrips: number; estimatedRoundTrips: number; documents: number; estimatedDocuments: number; estimateExceeded?: string[] } } };
};
const counted = async (measure: string) => {
  const text = await (await fetch(gateway.url!.replace('/graphql', '/metrics'))).text();
  const series = `docjoin_estimate_exceeded_total{measure="${measure}"}`;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

it('names the measures over the estimate in extensions.cost and counts them in /metrics, answering the data as usual', async () => {
  const before = { roundTrips: await counted('roundTrips'), documents: await counted('documents') };
  const over = await post('{ twice(first: 1) { name } }');
  expect(over.data).toEqual({ twice: [{ name: 'a' }] });
  expect(over.errors).toBeUndefined();
  expect(over.extensions.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 1, documents: 2, estimatedDocuments: 1, estimateExceeded: ['roundTrips', 'documents'] });
  expect({ roundTrips: (await counted('roundTrips')) - before.roundTrips, documents: (await counted('documents')) - before.documents }).toEqual({ roundTrips: 1, documents: 1 });
});

it('says nothing when the operation stays within its estimate', async () => {
  const within = await post('{ items(first: 2) { name } }');
  expect(within.extensions.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  expect(within.extensions.cost).not.toHaveProperty('estimateExceeded');
});
