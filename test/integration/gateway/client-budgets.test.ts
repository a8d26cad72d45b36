import { createGateway, type Gateway } from 'docjoin';
import { mongoForFile } from '../../support/test-mongo';

/**
 * Per-client budgets over HTTP: each response reports its client's bucket in extensions.cost, and a
 * client over its budget is refused with 429 THROTTLED and Retry-After before anything is read, while
 * other clients go on.
 */
const typeDefs = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;
const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

const files = mongoForFile();
let gateway: Gateway;
beforeAll(async () => {
  const db = files.mongo.freshDb('budgets');
  await db.collection('notes').insertMany([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
  // Restored so slowly that the figures do not move while the test runs.
  gateway = await createGateway({ typeDefs, auth: { jwt: { secret: SECRET } }, budget: { capacity: 10, restoreRate: 0.001 }, mongoClient: files.client, db: db.databaseName, port: 0, onWarning: () => undefined });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
});

async function token(sub: string): Promise<string> {
  const { SignJWT } = await import('jose');
  return new SignJWT({ sub, role: 'user' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
}

async function notes(headers: Record<string, string> = {}) {
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ notes(first: 3) { text } }' }) });
  const body = (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }>; extensions?: { cost?: Record<string, unknown> } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

it('reports the bucket, refuses the client past it with 429 and Retry-After, and keeps other clients apart', async () => {
  const ann = { authorization: `Bearer ${await token('ann')}` };
  // One round trip and three documents: 4 points, estimated and measured.
  const first = await notes(ann);
  expect(first.body.extensions?.cost).toMatchObject({ requestedPoints: 4, actualPoints: 4, throttleStatus: { maximumAvailable: 10, currentlyAvailable: 6, restoreRate: 0.001 } });
  expect((await notes(ann)).body.extensions?.cost).toMatchObject({ throttleStatus: { currentlyAvailable: 2 } });
  const refused = await notes(ann);
  expect(refused.status).toBe(429);
  expect(refused.retryAfter).toBe('2000');
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['THROTTLED', 'Throttled: this operation needs 4 points and 2 of 10 are available; try again in 2000 s']]);
  // Its cost report says what it asked and what the bucket holds, as the error does, having spent nothing.
  expect(refused.body.extensions?.cost).toMatchObject({ roundTrips: 0, requestedPoints: 4, actualPoints: 0, throttleStatus: { maximumAvailable: 10, currentlyAvailable: 2, restoreRate: 0.001 } });
  // Another subject, and an anonymous client (kept by its address), have their own buckets.
  expect((await notes({ authorization: `Bearer ${await token('bob')}` })).body.extensions?.cost).toMatchObject({ throttleStatus: { currentlyAvailable: 6 } });
  expect((await notes()).body.extensions?.cost).toMatchObject({ throttleStatus: { currentlyAvailable: 6 } });
});

describe('behind a proxy (trustProxy)', () => {
  const started: Gateway[] = [];
  const startBehind = async (trustProxy: readonly string[] | undefined) => {
    const db = files.mongo.freshDb('budgets_proxy');
    await db.collection('notes').insertMany([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const behind = await createGateway({ typeDefs, budget: { capacity: 10, restoreRate: 0.001 }, ...(trustProxy && { trustProxy }), mongoClient: files.client, db: db.databaseName, port: 0, onWarning: () => undefined });
    started.push(behind);
    return async (forwardedFor: string) => {
      const response = await fetch(behind.url!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor }, body: JSON.stringify({ query: '{ notes(first: 3) { text } }' }) });
      return ((await response.json()) as { extensions?: { cost?: { throttleStatus?: { currentlyAvailable: number } } } }).extensions?.cost?.throttleStatus?.currentlyAvailable;
    };
  };
  afterAll(async () => {
    for (const gateway of started) await gateway.stop();
  });

  it("keeps each anonymous client's bucket by the address its trusted proxy forwarded, the nearest untrusted hop", async () => {
    // The test's requests come from 127.0.0.1: a trusted proxy here.
    const send = await startBehind(['loopback', '10.0.0.0/8']);
    expect(await send('203.0.113.7')).toBe(6);
    expect(await send('203.0.113.7')).toBe(2);
    expect(await send('198.51.100.9')).toBe(6);
    // A client cannot pick its bucket: what it wrote before the trusted hops is not believed.
    expect(await send('198.51.100.200, 203.0.113.7, 10.1.2.3')).toBe(2);
  });

  it('drops the port a proxy forwards with an address: a new connection is no new bucket, and a trusted hop with a port is still trusted', async () => {
    const send = await startBehind(['loopback', '10.0.0.0/8']);
    expect(await send('203.0.113.7:51234')).toBe(6);
    expect(await send('203.0.113.7:51235, 10.1.2.3:443')).toBe(2);
    expect(await send('[2001:db8::7]:51234')).toBe(6);
    expect(await send('2001:db8::7')).toBe(2);
  });

  it('without trustProxy, X-Forwarded-For is not believed: every client behind the proxy shares its bucket', async () => {
    const send = await startBehind(undefined);
    expect(await send('203.0.113.7')).toBe(6);
    expect(await send('198.51.100.9')).toBe(2);
  });

  it('a proxy outside the trusted ranges is not believed either', async () => {
    const send = await startBehind(['10.0.0.0/8']);
    expect(await send('203.0.113.7')).toBe(6);
    expect(await send('198.51.100.9')).toBe(2);
  });
});
