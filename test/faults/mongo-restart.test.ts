import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWrites, initialValues, mixedRequest, readDemoIds } from './support/demo-workload';
import { report } from './support/fault-run';
import { figures, runLoad, send, type RequestRecord } from './support/load';
import { startDemoStack, type DemoStack } from './support/demo-stack';
import { startMongo } from './support/processes';

/**
 * MongoDB killed (SIGKILL) under load and restarted on the same port 5 s later, from its data
 * directory (the embedded server's journal): while it is gone every request ends within the
 * configured bound with DATABASE_UNAVAILABLE and nothing of the server's insides (no hang, no stack,
 * no address), and /health says degraded; once it is back the gateway serves again within 5 s,
 * without a restart; and no acknowledged write is lost.
 */
const MONGO_TIMEOUT_MS = 2_000;
/** The most a request may take while MongoDB is gone: the bound, plus time to answer. */
const OUTAGE_ANSWER_MS = MONGO_TIMEOUT_MS + 3_000;
const OUTAGE_MS = 5_000;
const LEAKS = /\bat .+\(|ECONNREFUSED|127\.0\.0\.1|mongodb:\/\/|Mongo\w*Error|topology/i;

let dataDir: string;
let stack: DemoStack;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'docjoin-faults-mongo-'));
  stack = await startDemoStack({ mongoArgs: ['--data-dir', dataDir], gatewayEnv: { DOCJOIN_MONGO_TIMEOUT_MS: String(MONGO_TIMEOUT_MS) } });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers DATABASE_UNAVAILABLE within its bound while MongoDB is gone, serves again once it is back, and loses no acknowledged write', async () => {
  const { db, gateway } = stack;
  const ids = await readDemoIds(db);
  const initial = await initialValues(db);
  const health: Array<{ at: number; status: number | undefined }> = [];
  const stop = new AbortController();
  const polling = (async () => {
    while (!stop.signal.aborted) {
      const response = await fetch(`${gateway.origin}/health`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      health.push({ at: Date.now(), status: response?.status });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const load = runLoad({ url: gateway.url, clients: 8, durationMs: 60_000, next: (c, n) => mixedRequest(ids, c, n), signal: stop.signal, requestTimeoutMs: 30_000 });

  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const killedAt = Date.now();
  expect(await stack.mongo.stop('SIGKILL')).toBe('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  stack.mongo = await startMongo({ port: stack.mongo.port, args: ['--data-dir', dataDir] });
  const backAt = Date.now();
  // Serving again: the first read acknowledged after the restart.
  let servingAt: number | undefined;
  while (servingAt === undefined && Date.now() - backAt < 30_000) {
    if ((await send(gateway.url, { name: 'probe', query: '{ posts(first: 1) { title } }' }, 10_000)).outcome === 'acked') servingAt = Date.now();
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  stop.abort();
  const records = await load;
  await polling;

  const during = records.filter((record) => record.startedAt >= killedAt + 500 && record.startedAt < backAt);
  const refused = records.filter((record) => record.outcome !== 'acked');
  const healthDuring = health.filter((entry) => entry.at >= killedAt + MONGO_TIMEOUT_MS + 500 && entry.at < backAt);
  const violations = await checkWrites(db, records, initial);
  report('MongoDB killed and restarted', {
    ...figures(records, Date.now() - killedAt),
    sentDuringOutage: during.length,
    slowestDuringOutageMs: Math.max(0, ...during.map((record) => record.finishedAt - record.startedAt)),
    codesDuringOutage: [...new Set(during.flatMap((record) => record.codes))],
    healthDuringOutage: [...new Set(healthDuring.map((entry) => entry.status))],
    servingAgainAfterMs: servingAt === undefined ? undefined : servingAt - backAt,
    violations,
  });
  expect(during.length).toBeGreaterThan(0);
  for (const record of during) {
    expect(record.finishedAt - record.startedAt).toBeLessThan(OUTAGE_ANSWER_MS);
    if (record.outcome !== 'acked') expect(record.codes).toEqual(['DATABASE_UNAVAILABLE']);
  }
  expect(refused.flatMap((record: RequestRecord) => record.messages).filter((message) => LEAKS.test(message))).toEqual([]);
  expect(healthDuring.length).toBeGreaterThan(0);
  expect(healthDuring.every((entry) => entry.status === 503)).toBe(true);
  expect(servingAt).toBeDefined();
  expect(servingAt! - backAt).toBeLessThan(5_000);
  expect(violations).toEqual([]);
}, 180_000);
