import { getOperationAST, parse } from 'graphql';
import { ObjectId } from 'mongodb';
import { estimateRequest } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * The response's size is estimated and limited before execution: an operation whose response would
 * repeat a few documents under ever more parents is refused with no round trip, naming the field; and
 * the estimate of response objects is never below what a response holds.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    teams(first: Int = 10): [Team!]! @list
  }
  type Team @collection(name: "teams") {
    id: ID!
    name: String!
    players(first: Int = 10): [Player!]! @join(localField: "_id", foreignField: "teamId", sort: "name")
    playersAggregate: PlayerAggregate! @aggregate(of: "players", groupBy: ["name"])
    captain: Player @join(localField: "captainId")
  }
  type Player @collection(name: "players") {
    id: ID!
    name: String!
    team: Team @join(localField: "teamId")
    tags: [Tag!]! @embedded
  }
  type Tag {
    label: String!
  }
`;

const teams = Array.from({ length: 4 }, (_, i) => ({ _id: new ObjectId(`66c00000000000000000000${i + 1}`), name: `Team ${i}`, captainId: new ObjectId(`66d00000000000000000000${i + 1}`) }));
const players = Array.from({ length: 8 }, (_, i) => ({
  _id: new ObjectId(`66d00000000000000000000${i + 1}`),
  name: `Player ${i}`,
  teamId: teams[i % 4]!._id,
  tags: Array.from({ length: i % 3 }, (_, t) => ({ label: `tag ${t}` })),
}));

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'response_nodes',
    prepare: async (db) => {
      await db.collection('teams').insertMany(teams);
      await db.collection('players').insertMany(players);
      await db.collection('players').createIndex({ teamId: 1, name: 1, _id: 1 });
    },
    gateway: { limits: { maxResponseNodes: 20_000, maxDocuments: 1_000_000, maxRoundTrips: 100 } },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

/** The objects a response holds (list items and objects, leaves not counted), as the estimate counts them. */
function responseNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + responseNodes(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Object.values(value).reduce((sum: number, field) => sum + responseNodes(field), 0);
}

it('refuses an exponential response before any read, naming the field that makes most of it', async () => {
  const query = '{ teams(first: 100) { players(first: 100) { team { players(first: 100) { team { players(first: 100) { name } } } } } } }';
  const result = await subject.gateway.execute({ query });
  expect(result.data).toBeUndefined();
  expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: { limit: 'responseNodes', max: 20_000, field: 'Team.players' } });
  expect(result.errors?.[0]?.message).toMatch(
    /^Operation rejected before execution: its estimated cost of [\d,]+ response objects \(about [\d,]+ bytes as JSON\) exceeds the limit of 20,000 \(set by the limits\.maxResponseNodes option\)\. Team\.players accounts for the most/,
  );
  // At least the objects' braces: two bytes each.
  const { estimated, approximateBytes } = result.errors![0]!.extensions!.cost as { estimated: number; approximateBytes: number };
  expect(approximateBytes).toBeGreaterThan(2 * estimated);
  expect(result.cost).toMatchObject({ roundTrips: 0 });
});

it('refuses an aggregate whose groups would make the response too large, before any read', async () => {
  const result = await subject.gateway.execute({ query: '{ teams(first: 100) { playersAggregate { groupBy(by: [NAME], first: 1000) { key { name } count } } } }' });
  expect(result.data).toBeUndefined();
  expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: { limit: 'responseNodes', max: 20_000, field: 'PlayerAggregate.groupBy' } });
  expect(result.cost).toMatchObject({ roundTrips: 0 });
});

it.each([
  ['with aggregates and their groups', '{ teams { name playersAggregate { count groupBy(by: [NAME], first: 3) { key { name } count } } } }'],
  ['deep and recursive', '{ teams { players { team { players { team { name captain { name } } } } } } }'],
  ['aliased', '{ a: teams(first: 2) { players { name } } b: teams(first: 3) { captain { team { players { tags { label } } } } } }'],
  ['with fragments and embedded lists', '{ teams { ...T players { ...P team { ...T } } } } fragment T on Team { name captain { ...P } } fragment P on Player { tags { label } }'],
])('estimates at least the response objects %s', async (_shape, query) => {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  const estimate = estimateRequest({ schema: subject.gateway.schema, storageMap: subject.gateway.storageMap, document, operation, variables: {}, strategyFor: (field) => field.defaultStrategy });
  const result = await subject.gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  const measured = responseNodes(result.data) - 1;
  expect(measured).toBeGreaterThan(0);
  expect(estimate!.responseNodes).toBeGreaterThanOrEqual(measured);
});
