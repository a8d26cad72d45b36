import { ApolloServer } from '@apollo/server';
import { ObjectId, type CommandStartedEvent } from 'mongodb';
import type { Docjoin, Gateway, GatewayContext } from 'docjoin';
import { createCheckedDocjoin, createCheckedGateway } from '../../support/checked-gateway';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A response certain to be over maxResponseBytes is stopped while it is built, as soon as its relation
 * fields' values cannot fit (operation/limits/response-size-guard.ts): no read is sent after that, and
 * no further level is built. A short query of aliases under lists of lists would otherwise make
 * millions of values from a handful of documents, and hold the event loop while they are built.
 */
const SDL = /* GraphQL */ `
  type Query { teams(first: Int = 10): [Team!]! @list }
  type Mutation { createPlayer(input: PlayerInput!): Player! @create }
  input PlayerInput { name: String! teamId: ID! }
  type Team @collection(name: "teams") {
    id: ID!
    name: String!
    tags: [String!]!
    players(first: Int = 10): [Player!]! @join(localField: "_id", foreignField: "teamId", sort: "name")
    "Read by graphql-js: an operation with a connection is not run from its plan."
    playerPage(first: Int = 10, after: String): PlayerConnection! @join(localField: "_id", foreignField: "teamId", sort: "name")
  }
  type Player @collection(name: "players") {
    id: ID!
    name: String!
    teamId: ID!
    team: Team @join(localField: "teamId")
  }
  type PlayerConnection { edges: [PlayerEdge!]! nodes: [Player!]! pageInfo: PageInfo! totalCount: Int! }
  type PlayerEdge { cursor: String! node: Player! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;
const MAX_BYTES = 2000;
const aliases = (field: string): string => Array.from({ length: 40 }, (_, i) => `a${i}: ${field}`).join(' ');
/** Each player is at least 360 bytes (`{"a0":"",…,"a39":"","team":null},`): 3 teams of 2 players pass 2,000 at the third team. */
const OVER = `{ teams { players { ${aliases('name')} team { players { name } } } } }`;

const file = mongoForFile();
const commands: string[] = [];
let dbName: string;
let firstTeam: ObjectId;
beforeAll(async () => {
  const db = file.client.db(`size_guard_${new ObjectId().toHexString()}`);
  dbName = db.databaseName;
  const teams = Array.from({ length: 3 }, (_, i) => ({ _id: new ObjectId(), name: `T${i}`, tags: Array.from({ length: 100 }, () => 'x') }));
  await db.collection('teams').insertMany(teams);
  firstTeam = teams[0]!._id;
  await db.collection('players').insertMany(Array.from({ length: 6 }, (_, i) => ({ _id: new ObjectId(), name: `P${i}`, teamId: teams[i % 3]!._id })));
  await db.collection('players').createIndex({ teamId: 1, name: 1, _id: 1 });
  file.client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.databaseName === dbName) commands.push(`${event.commandName} ${String(event.command[event.commandName])}`);
  });
}, 60_000);

/** The answer without its errors' stack traces (a server not in production sends them). */
function withoutStacks(answer: unknown): unknown {
  const { errors, ...rest } = answer as { errors?: Array<{ extensions?: Record<string, unknown> }> };
  return { ...rest, ...(errors && { errors: errors.map(({ extensions: { stacktrace: _stack, ...extensions } = {}, ...error }) => ({ ...error, extensions })) }) };
}

const stopMessage = `The response would be over the limit of ${MAX_BYTES.toLocaleString('en')} bytes (DOCJOIN_MAX_RESPONSE_BYTES): the operation was stopped before building it; select fewer fields or ask for smaller pages`;

describe('over HTTP', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: file.client, db: dbName, port: 0, host: '127.0.0.1', maxResponseBytes: MAX_BYTES, costReport: false });
  });
  afterAll(async () => {
    await gateway?.stop();
  });
  const post = (query: string) => fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

  it.each([
    ['run from its plan', OVER],
    ['a connection, run by graphql-js', `{ teams { playerPage { edges { node { ${aliases('name')} team { players { name } } } } } } }`],
  ])('answers a query stopped at the players 400 RESPONSE_TOO_LARGE once, having read no team of a player (%s)', async (_executor, query) => {
    commands.length = 0;
    const response = await post(query);
    expect(response.status).toBe(400);
    expect(withoutStacks(await response.json())).toEqual({ errors: [{ message: stopMessage, extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: MAX_BYTES } }], data: null });
    // The teams, then their players; the players' teams are not read.
    expect(commands).toEqual(['find teams', 'aggregate players']);
  });

  it('serves a query within the limit, and keeps serving after a refusal', async () => {
    await post(OVER);
    const response = await post(`{ teams(first: 1) { players { ${aliases('name')} } } }`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { teams: Array<{ players: Array<Record<string, string>> }> } };
    expect(body.data.teams[0]!.players).toHaveLength(2);
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(MAX_BYTES);
  });
});

describe('without HTTP', () => {
  let docjoin: Docjoin;
  let servers: Array<ApolloServer<GatewayContext>>;
  beforeAll(async () => {
    docjoin = await createCheckedDocjoin({ typeDefs: SDL, mongoClient: file.client, db: dbName, maxResponseBytes: MAX_BYTES });
    const make = (plugins: ApolloServer<GatewayContext>['internals']['plugins']) => new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins, formatError: docjoin.formatError });
    servers = [make([...docjoin.plugins, docjoin.compiledExecution()]), make([...docjoin.plugins])];
    for (const server of servers) await server.start();
  });
  afterAll(async () => {
    for (const server of servers ?? []) await server.stop();
    docjoin?.close();
  });

  it('stops the operation alike whichever executor runs it; run from its plan, it builds no player', async () => {
    const answers = [];
    for (const server of servers) {
      commands.length = 0;
      const response = await server.executeOperation({ query: OVER }, { contextValue: docjoin.createContext() });
      const { extensions, ...answer } = response.body.kind === 'single' ? response.body.singleResult : {};
      const { fields } = extensions!.cost as { fields: Record<string, { keys: number }> };
      const keys = Object.fromEntries(Object.entries(fields).map(([coordinate, cost]) => [coordinate, cost.keys]));
      answers.push({ answer: withoutStacks(answer), status: response.http.status, commands: [...commands], keys });
    }
    const expected = { answer: { errors: [{ message: stopMessage, extensions: { code: 'RESPONSE_TOO_LARGE', maxBytes: MAX_BYTES } }], data: null }, status: 400, commands: ['find teams', 'aggregate players'] };
    // graphql-js builds the players of the teams before the one that stopped it (2 teams of 2), and asks for their teams.
    expect(answers).toEqual([
      { ...expected, keys: { 'Team.players': 3 } },
      { ...expected, keys: { 'Team.players': 3, 'Player.team': 4 } },
    ]);
  });

  it('answers a mutation whose answer passes the limit with what fit, saying that it ran: its later fields still write and read back', async () => {
    const players = `players { ${aliases('name')} }`;
    const team = firstTeam.toHexString();
    const mutation = `mutation { first: createPlayer(input: { name: "P6", teamId: "${team}" }) { name a: team { ${players} } b: team { ${players} } } second: createPlayer(input: { name: "P7", teamId: "${team}" }) { name team { name } } }`;
    try {
      const response = await servers[1]!.executeOperation({ query: mutation }, { contextValue: docjoin.createContext() });
      const { data, errors } = response.body.kind === 'single' ? response.body.singleResult : {};
      // The team now has 3 players, each at least 360 bytes: a's fit, b's pass 2,000.
      expect(response.http.status).toBeUndefined();
      // b's bytes are taken back: the second's team, read after the refusal, fits.
      expect(data).toMatchObject({ first: { name: 'P6', a: { players: [{}, {}, {}] }, b: null }, second: { name: 'P7', team: { name: 'T0' } } });
      expect(errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['RESPONSE_TOO_LARGE', `${stopMessage}. The mutation ran: its data holds what fit; read before retrying it`]]);
      expect(await file.client.db(dbName).collection('players').countDocuments({ name: { $in: ['P6', 'P7'] } })).toBe(2);
    } finally {
      await file.client.db(dbName).collection('players').deleteMany({ name: { $in: ['P6', 'P7'] } });
    }
  });

  it('counts the entries of a stored list of leaves, under each alias, whichever executor reads it', async () => {
    // 40 aliases of a team's 100 tags, each entry at least 3 bytes with its comma: about 12,000 bytes under a limit of 2,000.
    const query = `{ teams(first: 1) { ${aliases('tags')} } }`;
    const answers = [];
    for (const server of servers) {
      const response = await server.executeOperation({ query }, { contextValue: docjoin.createContext() });
      const { data, errors } = response.body.kind === 'single' ? response.body.singleResult : {};
      answers.push({ status: response.http.status, data, codes: errors?.map((error) => error.extensions?.code) });
    }
    expect(answers).toEqual([
      { status: 400, data: null, codes: ['RESPONSE_TOO_LARGE'] },
      { status: 400, data: null, codes: ['RESPONSE_TOO_LARGE'] },
    ]);
    // Five aliases fit (5 × 299 bytes of entries at least): answered whole.
    const fits = await servers[0]!.executeOperation({ query: `{ teams(first: 1) { a: tags b: tags c: tags d: tags e: tags } }` }, { contextValue: docjoin.createContext() });
    expect(fits.body.kind === 'single' && (fits.body.singleResult.data as { teams: Array<{ e: string[] }> }).teams[0]!.e).toHaveLength(100);
  });
});
