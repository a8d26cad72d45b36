import { ApolloServer } from '@apollo/server';
import { getOperationAST, parse, type GraphQLFormattedError } from 'graphql';
import { ObjectId } from 'mongodb';
import { connectMongo, directiveTypeDefs, type Docjoin, type GatewayContext, type MongoClient } from 'docjoin';
import { buildOperationPlan } from '../../../src/gateway/operation/plan/operation-plan';
import { coerceVariables } from '../../../src/gateway/operation/plan/operation-planner';
import { buildGatewaySchema } from '../../../src/gateway/startup/schema/build-gateway-schema';
import { demoProjectOptions } from '../../support/demo-project';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedDocjoin } from '../../support/checked-gateway';

/**
 * A query docjoin owns end to end runs straight from its plan (execution/owned-execution.ts). It must
 * answer exactly as graphql-js does with the same resolvers: the same `data`, the same errors (message,
 * path, locations, code) and the same `extensions.cost`, round trips included.
 */
interface Executors {
  readonly docjoin: Docjoin;
  readonly servers: Readonly<Record<'owned' | 'interpreted', ApolloServer<GatewayContext>>>;
}

async function startExecutors(docjoin: Docjoin): Promise<Executors> {
  const make = (plugins: ApolloServer<GatewayContext>['internals']['plugins']) => new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins, formatError: docjoin.formatError });
  const servers = {
    owned: make([...docjoin.plugins, docjoin.compiledExecution({ mutationsAndHandWrittenRoots: true })]),
    interpreted: make([...docjoin.plugins]),
  };
  for (const server of Object.values(servers)) await server.start();
  return { docjoin, servers };
}

async function stopExecutors(executors: Executors | undefined): Promise<void> {
  if (!executors) return;
  for (const server of Object.values(executors.servers)) await server.stop();
  executors.docjoin.close();
}

interface Answer {
  readonly data: unknown;
  readonly errors: Array<{ message: string; path: unknown; locations: unknown; code: unknown }> | undefined;
  readonly cost: unknown;
}

async function answer(executors: Executors, server: keyof Executors['servers'], query: string, variables?: Record<string, unknown>, strategyHeader?: string): Promise<Answer> {
  const response = await executors.servers[server].executeOperation(
    { query, ...(variables && { variables }) },
    { contextValue: executors.docjoin.createContext(strategyHeader === undefined ? {} : { strategyHeader }) },
  );
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  const { data, errors, extensions } = response.body.singleResult;
  const { durationMs: _durationMs, ...cost } = (extensions?.cost ?? {}) as Record<string, unknown>;
  return {
    data: JSON.parse(JSON.stringify(data ?? null)) as unknown,
    errors: errors
      ?.map((error: GraphQLFormattedError) => ({ message: error.message, path: error.path, locations: error.locations, code: error.extensions?.code }))
      .sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path))),
    cost,
  };
}

async function expectSameAnswers(executors: Executors, query: string, variables?: Record<string, unknown>, strategyHeader?: string): Promise<Answer> {
  const owned = await answer(executors, 'owned', query, variables, strategyHeader);
  const interpreted = await answer(executors, 'interpreted', query, variables, strategyHeader);
  expect({ data: owned.data, errors: owned.errors }).toEqual({ data: interpreted.data, errors: interpreted.errors });
  // toEqual does not see the order of keys; the response text does.
  expect(JSON.stringify(owned.data)).toBe(JSON.stringify(interpreted.data));
  // graphql-js stops resolving an object's other fields once a non-null one has failed; docjoin
  // resolves them all, so only then does the cost differ.
  if (!owned.errors) expect(owned.cost).toEqual(interpreted.cost);
  return owned;
}

