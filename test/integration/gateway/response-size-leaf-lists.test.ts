import { ApolloServer } from '@apollo/server';
import { ObjectId } from 'mongodb';
import type { Docjoin, GatewayContext } from 'docjoin';
import { createCheckedDocjoin } from '../../support/checked-gateway';
import { mongoForFile } from '../../support/test-mongo';

/**
 * Stored lists of leaves count toward the response-size guard (operation/limits/response-size-guard.ts)
 * in both executors: graphql-js through the stored field's resolver, docjoin's own executor as it reads
 * them. The resolver must read a list as graphql-js's default resolver would, and the count must stay
 * a lower bound: a list that will answer null counts nothing.
 */
const SDL = /* GraphQL */ `
  type Query {
    items(first: Int = 10): [Item!]! @list
    "Hand-written: objects that are no stored documents."
    made: [Item!]!
  }
  type Item @collection(name: "items") { id: ID! name: String! tags: [String!] }
`;
class MadeItem {
  readonly _id = new ObjectId();
  constructor(readonly name: string) {}
  get tags(): string[] {
    return ['from', 'a getter'];
  }
}
const made = () => [{ _id: new ObjectId(), name: 'method', tags: () => ['from', 'a method'] }, new MadeItem('getter')];

const file = mongoForFile();
const dbName = `leaf_lists_${new ObjectId().toHexString()}`;
const started: Array<{ docjoin: Docjoin; servers: Array<ApolloServer<GatewayContext>> }> = [];
beforeAll(async () => {
  // A list of 3,000 entries whose type forbids the null it holds: it answers null and one error.
  await file.client.db(dbName).collection('items').insertOne({ name: 'n', tags: [...Array.from({ length: 3000 }, () => 'x'), null] });
}, 60_000);
afterAll(async () => {
  for (const { docjoin, servers } of started) {
    for (const server of servers) await server.stop();
    docjoin.close();
  }
});

/** docjoin's own executor (hand-written roots included) and graphql-js, on one docjoin. */
async function start(maxResponseBytes?: number) {
  const docjoin = await createCheckedDocjoin({ typeDefs: SDL, resolvers: { Query: { made } }, mongoClient: file.client, db: dbName, validateDatabase: false, costReport: false, ...(maxResponseBytes !== undefined && { maxResponseBytes }) });
  const make = (plugins: ApolloServer<GatewayContext>['internals']['plugins']) => new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins, formatError: docjoin.formatError });
  const servers = [make([...docjoin.plugins, docjoin.compiledExecution({ mutationsAndHandWrittenRoots: true })]), make([...docjoin.plugins])];
  for (const server of servers) await server.start();
  started.push({ docjoin, servers });
  const answers = async (query: string) => {
    const answered = [];
    for (const server of servers) {
      const response = await server.executeOperation({ query }, { contextValue: docjoin.createContext() });
      const { data, errors } = response.body.kind === 'single' ? response.body.singleResult : {};
      answered.push({ data: JSON.parse(JSON.stringify(data ?? null)) as unknown, errors: errors?.map((error) => [error.extensions?.code, error.message]) });
    }
    return answered;
  };
  return { answers };
}

it('reads the list of a hand-written object as graphql-js does, a method and a getter included, whichever executor runs it', async () => {
  const { answers } = await start();
  const expected = { data: { made: [{ name: 'method', tags: ['from', 'a method'] }, { name: 'getter', tags: ['from', 'a getter'] }] }, errors: undefined };
  expect(await answers('{ made { name tags } }')).toEqual([expected, expected]);
});

it('counts nothing of a list that answers null for the null its type forbids: a limit five times its answer lets it through', async () => {
  const query = '{ items { a: tags b: tags c: tags } }';
  const [unlimited] = await (await start()).answers(query);
  expect(unlimited!.data).toEqual({ items: [{ a: null, b: null, c: null }] });
  const limited = await start(5 * Buffer.byteLength(JSON.stringify(unlimited)));
  expect(await limited.answers(query)).toEqual([unlimited, unlimited]);
});
