import type { MongoClient } from 'mongodb';
import { connectMongo, GatewayOptionError, type Gateway } from 'docjoin';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

/** The HTTP options of the standalone gateway: the address it binds, CORS, the landing page. */
const SDL = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
let dbName: string;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('http');
  dbName = db.databaseName;
  await db.collection('notes').insertOne({ text: 'hello' });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, port: 0, host: '127.0.0.1', cors: { origin: 'https://app.example.com' }, landingPage: 'none' });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const endpoint = () => `http://127.0.0.1:${gateway.port}/graphql`;

it('answers a CORS preflight from an allowed origin, and names that origin on the response', async () => {
  const preflight = await fetch(endpoint(), {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST');
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: { origin: 'https://app.example.com', 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ notes { text } }' }),
  });
  expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  // A browser client waiting out a 429 or 503 may read Retry-After.
  expect(response.headers.get('access-control-expose-headers')).toBe('retry-after');
  expect(((await response.json()) as { data: unknown }).data).toEqual({ notes: [{ text: 'hello' }] });
});

it('with CORS off, answers a preflight 204 without CORS headers (the browser says the origin is not allowed), not with a CSRF refusal', async () => {
  const closed = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, port: 0, host: '127.0.0.1', landingPage: 'none' });
  try {
    const preflight = await fetch(closed.url!, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('allow'), await preflight.text()]).toEqual([204, null, 'GET, POST, OPTIONS', '']);
  } finally {
    await closed.stop();
  }
});

it('gives another origin no CORS headers', async () => {
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: { origin: 'https://evil.example.com', 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ notes { text } }' }),
  });
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
});

it('sends CORS headers on /graphql alone: a page of an allowed origin cannot read /metrics or /health through a browser', async () => {
  const origin = { origin: 'https://app.example.com' };
  for (const path of ['/metrics', '/health']) {
    const response = await fetch(endpoint().replace('/graphql', path), { headers: origin });
    const preflight = await fetch(endpoint().replace('/graphql', path), { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect([path, response.status, response.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers')]).toEqual([path, 200, null, null, null]);
  }
});

it('serves no landing page and no IDE when told so', async () => {
  const response = await fetch(endpoint(), { headers: { accept: 'text/html' } });
  expect(await response.text()).not.toContain('EmbeddedSandbox');
  expect((await fetch(endpoint().replace('/graphql', '/ide'))).status).toBe(404);
});

it("serves docjoin's IDE as the landing page with landingPage: 'ide', opening on the schema's first list", async () => {
  const ide = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, port: 0, host: '127.0.0.1', landingPage: 'ide' });
  try {
    const page = await (await fetch(ide.url!, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<script type="module" src="/ide/assets/main.js"></script>');
    expect(page).not.toContain('EmbeddedSandbox');
    const config = JSON.parse(/window\.docjoinIde = (.*);<\/script>/.exec(page)![1]!) as { defaultQuery: string; strategyExample?: string };
    expect(config.defaultQuery).toMatch(/\{\n {2}notes\(first: 3\) \{\n {4}id\n/);
    // No field of this schema has a choice of strategy: the cost panel's hint leaves the header out.
    expect(config.strategyExample).toBeUndefined();
  } finally {
    await ide.stop();
  }
});

it("names nothing of the schema on the IDE page where introspection is not everyone's, and redirects no request for its assets folder", async () => {
  const ide = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, port: 0, host: '127.0.0.1', landingPage: 'ide', introspection: false });
  try {
    const page = await (await fetch(ide.url!, { headers: { accept: 'text/html' } })).text();
    const config = JSON.parse(/window\.docjoinIde = (.*);<\/script>/.exec(page)![1]!) as { defaultQuery: string };
    expect([config.defaultQuery, page.includes('notes')]).toEqual(['{ __typename }', false]);
    const folder = await fetch(ide.url!.replace('/graphql', '/ide/assets/x%2f..'), { redirect: 'manual' });
    expect([folder.status, folder.headers.get('location')]).toEqual([404, null]);
    await folder.text();
  } finally {
    await ide.stop();
  }
});

it('refuses a bad option before connecting anything, naming it', async () => {
  await expect(createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, port: 99999 })).rejects.toThrow(new GatewayOptionError('option port must be an integer from 0 to 65535, got 99999'));
});
