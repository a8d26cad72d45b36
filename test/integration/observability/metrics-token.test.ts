import type { MongoClient } from 'mongodb';
import { connectMongo, type Gateway } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from 'docjoin/embedded-mongo';
import { capturedLogger } from '../../support/captured-logger';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * `GET /metrics` behind a bearer token (metricsToken, DOCJOIN_METRICS_TOKEN): only a scraper holding it
 * reads the series; GraphQL and /health are served as before; production without a token says so at startup.
 */
const SDL = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;
const TOKEN = 'c0ffee-metrics-token-0123456789';
const OPEN_METRICS_WARNING =
  'GET /metrics is open to anyone who reaches this port (its series name operations and count documents per field): set DOCJOIN_METRICS_TOKEN (createGateway: metricsToken) to require a bearer token, or DOCJOIN_METRICS=false';

let mongo: EmbeddedMongo;
let client: MongoClient;
let gateway: Gateway;

beforeAll(async () => {
  mongo = await startEmbeddedMongo();
  client = await connectMongo(mongo.uri);
  await client.db('metrics_token').collection('notes').insertOne({ text: 'one' });
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'metrics_token', port: 0, metricsToken: TOKEN });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const metricsUrl = () => gateway.url!.replace('/graphql', '/metrics');

it('answers 401 with WWW-Authenticate to a scrape without the token, with another scheme or with another token', async () => {
  const attempts: Array<Record<string, string>> = [{}, { authorization: `Basic ${TOKEN}` }, { authorization: `Bearer ${TOKEN}x` }, { authorization: 'Bearer c0ffee-metrics-token-0123456788' }];
  for (const headers of attempts) {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(metricsUrl(), { method, headers });
      expect([method, headers, response.status, response.headers.get('www-authenticate')]).toEqual([method, headers, 401, 'Bearer realm="docjoin metrics"']);
      const body = await response.text();
      expect(body).not.toContain('docjoin_');
      expect(body).not.toContain(TOKEN);
    }
  }
});

it('serves the series to a scrape with the token, and GraphQL and /health as before', async () => {
  const answer = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Notes { notes { text } }' }) });
  expect(await answer.json()).toMatchObject({ data: { notes: [{ text: 'one' }] } });
  expect((await fetch(gateway.url!.replace('/graphql', '/health'))).status).toBe(200);
  const scrape = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(scrape.status).toBe(200);
  expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await scrape.text()).toMatch(/\ndocjoin_requests_total\{operation="Notes",outcome="ok"\} 1\n/);
});

it('answers another method than GET or HEAD on /metrics and /health 405, with Allow', async () => {
  for (const path of ['/metrics', '/health']) {
    for (const method of ['POST', 'DELETE']) {
      const response = await fetch(gateway.url!.replace('/graphql', path), { method, headers: { authorization: `Bearer ${TOKEN}` } });
      expect([path, method, response.status, response.headers.get('allow'), await response.json()]).toEqual([path, method, 405, 'GET, HEAD', { error: `${path} answers GET and HEAD, not ${method}` }]);
    }
  }
});

it('warns at startup in production when the metrics are served without a token, not with one or without metrics, and when a token is set with the metrics off', async () => {
  const startedWith = async (options: { metricsToken?: string; metrics?: boolean }) => {
    const { logger, lines } = capturedLogger();
    const started = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'metrics_token', port: 0, production: true, logger, ...options });
    await started.stop();
    return lines.filter((line) => line.level === 40).map((line) => line.msg);
  };
  expect(await startedWith({})).toEqual([OPEN_METRICS_WARNING]);
  expect(await startedWith({ metricsToken: TOKEN })).toEqual([]);
  expect(await startedWith({ metrics: false })).toEqual([]);
  expect(await startedWith({ metrics: false, metricsToken: TOKEN })).toEqual(['DOCJOIN_METRICS_TOKEN (metricsToken) is set, but the metrics are off (DOCJOIN_METRICS=false): no /metrics is served']);
});
