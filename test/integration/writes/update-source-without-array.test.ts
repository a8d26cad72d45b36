import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A host keeps its newest log messages (a bounded array) and each message a snapshot of its host, so a
 * rename sets the copies inside the host's own `recentLogs` in the same command
 * (`recentLogs.$[e0].host.name`). MongoDB refuses `$[e0]` where the path holds no array, and reads
 * accept a host stored without `recentLogs` (declared after it was written: reads answer `[]`, startup
 * warns), so such a host is renamed too, in the same one command; and so is one whose update moves a
 * total (a findAndModify per way the array may be there, sent until one matches).
 */
const typeDefs = /* GraphQL */ `
  type Query { host(id: ID!): Host @find rack(id: ID!): Rack @find }
  type Mutation { updateHost(id: ID!, input: HostPatch!): Host! @update }
  input HostPatch { name: String weight: Int }
  type Rack @collection(name: "racks") {
    id: ID!
    hosts: [Host!]! @join(localField: "_id", foreignField: "rackId")
    weight: Float! @total(of: "Rack.hosts", field: "weight")
  }
  type Host @collection(name: "hosts") {
    id: ID!
    name: String!
    weight: Int!
    rack: Rack @join(localField: "rackId")
    recentLogs: [LogMessage!]! @embedded @join(collection: "logMessages", localField: "_id", foreignField: "host.id", sort: "-_id", limit: 3) @read(strategy: EMBEDDED)
  }
  type LogMessage @collection(name: "logMessages") {
    id: ID!
    message: String!
    host: Host @snapshot(path: "host", fields: ["id", "name"]) @join(localField: "host.id") @read(strategy: SNAPSHOT)
  }
`;

const rack = new ObjectId('0000000000000000000000c1');
const kept = new ObjectId('0000000000000000000000a0');
const lacking = new ObjectId('0000000000000000000000a1');
const nulled = new ObjectId('0000000000000000000000a2');
const message = new ObjectId('0000000000000000000000b1');
let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'update_source_without_array',
    prepare: async (db) => {
      await db.collection('racks').insertOne({ _id: rack, weight: 6 });
      await db.collection('hosts').insertMany([
        { _id: kept, name: 'alpha', weight: 1, rackId: rack, recentLogs: [{ _id: message, message: 'up', host: { id: kept, name: 'alpha' } }] },
        { _id: lacking, name: 'beta', weight: 2, rackId: rack },
        { _id: nulled, name: 'gamma', weight: 3, rackId: rack, recentLogs: null },
      ]);
      await db.collection('logMessages').insertOne({ _id: message, message: 'up', host: { id: kept, name: 'alpha' } });
      await db.collection('logMessages').createIndex({ 'host.id': 1, _id: -1 });
      await db.collection('hosts').createIndex({ rackId: 1 });
    },
  });
}, 60_000);
afterAll(() => subject?.stop());

const rename = (id: ObjectId, input: string) => subject.gateway.execute({ query: `mutation { updateHost(id: "${id.toHexString()}", input: { ${input} }) { name weight } }` });
const stored = (id: ObjectId) => subject.db.collection('hosts').findOne({ _id: id }, { projection: { _id: 0, name: 1, weight: 1, recentLogs: 1 } });

it.each([
  ['without recentLogs', lacking, {}],
  ['with recentLogs null', nulled, { recentLogs: null }],
])('renames a host stored %s in ONE command, leaving its recentLogs as they were', async (_what, id, recentLogs) => {
  const renamed = await rename(id, 'name: "renamed"');
  expect(renamed.errors).toBeUndefined();
  expect(renamed.data).toEqual({ updateHost: { name: 'renamed', weight: id === lacking ? 2 : 3 } });
  expect(renamed.cost?.writes).toMatchObject({ roundTrips: 3, documentsModified: 1, fanOut: { hosts: 1, logMessages: 0 } });
  expect(await stored(id)).toEqual({ name: 'renamed', weight: id === lacking ? 2 : 3, ...recentLogs });
});

it('renames a host holding recentLogs, with the copies inside them, in ONE command', async () => {
  const renamed = await rename(kept, 'name: "delta"');
  expect(renamed.errors).toBeUndefined();
  expect(await stored(kept)).toEqual({ name: 'delta', weight: 1, recentLogs: [{ _id: message, message: 'up', host: { id: kept, name: 'delta' } }] });
  expect(await subject.db.collection('logMessages').findOne({ _id: message })).toEqual({ _id: message, message: 'up', host: { id: kept, name: 'delta' } });
});

it('an update moving a total renames a host without recentLogs too: one findAndModify per way the array may be there, until one matches', async () => {
  const moved = await rename(lacking, 'name: "epsilon", weight: 12');
  expect(moved.errors).toBeUndefined();
  expect(await stored(lacking)).toEqual({ name: 'epsilon', weight: 12 });
  expect(await subject.db.collection('racks').findOne({ _id: rack })).toEqual({ _id: rack, weight: 16 });
  const aboard = await rename(kept, 'name: "zeta", weight: 2');
  expect(aboard.errors).toBeUndefined();
  expect(await stored(kept)).toEqual({ name: 'zeta', weight: 2, recentLogs: [{ _id: message, message: 'up', host: { id: kept, name: 'zeta' } }] });
  expect(await subject.db.collection('racks').findOne({ _id: rack })).toEqual({ _id: rack, weight: 17 });
  // The host without the array matches the first: one findAndModify fewer.
  expect(moved.cost!.writes!.roundTrips).toBe(aboard.cost!.writes!.roundTrips - 1);
});
