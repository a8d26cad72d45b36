import { checkWrites, demoDrift, initialValues, mixedRequest, readDemoIds } from './support/demo-workload';
import { figures, runLoad } from './support/load';
import { memoryGrowth, sampleMemory } from './support/memory';
import { startDemoStack, type DemoStack } from './support/demo-stack';
import { FAULT_RUN, report } from './support/fault-run';

/**
 * Mixed load: 16 clients send the demo's reads and, in one request of ten, its mutations (comments,
 * renames, task reassignments) to `docjoin serve` over HTTP, with the embedded MongoDB in its own
 * process, for FAULT_RUN.loadMs after a warm-up of the same load. Afterwards every acknowledged write
 * is in the database, every final value traces to a write that was acknowledged or unanswered,
 * reconcile finds no drift, and no request failed. Resident memory is recorded every second; over the
 * soak (FAULTS_SOAK=1) it must not grow by 10% from the first 10 s to the last.
 */
let stack: DemoStack;
beforeAll(async () => {
  stack = await startDemoStack();
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

it('loses no acknowledged write, leaves no drift, answers every request, and (soak) holds its memory flat', async () => {
  const { db, gateway } = stack;
  const ids = await readDemoIds(db);
  // The warm-up's clients are numbered apart, so its writes' values are unlike any of the measured run's.
  await runLoad({ url: gateway.url, clients: 16, durationMs: FAULT_RUN.warmupMs, next: (c, n) => mixedRequest(ids, c + 1000, n) });
  const initial = await initialValues(db);
  const memory = sampleMemory(gateway.child.pid!);
  const records = await runLoad({ url: gateway.url, clients: 16, durationMs: FAULT_RUN.loadMs, next: (c, n) => mixedRequest(ids, c, n) });
  const samples = memory.stop();
  const load = figures(records, FAULT_RUN.loadMs);
  const rss = memoryGrowth(samples, 10_000);
  const writes = records.filter((record) => record.request.write);
  const violations = await checkWrites(db, records, initial);
  const drift = await demoDrift(db);
  report('mixed load', {
    ...load,
    writes: writes.length,
    writesAcked: writes.filter((record) => record.outcome === 'acked').length,
    rssFirstMiB: Math.round(rss.firstBytes / 2 ** 20),
    rssLastMiB: Math.round(rss.lastBytes / 2 ** 20),
    rssGrowthPercent: Math.round(rss.growth * 1000) / 10,
    rssMiBEvery10s: samples.filter((_, index) => index % 10 === 0).map((sample) => Math.round(sample.rssBytes / 2 ** 20)),
    drifted: drift.drifted,
    violations: violations.length,
  });
  expect(violations).toEqual([]);
  expect(drift.checks.filter((check) => check.drifted > 0)).toEqual([]);
  expect(load).toMatchObject({ refused: 0, unknown: 0 });
  expect(writes.length).toBeGreaterThan(0);
  // Resident memory also moves with the garbage V8 lets pile up between collections (its heap settles
  // over minutes): judged over the soak; memory-retention.test.ts judges what requests leave behind.
  if (FAULT_RUN.soak) expect(rss.growth).toBeLessThan(0.1);
  expect(await gateway.stop('SIGTERM')).toBe(0);
}, FAULT_RUN.warmupMs + FAULT_RUN.loadMs + 120_000);