describe('on the demo data', () => {
  let demo: DemoGateway;
  let executors: Executors;
  const { typeDefs, resolvers } = demoProjectOptions();
  const built = buildGatewaySchema({ typeDefs, resolvers });
  // Planned, as the plugin plans it, with the variables coerced (defaults in).
  const isOwned = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = getOperationAST(document);
    if (!operation) return false;
    const coerced = coerceVariables(built.schema, operation, variables);
    return coerced !== undefined && buildOperationPlan(built.schema, document, operation, coerced, built.ownership).owned !== undefined;
  };

  beforeAll(async () => {
    demo = await startDemoGateway();
    executors = await startExecutors(await createCheckedDocjoin({ ...demoProjectOptions(), db: demo.dbName, mongoClient: demo.client, mongoKind: demo.mongo.isEmbedded ? 'embedded' : 'external' }));
  }, 120_000);
  afterAll(async () => {
    await stopExecutors(executors);
    await demo?.stop();
  });

  const OWNED = [
    '{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }',
    '{ people(first: 100) { firstName holdings { numberHeld stock { symbol open } } tasks { description owner { lastName } } } }',
    '{ hosts(first: 20) { name logs(first: 5) { message time } } }',
    '{ posts(first: 10) { title recentComments { author comment } } }',
    '{ authors(first: 50) { name books { name publisher { name books(first: 3) { name } } } } }',
    '{ people(first: 5) { id lastName addresses { city state } tasks(done: false, orderBy: DUE) { id due done owner { id firstName } } } }',
    '{ posts(first: 4) { id createdAt commentCount comments(first: 2) { id author createdAt } } }',
    '{ hosts(first: 3) { name recentLogs { id message host { name ipaddr } } logs(first: 2) { id } } }',
    '{ first: books(first: 3) { ...Shelf } second: books(first: 2) { __typename name p: publisher { name } q: publisher { id books(first: 1) { name } } } } fragment Shelf on Book { id name publisher { id name books(first: 2) { id } } authors { id name } }',
    '{ __typename products(first: 5) { catalogNumber name parts { id name } } }',
  ];

  it.each(OWNED)('owns %s and answers it as graphql-js does', async (query) => {
    expect(isOwned(query)).toBe(true);
    const owned = await expectSameAnswers(executors, query);
    expect(owned.errors).toBeUndefined();
    expect(JSON.stringify(owned.data).length).toBeGreaterThan(100);
  });

  it('reads variables, a later page and a single document', async () => {
    const query = 'query Page($n: Int!, $after: ID) { posts(first: $n, after: $after) { id title comments(first: $n) { id } } }';
    expect(isOwned(query, { n: 2 })).toBe(true);
    const firstPage = (await expectSameAnswers(executors, query, { n: 2 })).data as { posts: Array<{ id: string }> };
    const secondPage = (await expectSameAnswers(executors, query, { n: 2, after: firstPage.posts[1]!.id })).data as { posts: Array<{ id: string }> };
    expect(secondPage.posts.map((post) => post.id)).not.toContain(firstPage.posts[0]!.id);
    const single = 'query One($id: ID!) { author(id: $id) { id name books { name } } }';
    expect(isOwned(single, { id: new ObjectId().toHexString() })).toBe(true);
    const { authors } = (await expectSameAnswers(executors, '{ authors(first: 1) { id } }')).data as { authors: Array<{ id: string }> };
    expect(((await expectSameAnswers(executors, single, { id: authors[0]!.id })).data as { author: { id: string } }).author.id).toBe(authors[0]!.id);
    expect((await expectSameAnswers(executors, single, { id: new ObjectId().toHexString() })).data).toEqual({ author: null });
  });

  it.each([
    ['{ books(first: 30) { id name authors { id name thumbnailUrl } } }', 'Book.authors=join'],
    ['{ posts(first: 10) { title recentComments { id author comment createdAt } } }', 'Post.recentComments=join'],
    ['{ hosts(first: 10) { name recentLogs { id time message host { name } } } }', 'Host.recentLogs=join,LogMessage.host=join'],
  ])('runs %s under the strategies of %s at the same cost', async (query, header) => {
    const owned = await expectSameAnswers(executors, query, undefined, header);
    expect(owned.errors).toBeUndefined();
    expect((owned.cost as { roundTrips: number }).roundTrips).toBe(2);
  });

  it.each([
    ['an abstract type', '{ people(first: 2) { contactDetails { __typename ... on EmailContact { email } } } }'],
    ['a connection', '{ posts(first: 2) { commentsConnection(first: 2) { edges { node { id } } } } }'],
    ['introspection', '{ __schema { queryType { name } } }'],
    ['@skip whose variable is null', 'query ($x: Boolean) { books(first: 2) { name @skip(if: $x) } }'],
  ])('leaves an operation with %s to graphql-js', (_what, query) => {
    expect(isOwned(query, { x: null })).toBe(false);
  });

  it('answers an operation it does not own as graphql-js does', async () => {
    const query = '{ people(first: 3) { firstName contactDetails { __typename ... on EmailContact { email } } } }';
    expect(isOwned(query)).toBe(false);
    const owned = await expectSameAnswers(executors, query);
    expect(owned.errors).toBeUndefined();
  });

  it('owns a hand-written root field and answers it as graphql-js does', async () => {
    const query = '{ tasks(first: 3) { description owner { firstName } } }';
    expect(isOwned(query)).toBe(true);
    const owned = await expectSameAnswers(executors, query);
    expect(owned.errors).toBeUndefined();
  });

  // Each of these once answered otherwise than graphql-js (graphql-jit 0.8.9 did): the field order, a
  // field leaking from a skipped occurrence, a parent nulled by that leak, a fragment spread twice.
  it.each([
    ['{ books(first: 1) { id @skip(if: true) name id } }', {}],
    ['{ posts(first: 1) { a2: recentComments { comment } a2: recentComments @include(if: false) { ... { id } } } }', {}],
    ['{ books(first: 1) { ...F @skip(if: true) ...F } } fragment F on Book { name }', {}],
    ['query ($x: Boolean!, $y: Boolean = false) { books(first: 2) { name @include(if: $x) publisher @skip(if: $y) { name } ... @include(if: $y) { id } } }', { x: true }],
    ['query ($x: Boolean!, $y: Boolean = false) { books(first: 2) { name @include(if: $x) publisher @skip(if: $y) { name } ... @include(if: $y) { id } } }', { x: false, y: true }],
  ])('owns %s with %j and answers it as graphql-js does', async (query, variables) => {
    expect(isOwned(query, variables)).toBe(true);
    const owned = await expectSameAnswers(executors, query, variables);
    expect(owned.errors).toBeUndefined();
  });

  describe('mutations, one root field after the other', () => {
    const firstAuthor = async () => ((await expectSameAnswers(executors, '{ authors(first: 1) { id } }')).data as { authors: Array<{ id: string }> }).authors[0]!.id;
    const nameOf = async (id: string) => ((await answer(executors, 'interpreted', 'query ($id: ID!) { author(id: $id) { firstName } }', { id })).data as { author: { firstName: string } }).author.firstName;

    it('owns them, runs each field with its read back before the next starts, at the cost graphql-js has', async () => {
      const id = await firstAuthor();
      const query = `mutation ($id: ID!) {
        a: renameAuthor(id: $id, firstName: "Ann", lastName: "Able") { firstName books { name publisher { name } } }
        b: renameAuthor(id: $id, firstName: "Bea", lastName: "Best") { __typename firstName }
      }`;
      expect(isOwned(query, { id })).toBe(true);
      const owned = await expectSameAnswers(executors, query, { id });
      expect(owned.errors).toBeUndefined();
      // a's read back ran before b's write: it sees its own name.
      expect(owned.data).toMatchObject({ a: { firstName: 'Ann' }, b: { __typename: 'Author', firstName: 'Bea' } });
      expect(await nameOf(id)).toBe('Bea');
    });

    it('a field whose non-null answer fails ends the operation with data null, and the fields after it do not run', async () => {
      const id = await firstAuthor();
      await answer(executors, 'owned', 'mutation ($id: ID!) { renameAuthor(id: $id, firstName: "Dee", lastName: "Dunn") { id } }', { id });
      const query = `mutation ($id: ID!) {
        a: renameAuthor(id: "000000000000000000000000", firstName: "Nobody", lastName: "None") { firstName }
        b: renameAuthor(id: $id, firstName: "Eve", lastName: "Ebb") { firstName }
      }`;
      expect(isOwned(query, { id })).toBe(true);
      const owned = await expectSameAnswers(executors, query, { id });
      expect(owned.data).toBeNull();
      expect(owned.errors?.map((error) => [error.path, error.code])).toEqual([[['a'], 'NOT_FOUND']]);
      expect(await nameOf(id)).toBe('Dee');
    });

    it('runs a hand-written mutation resolver whose answer is the inserted document', async () => {
      const { posts } = (await expectSameAnswers(executors, '{ posts(first: 1) { id } }')).data as { posts: Array<{ id: string }> };
      const query = 'mutation ($postId: ID!) { addComment(postId: $postId, author: "Tess", comment: "Same answer") { author comment post { title } } }';
      expect(isOwned(query, { postId: posts[0]!.id })).toBe(true);
      const owned = await expectSameAnswers(executors, query, { postId: posts[0]!.id });
      expect(owned.errors).toBeUndefined();
      expect(owned.data).toMatchObject({ addComment: { author: 'Tess', comment: 'Same answer' } });
    });
  });

  // By now the interpreted server's default cache control has had Apollo wrap every resolver of the
  // schema in place: docjoin still knows its own, so it still owns what it owned.
  it('in an Apollo of yours, runs mutations and hand-written root fields on graphql-js unless asked (their execution hooks run)', async () => {
    const { docjoin } = executors;
    let executions = 0;
    const counting = { async requestDidStart() { return { async executionDidStart() { executions += 1; } }; } };
    const run = async (plugin: ReturnType<Docjoin['compiledExecution']>, query: string) => {
      const server = new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins: [...docjoin.plugins, counting, plugin], formatError: docjoin.formatError });
      await server.start();
      executions = 0;
      const response = await server.executeOperation({ query }, { contextValue: docjoin.createContext() });
      await server.stop();
      expect(response.body.kind === 'single' && response.body.singleResult.errors).toBeFalsy();
      return executions;
    };
    const generated = '{ books(first: 2) { name } }';
    const handWritten = '{ tasks(first: 2) { description } }';
    const mutation = 'mutation { __typename }';
    expect(await run(docjoin.compiledExecution(), generated)).toBe(0);
    expect(await run(docjoin.compiledExecution(), handWritten)).toBe(1);
    expect(await run(docjoin.compiledExecution(), mutation)).toBe(1);
    expect(await run(docjoin.compiledExecution({ mutationsAndHandWrittenRoots: true }), handWritten)).toBe(0);
    expect(await run(docjoin.compiledExecution({ mutationsAndHandWrittenRoots: true }), mutation)).toBe(0);
  });

  it('answers a directive variable sent as null with graphql-js\'s error, at the selection it reads', async () => {
    const owned = await expectSameAnswers(executors, 'query Q($b: Boolean = true) { books(first: 1) { id @skip(if: $b) name } }', { b: null });
    expect(owned.data).toBeNull();
    expect(owned.errors?.map((error) => error.message)).toEqual(['Argument "if" of non-null type "Boolean!" must not be null.']);
  });
});

