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
  type Mutation { createNote(input: NoteInput!): Note! @create }
  type Note @collection(name: "notes") { id: ID! text: String! }
  input NoteInput { text: String! }
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

describe('a URI whose serverSelectionTimeoutMS outlasts the operation deadline', () => {
  let slowMongo: EmbeddedMongo;
  let slowClient: MongoClient;
  let served: Gateway;
  beforeAll(async () => {
    slowMongo = await startEmbeddedMongo();
    slowClient = await connectMongo(`${slowMongo.uri}${slowMongo.uri.includes('?') ? '&' : '?'}serverSelectionTimeoutMS=60000`);
    await slowClient.db('outage-deadline').collection('notes').insertOne({ text: 'before' });
    served = await createCheckedGateway({ typeDefs: SDL, mongoClient: slowClient, db: 'outage-deadline', port: 0, operationTimeoutMs: 1000 });
  }, 60_000);
  afterAll(async () => {
    await served?.stop();
    await slowClient?.close();
    await slowMongo?.stop();
  });

  const post = async (query: string): Promise<[number, string[] | undefined]> => {
    const response = await fetch(served.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await response.json()) as { errors?: Array<{ extensions: { code: string } }> };
    return [response.status, body.errors?.map((error) => error.extensions.code)];
  };

  // The driver would wait 60 s for a server; the request ends at its own deadline (1 s) instead: a
  // read is abandoned, and a write's answer is 504 while the write itself goes on in the background.
  it('ends reads and writes during an outage at their deadline with 504 OPERATION_TIMEOUT, not the URI\'s 60 s', async () => {
    expect(await post('{ notes { text } }')).toEqual([200, undefined]);
    await slowMongo.stop();
    // A read on a connection the server closed fails at once; once the driver knows the server is gone,
    // the next one waits to select a server, which only the deadline ends.
    let read = await post('{ notes { text } }');
    for (let attempt = 0; attempt < 5 && read[1]?.[0] === 'DATABASE_UNAVAILABLE'; attempt++) read = await post('{ notes { text } }');
    expect(read).toEqual([504, ['OPERATION_TIMEOUT']]);
    const write = await fetch(served.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { createNote(input: { text: "during" }) { id } }' }) });
    const written = (await write.json()) as { errors?: Array<{ extensions: { code: string } }>; extensions?: { cost?: Record<string, unknown> } };
    expect([write.status, written.errors?.map((error) => error.extensions.code)]).toEqual([504, ['OPERATION_TIMEOUT']]);
    // Answered at its overrun, while the write still waits: the cost so far, with the estimate.
    expect(written.extensions?.cost).toMatchObject({ roundTrips: expect.any(Number), documents: expect.any(Number) });
    expect(written.extensions?.cost?.estimatedRoundTrips).toBeGreaterThan(0);
    expect(await (await fetch(served.url!.replace('/graphql', '/health'))).json()).toMatchObject({ status: 'degraded' });
  }, 20_000);
});
