import type { MongoClient } from 'mongodb';
import { connectMongo, createGateway, type Gateway } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/**
 * graphql-js coerces a variable of a recursive input type by recursion: one nested some thousands of
 * levels deep (a 30 KB body) ran its stack out, a 500 INTERNAL_SERVER_ERROR. Variables nesting past 500
 * levels are refused before Apollo sees them, over POST, GET and execute() alike, as a document nesting
 * that deep is, and the server goes on serving.
 */
const SDL = /* GraphQL */ `
  input Deep { child: Deep n: Int }
  type Query { books(first: Int = 20): [Book!]! @list  depth(d: Deep): Int }
  type Book @collection(name: "books") { id: ID! name: String! }
`;
const depthOf = (value: { child?: unknown } | null | undefined): number => {
  let depth = 0;
  for (let node = value; node; node = node.child as typeof value) depth++;
  return depth;
};

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('deep_variables');
  await db.collection('books').insertOne({ name: 'B1' });
  client = await connectMongo(mongo.uri);
  gateway = await createGateway({
    typeDefs: SDL,
    resolvers: { Query: { depth: (_parent: unknown, args: { d?: { child?: unknown } }) => depthOf(args.d) } },
    mongoClient: client,
    db: db.databaseName,
    port: 0,
    host: '127.0.0.1',
    production: true,
    onWarning: () => undefined,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const deep = (levels: number): string => '{"child":'.repeat(levels - 1) + '{"n":1}' + '}'.repeat(levels - 1);
const QUERY = 'query($d: Deep) { depth(d: $d) }';
const REFUSED = { status: 400, errors: [{ message: 'The variables nest more than 500 levels deep (lists and input objects); docjoin accepts at most 500', extensions: { code: 'BAD_USER_INPUT', maxNesting: 500 } }] };

async function answer(response: Response): Promise<{ status: number; data?: unknown; errors?: unknown }> {
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  return { status: response.status, ...body };
}
const post = async (body: string) => answer(await fetch(`http://127.0.0.1:${gateway.port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
const get = async (variables: string) =>
  answer(await fetch(`http://127.0.0.1:${gateway.port}/graphql?${new URLSearchParams({ query: QUERY, variables })}`, { headers: { 'apollo-require-preflight': 'true' } }));

it('refuses variables nested past 500 levels with 400 BAD_USER_INPUT over POST, and serves on', async () => {
  expect(await post(`{"query":${JSON.stringify(QUERY)},"variables":{"d":${deep(60_000)}}}`)).toEqual(REFUSED);
  // The variables object is the first level: d's 499 levels make 500.
  expect(await post(`{"query":${JSON.stringify(QUERY)},"variables":{"d":${deep(499)}}}`)).toMatchObject({ status: 200, data: { depth: 499 } });
  expect(await post(`{"query":${JSON.stringify(QUERY)},"variables":{"d":${deep(500)}}}`)).toEqual(REFUSED);
  expect(await post('{"query":"{ books { name } }"}')).toMatchObject({ status: 200, data: { books: [{ name: 'B1' }] } });
});

it('refuses them in a GET\'s variables parameter and through execute()', async () => {
  expect(await get(`{"d":${deep(600)}}`)).toEqual(REFUSED);
  expect(await get(`{"d":${deep(3)}}`)).toMatchObject({ status: 200, data: { depth: 3 } });
  const executed = await gateway.execute({ query: QUERY, variables: { d: JSON.parse(deep(5_000)) as unknown } });
  expect(executed).toMatchObject({ data: undefined, errors: [{ extensions: { code: 'BAD_USER_INPUT', maxNesting: 500 } }] });
});