describe('on documents that break the schema', () => {
  const SDL = /* GraphQL */ `
    type Query {
      items(first: Int = 10): [Item]! @list
      strictItems(first: Int = 10): [Item!]! @list
      "Hand-written: objects that are no stored documents."
      odd: [Item]!
    }
    type Item @collection(name: "items") {
      id: ID!
      name: String!
      count: Int
      tags: [String!]
      owner: Owner! @join(localField: "ownerId")
      friend: Owner @join(localField: "friendId")
    }
    type Owner @collection(name: "owners") { id: ID! name: String! }
  `;
  const [o1, o2, gone] = ['65e000000000000000000001', '65e000000000000000000002', '65e0000000000000000000ff'].map((hex) => new ObjectId(hex));
  let mongo: TestMongo;
  let client: MongoClient | undefined;
  let executors: Executors | undefined;

  beforeAll(async () => {
    mongo = await startTestMongo();
    const db = mongo.freshDb('owned');
    await db.collection('owners').insertMany([{ _id: o1!, name: 'Ann' }, { _id: o2! }]);
    await db.collection('items').insertMany([
      { _id: new ObjectId('65f000000000000000000001'), name: 'whole', count: 1, tags: ['a'], ownerId: o1, friendId: o2 },
      { _id: new ObjectId('65f000000000000000000002'), count: 2, ownerId: o1 },
      { _id: new ObjectId('65f000000000000000000003'), name: 'bad count', count: 'many', ownerId: o1 },
      { _id: new ObjectId('65f000000000000000000004'), name: 'null tag', tags: ['x', null], ownerId: o1 },
      { _id: new ObjectId('65f000000000000000000005'), name: 'dangling', ownerId: gone },
      { _id: new ObjectId('65f000000000000000000006'), count: 'lots', ownerId: o1 },
    ]);
    client = await connectMongo(mongo.uri);
    // A method for a stored field (graphql-js's default resolver calls it with the arguments, context and
    // info), a getter that throws, a promise from a method, and a plain value.
    const odd = () => [
      { _id: o1, name: () => 'from a method', count: 1, ownerId: o1 },
      { _id: o2, get name(): string { throw new Error('the getter failed'); }, ownerId: o1 },
      { _id: gone, name: async (_args: unknown, _context: unknown, info: { fieldName: string }) => `async ${info.fieldName}`, count: () => null, ownerId: o1 },
      // A promised item, a promised value, a promised list of promises, and an item that fails.
      Promise.resolve({ _id: o1, name: 'promised item', count: Promise.resolve(4), tags: Promise.resolve([Promise.resolve('t'), 'u']), ownerId: o1 }),
      Promise.reject(new Error('the item failed')),
    ];
    executors = await startExecutors(await createCheckedDocjoin({ typeDefs: [directiveTypeDefs, SDL], resolvers: { Query: { odd } }, db: db.databaseName, mongoClient: client, mongoKind: mongo.isEmbedded ? 'embedded' : 'external', validateDatabase: false }));
  }, 60_000);
  afterAll(async () => {
    await stopExecutors(executors);
    await client?.close();
    await mongo?.stop();
  });

  it('reports each error at its path and nulls the nearest nullable parent, as graphql-js does', async () => {
    const query = '{ items { id name count tags owner { name } friend { name } } }';
    const owned = await expectSameAnswers(executors!, query);
    expect((owned.data as { items: unknown[] }).items).toHaveLength(6);
    expect((owned.data as { items: unknown[] }).items.filter((item) => item === null)).toHaveLength(3);
    // The last item's bad count is not reported: its missing name nulled the item first.
    expect(owned.errors?.map((error) => error.path)).toEqual([
      ['items', 0, 'friend', 'name'],
      ['items', 1, 'name'],
      ['items', 2, 'count'],
      ['items', 3, 'tags', 1],
      ['items', 4, 'owner'],
      ['items', 5, 'name'],
    ]);
  });

  it('reports an error under a position another error nulled only when it came first, as graphql-js does', async () => {
    const owned = await expectSameAnswers(executors!, '{ items { count name } }');
    expect(owned.errors?.filter((error) => (error.path as unknown[])[1] === 5).map((error) => error.path)).toEqual([
      ['items', 5, 'count'],
      ['items', 5, 'name'],
    ]);
  });

  it('orders the errors of a level as graphql-js does, object by object, though it reads the level field by field', async () => {
    // graphql-js stops at the second item's missing name (the null reaches the root): the bad counts after it never come.
    const strict = await expectSameAnswers(executors!, '{ strictItems { count name } }');
    expect([strict.data, strict.errors?.map((error) => error.path)]).toEqual([null, [['strictItems', 1, 'name']]]);
    const twice = await expectSameAnswers(executors!, '{ items { a: count b: count } }');
    expect(twice.errors?.map((error) => error.path)).toEqual([
      ['items', 2, 'a'],
      ['items', 2, 'b'],
      ['items', 5, 'a'],
      ['items', 5, 'b'],
    ]);
  });

  it('reads what a hand-written root field answers as graphql-js\'s default resolver does: methods called, a throwing getter an error', async () => {
    const owned = await expectSameAnswers(executors!, '{ odd { name count tags owner { name } } }');
    expect(owned.data).toEqual({
      odd: [
        { name: 'from a method', count: 1, tags: null, owner: { name: 'Ann' } },
        null,
        { name: 'async name', count: null, tags: null, owner: { name: 'Ann' } },
        { name: 'promised item', count: 4, tags: ['t', 'u'], owner: { name: 'Ann' } },
        null,
      ],
    });
    expect(owned.errors?.map((error) => [error.path, error.message])).toEqual([
      [['odd', 1, 'name'], 'the getter failed'],
      [['odd', 4], 'the item failed'],
    ]);
  });

  it('nulls the whole answer when the null reaches a non-null root field', async () => {
    const owned = await expectSameAnswers(executors!, '{ strictItems { name } }');
    expect(owned.data).toBeNull();
    expect(owned.errors?.map((error) => error.message)).toEqual(['Cannot return null for non-nullable field Item.name.']);
  });
});
