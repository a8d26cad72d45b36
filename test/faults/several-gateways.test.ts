import { MongoClient, type Db } from 'mongodb';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readWorkload } from 'docjoin';
import { seedDemoData } from '../../seed/seed-database';
import { BACKFILL_REFRESH_MS, MIGRATIONS_COLLECTION, SNAPSHOT_BACKFILL } from '../../src/gateway/operation/estimate/copy-backfills';
import { DEMO_CONFIG } from '../support/demo-project';
import { startWireProxy, type WireProxy } from '../support/wire-proxy';
import { checkWrites, demoDrift, initialValues, mixedRequest, readDemoIds } from './support/demo-workload';
import { report } from './support/fault-run';
import { figures, runLoad, send } from './support/load';
import { startGateway, startMongo, type GatewayProcess, type MongoProcess } from './support/processes';

/**
 * Several gateways, one database: three `docjoin serve` processes on one MongoDB (the embedded server
 * in its own process, transactions on), each with a third of the clients, whose writes fan out to the
 * same copies from different gateways. Gateway 0 is killed mid-fan-out (a host rename's copies held at
 * a proxy) and started again; gateway 1 is drained (SIGTERM) and started again on its port; the load
 * goes on until both are back. Afterwards: every acknowledged write is stored, reconcile finds no
 * drift, a migration marker reaches all three at their next refresh (every BACKFILL_REFRESH_MS), each
 * process's /metrics counts exactly the requests it answered, and the workload all of them recorded in
 * one collection is merged by `docjoin advise`.
 */
const CLIENTS_PER_GATEWAY = 4;
/** Load goes on this long after both gateways are back. */
const AFTER_RESTARTS_MS = 4_000;
const WORKLOAD = 'docjoin_workload';
const GATEWAY_ENV = { DOCJOIN_WORKLOAD: `collection:${WORKLOAD}`, DOCJOIN_WORKLOAD_FLUSH_MS: '500', DOCJOIN_SHUTDOWN_DELAY_MS: '500' };
const DOCJOIN_CLI = join(__dirname, '../../src/cli/bin/docjoin.ts');

/** One run of one gateway process, on the port of its slot: its /metrics count the requests it answered. */
interface Incarnation {
  readonly slot: number;
  readonly process: GatewayProcess;
  /** Spawned at; it can answer nothing before. */
  readonly spawnedAt: number;
  /** Seen to exit at; it answered nothing after. */
  exitedAt?: number;
  /** It stopped on SIGTERM, so its last workload counts were written. */
  flushed?: boolean;
}

let mongo: MongoProcess;
let proxy: WireProxy;
let client: MongoClient;
let db: Db;
beforeAll(async () => {
  mongo = await startMongo();
  client = await MongoClient.connect(mongo.uri);
  db = client.db('several');
  await seedDemoData(db, { scale: 1 });
  proxy = await startWireProxy(mongo.uri, (command) => command.update === 'logMessages');
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await client?.close();
  await mongo?.stop();
});

async function serve(slot: number, mongoUri: string, port?: number): Promise<Incarnation> {
  const spawnedAt = Date.now();
  return { slot, spawnedAt, process: await startGateway({ config: DEMO_CONFIG, mongoUri, db: 'several', env: GATEWAY_ENV, ...(port !== undefined && { port }) }) };
}

