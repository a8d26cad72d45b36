import type { MongoClient } from 'mongodb';
import { connectMongo, type Gateway } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from 'docjoin/embedded-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * A MongoDB that goes away and comes back: while it is away a request fails with DATABASE_UNAVAILABLE
 * (within the client's server-selection timeout, not after the driver's 30 s), and once it is back on
 * the same port the same gateway serves again, with no restart. The embedded server keeps no data, so
 * the returned server starts empty.
 */
const SDL = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;

let mongo: EmbeddedMongo;
let client: MongoClient;
let gateway: Gateway;
let port: number;
beforeAll(async () => {
  mongo = await startEmbeddedMongo();
  port = Number(new URL(mongo.uri).port);
  client = await connectMongo(mongo.uri, { serverSelectionTimeoutMS: 500 });
  await client.db('outage').collection('notes').insertOne({ text: 'before' });
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'outage', listen: false });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

it('fails requests with DATABASE_UNAVAILABLE while MongoDB is down, and serves again once it is back', async () => {
  expect((await gateway.execute({ query: '{ notes { text } }' })).data).toEqual({ notes: [{ text: 'before' }] });

  await mongo.stop();
  const down = await gateway.execute({ query: '{ notes { text } }' });
  expect(down.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['DATABASE_UNAVAILABLE', 'The database is unavailable; try again later']]);

  mongo = await startEmbeddedMongo({ port });
  let back = await gateway.execute({ query: '{ notes { text } }' });
  // The driver finds the server again on its next heartbeat or selection attempt; a few tries at most.
  for (let attempt = 0; attempt < 20 && back.errors; attempt++) back = await gateway.execute({ query: '{ notes { text } }' });
  expect(back.errors).toBeUndefined();
  expect(back.data).toEqual({ notes: [] });
}, 60_000);
