import { MongoClient } from 'mongodb';
import { seedDemoData } from '../../seed/seed-database';
import { DEMO_CONFIG } from '../support/demo-project';
import { report } from './support/fault-run';
import { figures, runLoad, send, type PlannedRequest } from './support/load';
import { sigtermDuringBurst } from '../support/sigterm-burst';
import { startGateway, startMongo, type MongoProcess } from './support/processes';

/**
 * Gateway SIGTERM under load, started directly and through `npm start`. First the lame-duck period
 * (DOCJOIN_SHUTDOWN_DELAY_MS): /health answers 503 and every request is still taken and answered, so
 * nothing a load balancer or the kernel had already accepted is reset. Then the requests in flight
 * complete with their data, the ones sent after are refused at once (no answer, or a 503), never cut
 * mid-answer or left hanging, and the process exits 0 within its grace period.
 */
const GRACE_MS = 10_000;
const DELAY_MS = 1_500;
/** A request sent this long before the signal has reached the server: it must be answered. */
const IN_FLIGHT_MARGIN_MS = 200;
/** How a client sees a connection refused: the port closed, or a kept-alive connection ended as it sent. */
const REFUSALS = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']);
// Slow enough (10,000 log messages) that requests sent well before the signal are still running when it comes.
const SLOW_READ: PlannedRequest = { name: 'read hosts and logs', query: '{ hosts(first: 100) { name logs(first: 100) { message time } } }' };

let mongo: MongoProcess;
let client: MongoClient;
beforeAll(async () => {
  mongo = await startMongo();
  client = await MongoClient.connect(mongo.uri);
  await seedDemoData(client.db('faults'), { scale: 1 });
}, 180_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

it.each([
  ['directly', false],
  ['through npm start', true],
])('answers 40 requests sent 30 ms before SIGTERM to its process group, started %s, then exits 0', async (_how, viaNpm) => {
  const gateway = await startGateway({ config: DEMO_CONFIG, mongoUri: mongo.uri, db: 'faults', viaNpm, ownProcessGroup: true });
  const outcomes = await sigtermDuringBurst({ url: gateway.url, query: '{ hosts(first: 5) { name } }', processGroup: gateway.child.pid! });
  expect(outcomes).toEqual(Array.from({ length: 40 }, () => '200'));
  expect(await gateway.exited).toBe(0);
}, 120_000);

it.each([
  ['directly', false],
  ['through npm start', true],
])('drains under load and exits 0 on SIGTERM, started %s', async (_how, viaNpm) => {
  const gateway = await startGateway({ config: DEMO_CONFIG, mongoUri: mongo.uri, db: 'faults', viaNpm, env: { DOCJOIN_SHUTDOWN_GRACE_MS: String(GRACE_MS), DOCJOIN_SHUTDOWN_DELAY_MS: String(DELAY_MS) } });
  expect((await send(gateway.url, SLOW_READ)).outcome).toBe('acked');
  const health = gateway.url.replace('/graphql', '/health');
  const load = runLoad({ url: gateway.url, clients: 16, durationMs: 7_000, next: () => SLOW_READ, requestTimeoutMs: GRACE_MS + 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const signalledAt = Date.now();
  const exitCode = gateway.stop('SIGTERM');
  const lameDuckHealth = await healthOnceSignalled(health, signalledAt + DELAY_MS - IN_FLIGHT_MARGIN_MS);
  const records = await load;
  const code = await exitCode;
  const exitedAfterMs = Date.now() - signalledAt;

  const inFlight = records.filter((record) => record.startedAt < signalledAt - IN_FLIGHT_MARGIN_MS && record.finishedAt >= signalledAt);
  // Sent once the signal had surely arrived and well before the lame-duck period ended: taken and answered.
  const lameDuck = records.filter((record) => record.startedAt >= signalledAt + IN_FLIGHT_MARGIN_MS && record.startedAt < signalledAt + DELAY_MS - IN_FLIGHT_MARGIN_MS);
  const after = records.filter((record) => record.startedAt >= signalledAt + DELAY_MS + IN_FLIGHT_MARGIN_MS);
  report(`gateway SIGTERM (${_how})`, {
    ...figures(records, 7_000),
    inFlightAtSignal: inFlight.length,
    inFlightAnswered: inFlight.filter((record) => record.outcome === 'acked').length,
    sentInLameDuck: lameDuck.length,
    sentInLameDuckAnswered: lameDuck.filter((record) => record.outcome === 'acked').length,
    sentAfter: after.length,
    sentAfterRefused: after.filter((record) => record.failure === 'ECONNREFUSED').length,
    sentAfterReset: after.filter((record) => record.failure === 'ECONNRESET' || record.failure === 'UND_ERR_SOCKET').length,
    sentAfterRefusedMsMax: Math.max(0, ...after.filter((record) => record.outcome !== 'acked').map((record) => record.finishedAt - record.startedAt)),
    exitCode: code,
    exitedAfterMs,
  });
  expect(lameDuckHealth).toEqual([503, { status: 'draining' }]);
  expect(inFlight.length).toBeGreaterThan(0);
  expect(inFlight.filter((record) => record.outcome !== 'acked')).toEqual([]);
  expect(lameDuck.length).toBeGreaterThan(0);
  expect(lameDuck.filter((record) => record.outcome !== 'acked')).toEqual([]);
  // Refused at once: the port is closed (or a 503), well before any request timeout. A request sent on a
  // kept-alive connection just as the server ends it, idle, meets a reset: HTTP/1.1's keep-alive race,
  // which no server can close (the request never reached it).
  for (const record of after) {
    if (record.outcome === 'acked') continue;
    expect(record.status === 503 || REFUSALS.has(record.failure ?? '') ? 'refused' : `${record.status} ${record.failure}`).toBe('refused');
    expect(record.finishedAt - record.startedAt).toBeLessThan(2_000);
  }
  expect(code).toBe(0);
  expect(exitedAfterMs).toBeLessThan(DELAY_MS + GRACE_MS + 5_000);
}, 120_000);

/**
 * /health once the process has taken the signal: asked every 50 ms until it answers something else than
 * 200 or `until` passes (a busy machine may take a moment to deliver the signal), its last answer.
 */
async function healthOnceSignalled(url: string, until: number): Promise<[number, unknown]> {
  for (;;) {
    const answer: [number, unknown] = await fetch(url).then(async (response) => [response.status, await response.json()]);
    if (answer[0] !== 200 || Date.now() >= until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