async function stop(incarnation: Incarnation, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | string> {
  const exit = await incarnation.process.stop(signal);
  incarnation.exitedAt = Date.now();
  incarnation.flushed = signal === 'SIGTERM';
  return exit;
}

/** What the gateway's estimate says of a read of Book.authors, whose snapshot copies the selection fits. */
async function estimatedRoundTrips(incarnation: Incarnation): Promise<number> {
  const response = await fetch(incarnation.process.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ books(first: 5) { authors { name } } }' }) });
  return ((await response.json()) as { extensions: { cost: { estimatedRoundTrips: number } } }).extensions.cost.estimatedRoundTrips;
}

it('three gateways on one MongoDB: a kill mid-fan-out and a drain lose no acknowledged write and leave no drift; markers, metrics and the workload reach every one', async () => {
  // Gateway 0 reaches MongoDB through the proxy that holds the first update of logMessages: a host rename's fan-out.
  const incarnations = [await serve(0, proxy.uri), await serve(1, mongo.uri), await serve(2, mongo.uri)];
  const current = [...incarnations];
  const ports = current.map((incarnation) => Number(new URL(incarnation.process.origin).port));
  const ids = await readDemoIds(db);
  const initial = await initialValues(db);
  const [host] = await db.collection('hosts').find({}, { projection: { _id: 1 }, sort: { _id: 1 }, limit: 1 }).toArray();

  // Each slot's clients keep sending to its port, through the kill and the drain; a fifth of the requests write.
  const loadStartedAt = Date.now();
  const endLoad = new AbortController();
  const loads = current.map((incarnation, slot) =>
    runLoad({
      url: incarnation.process.url,
      clients: CLIENTS_PER_GATEWAY,
      durationMs: 180_000,
      signal: endLoad.signal,
      next: (c, n) => mixedRequest(ids, slot * CLIENTS_PER_GATEWAY + c, n, 0.2),
      requestTimeoutMs: 20_000,
      pauseAfterNoAnswerMs: 50,
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const rename = send(current[0]!.process.url, { name: 'updateHost', query: 'mutation($id: ID!) { updateHost(id: $id, name: "renamed.example.com", ipaddr: "10.9.9.9") { id } }', variables: { id: String(host!._id) } });
  await proxy.held;
  expect(await stop(current[0]!, 'SIGKILL')).toBe('SIGKILL');
  current[0] = await serve(0, mongo.uri, ports[0]);
  const drainedAt = Date.now();
  expect(await stop(current[1]!, 'SIGTERM')).toBe(0);
  current[1] = await serve(1, mongo.uri, ports[1]);
  incarnations.push(current[0], current[1]);
  await new Promise((resolve) => setTimeout(resolve, AFTER_RESTARTS_MS));
  endLoad.abort();
  const loadMs = Date.now() - loadStartedAt;
  const bySlot = await Promise.all(loads);
  const records = bySlot.flat();
  const renamed = await rename;

  // Writes: every acknowledged one is stored and every final value traces to a write; the killed rename left nothing.
  const violations = await checkWrites(db, records, initial);
  const drift = await demoDrift(db);
  const hostAfter = await db.collection('hosts').findOne({ _id: host!._id }, { projection: { name: 1 } });

  // A migration marker: every gateway finds it within BACKFILL_REFRESH_MS and joins the copy being backfilled, which its estimate counts.
  const probes = new Map<Incarnation, number>();
  const probe = (incarnation: Incarnation) => {
    probes.set(incarnation, (probes.get(incarnation) ?? 0) + 1);
    return estimatedRoundTrips(incarnation);
  };
  const before = await Promise.all(current.map(probe));
  await db.collection(MIGRATIONS_COLLECTION).insertOne({ _id: 'Book.authors' as never, kind: SNAPSHOT_BACKFILL, fields: ['name'], startedAt: new Date() });
  const markedAt = Date.now();
  const markerSeenAfterMs = await Promise.all(
    current.map(async (incarnation, slot) => {
      while (Date.now() - markedAt < BACKFILL_REFRESH_MS + 10_000) {
        if ((await probe(incarnation)) === before[slot]! + 1) return Date.now() - markedAt;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return 'never';
    }),
  );
  await db.collection(MIGRATIONS_COLLECTION).deleteOne({ _id: 'Book.authors' as never });

  // Metrics: each process counts exactly the requests it answered: its slot's answered requests sent
  // while it ran (none can reach a port between one run's exit and the next one's spawn), and the probes.
  const loadOf = (incarnation: Incarnation) =>
    bySlot[incarnation.slot]!.filter((record) => record.status !== undefined && record.startedAt >= incarnation.spawnedAt && (incarnation.exitedAt === undefined || record.startedAt < incarnation.exitedAt));
  const answeredBy = (incarnation: Incarnation) => loadOf(incarnation).length + (probes.get(incarnation) ?? 0);
  const answeredWhileDraining = loadOf(incarnations[1]!).filter((record) => record.startedAt >= drainedAt).length;
  const metricsCounted = await Promise.all(current.map(async (incarnation) => requestsTotal(await (await fetch(`${incarnation.process.origin}/metrics`)).text())));
  const clientAnswered = current.map(answeredBy);
  for (const incarnation of current) expect(await stop(incarnation, 'SIGTERM')).toBe(0);

  // The workload: every gateway flushes into one collection; advise reads the flushes merged.
  const workload = await readWorkload({ collection: WORKLOAD, db });
  const recorded = workload.operations.query.count + workload.operations.mutation.count;
  const answeredByFlushed = incarnations.filter((incarnation) => incarnation.flushed).reduce((sum, incarnation) => sum + answeredBy(incarnation), 0);
  const sent = records.length + 1 + [...probes.values()].reduce((sum, n) => sum + n, 0);
  const advised = await promisify(execFile)(process.execPath, ['--import', 'tsx', DOCJOIN_CLI, 'advise', '--config', DEMO_CONFIG, '--mongo-uri', mongo.uri, '--db', 'several', '--workload-collection', WORKLOAD], { cwd: join(__dirname, '../..') });

  report('several gateways', {
    ...figures(records, loadMs),
    loadMs,
    answeredWhileDraining,
    restartedAnswered: [loadOf(current[0]!).length, loadOf(current[1]!).length],
    bySlot: bySlot.map((slot) => slot.length),
    writes: records.filter((record) => record.request.write).length,
    writesAcked: records.filter((record) => record.request.write && record.outcome === 'acked').length,
    killedRename: renamed.outcome,
    drifted: drift.drifted,
    violations: violations.length,
    markerSeenAfterMs,
    metricsCounted,
    clientAnswered,
    workloadOperations: recorded,
    answeredByFlushed,
    workloadWindows: workload.windows,
  });
  expect(violations).toEqual([]);
  expect(drift.checks.filter((check) => check.drifted > 0)).toEqual([]);
  expect([renamed.outcome, hostAfter?.name]).toEqual(['unknown', expect.not.stringMatching(/^renamed/)]);
  expect(records.filter((record) => record.request.write && record.outcome === 'acked').length).toBeGreaterThan(0);
  expect(markerSeenAfterMs.filter((ms) => ms === 'never')).toEqual([]);
  // The drain and both restarts were under load: the drained gateway answered during its lame duck, the new ones served.
  expect(answeredWhileDraining).toBeGreaterThan(0);
  expect(loadOf(current[0]!).length).toBeGreaterThan(0);
  expect(loadOf(current[1]!).length).toBeGreaterThan(0);
  expect(metricsCounted).toEqual(clientAnswered);
  // Every flush of the processes that stopped on SIGTERM is there; the killed one's last window died with it.
  expect(recorded).toBeGreaterThanOrEqual(answeredByFlushed);
  expect(recorded).toBeLessThanOrEqual(sent);
  expect(advised.stdout).toContain(`workload from collection ${WORKLOAD}: ${workload.operations.query.count} queries and ${workload.operations.mutation.count} mutations in ${workload.windows} window(s)`);
}, 240_000);

/** The sum of every docjoin_requests_total series in a Prometheus text exposition. */
function requestsTotal(metrics: string): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith('docjoin_requests_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
