import { MongoClient } from 'mongodb';
import { seedDemoData } from '../../seed/seed-database';
import { DEMO_CONFIG } from '../support/demo-project';
import { report } from './support/fault-run';
import { figures, runLoad, send, type PlannedRequest } from './support/load';
import { startGateway, startMongo, type MongoProcess } from './support/processes';

/**
 * Gateway SIGTERM under load, started directly and through npm: the requests in flight when the signal
 * comes complete with their data; the ones sent after it are refused at once (no answer, or a 503),
 * never cut mid-answer or left hanging; the process exits 0 within its grace period.
 */
const GRACE_MS = 10_000;
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
  ['through npm', true],
])('drains the requests in flight and exits 0 on SIGTERM, started %s', async (_how, viaNpm) => {
  const gateway = await startGateway({ config: DEMO_CONFIG, mongoUri: mongo.uri, db: 'faults', viaNpm, env: { DOCJOIN_SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
  expect((await send(gateway.url, SLOW_READ)).outcome).toBe('acked');
  const load = runLoad({ url: gateway.url, clients: 16, durationMs: 6_000, next: () => SLOW_READ, requestTimeoutMs: GRACE_MS + 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const signalledAt = Date.now();
  const exitCode = gateway.stop('SIGTERM');
  const records = await load;
  const code = await exitCode;
  const exitedAfterMs = Date.now() - signalledAt;

  const inFlight = records.filter((record) => record.startedAt < signalledAt - IN_FLIGHT_MARGIN_MS && record.finishedAt >= signalledAt);
  const after = records.filter((record) => record.startedAt >= signalledAt);
  report(`gateway SIGTERM (${_how})`, {
    ...figures(records, 6_000),
    inFlightAtSignal: inFlight.length,
    inFlightAnswered: inFlight.filter((record) => record.outcome === 'acked').length,
    sentAfter: after.length,
    sentAfterAnswered: after.filter((record) => record.outcome === 'acked').length,
    sentAfterRefused: after.filter((record) => record.failure === 'ECONNREFUSED').length,
    sentAfterReset: after.filter((record) => record.failure === 'ECONNRESET' || record.failure === 'UND_ERR_SOCKET').length,
    sentAfterRefusedMsMax: Math.max(0, ...after.filter((record) => record.outcome !== 'acked').map((record) => record.finishedAt - record.startedAt)),
    exitCode: code,
    exitedAfterMs,
  });
  expect(inFlight.length).toBeGreaterThan(0);
  expect(inFlight.filter((record) => record.outcome !== 'acked')).toEqual([]);
  // Refused at once: the port is closed (or a 503), well before any request timeout. A request sent on a
  // kept-alive connection just as the server ends it, idle, meets a reset: HTTP/1.1's keep-alive race,
  // which no server can close (the request never reached it).
  for (const record of after) {
    if (record.outcome === 'acked') continue;
    expect(record.status === 503 || REFUSALS.has(record.failure ?? '') ? 'refused' : `${record.status} ${record.failure}`).toBe('refused');
    expect(record.finishedAt - record.startedAt).toBeLessThan(2_000);
  }
  expect(code).toBe(0);
  expect(exitedAfterMs).toBeLessThan(GRACE_MS + 5_000);
}, 120_000);
