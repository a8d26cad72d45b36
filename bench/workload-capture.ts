import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { demoProjectOptions } from '../test/support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../src/config/config';
import { startEmbeddedMongo } from '../src/embedded-mongo';
import { connectMongo, createGateway, readWorkload, WorkloadRecorder, type Gateway } from 'docjoin';
import type { CostLedger } from '../src/gateway/request/cost/cost-ledger';
import { seedDemoData } from '../seed/seed-database';
import { latencyFromEnv, median } from './support/bench-support';

/**
 * What workload capture costs: the throughput of the same operations through two gateways on one
 * database and client, one recording (to a JSON-lines file, flushed every FLUSH_MS so flushes fall
 * inside the timed rounds) and one not, side by side in one run. Each round runs OPERATIONS_PER_ROUND
 * operations (a mix of snapshot hits and misses, by-key and reverse joins, embedded reads) with
 * CONCURRENCY in flight, through `gateway.execute`, on each gateway in turn (the order alternating
 * between rounds, so a noisy neighbour slows both alike). Reported: the median of each round's
 * on ÷ off throughput (the headline: the two runs of a round are neighbours in time), the median
 * throughput of each and their ratio, and the process's CPU time per operation. The embedded server
 * delays every reply by BENCH_LATENCY_MS (default 1 ms). The bench aborts if the two gateways answer
 * different data, or if the recorded workload does not count every operation the recording gateway ran.
 *
 * Throughput on a shared machine moves by more than the effect, so the bench also times the recording
 * alone, free of that noise: folding the ledgers of the mix's operations into a recorder, FOLDS times,
 * in µs per operation, next to the share of the event loop an operation takes at the measured throughput.
 */
const DEFAULT_LATENCY_MS = 1;
const WARMUP_ROUNDS = 2;
const ROUNDS = 30;
const OPERATIONS_PER_ROUND = 200;
const CONCURRENCY = 16;
const FLUSH_MS = 1_000;
const FOLDS = 200_000;

const MIX: readonly string[] = [
  '{ books(first: 10) { name publisher { name } authors { name thumbnailUrl } } }',
  '{ books(first: 10) { name authors { name countOfBooks } } }',
  '{ people(first: 10) { holdings { stock { symbol } } tasks { description owner { lastName } } } }',
  '{ posts(first: 10) { recentComments { author } } }',
  '{ hosts(first: 5) { name logs(first: 3) { message } } }',
];

async function executeOrThrow(gateway: Gateway, query: string): Promise<string> {
  const result = await gateway.execute({ query });
  if (result.errors !== undefined) throw new Error(`${query} answered errors: ${result.errors.map((error) => error.message).join('; ')}`);
  return JSON.stringify(result.data);
}

/** What one round measured. */
interface RoundResult {
  readonly opsPerSecond: number;
  /** The process's CPU time (user + system) per operation: the gateway, the driver and the embedded server. */
  readonly cpuUs: number;
}

/** One round: OPERATIONS_PER_ROUND operations of the mix, CONCURRENCY at a time. */
async function round(gateway: Gateway): Promise<RoundResult> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < OPERATIONS_PER_ROUND) {
      const query = MIX[next++ % MIX.length]!;
      await executeOrThrow(gateway, query);
    }
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { opsPerSecond: OPERATIONS_PER_ROUND / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / OPERATIONS_PER_ROUND };
}

/** The mix's ledgers, as the plugin gets them (each operation run once), folded FOLDS times: µs per fold. */
async function foldMicroseconds(gateway: Gateway): Promise<number> {
  const ledgers: CostLedger[] = [];
  for (const query of MIX) {
    const contextValue = gateway.createContext();
    await gateway.apollo.executeOperation({ query }, { contextValue });
    ledgers.push(contextValue.ledger);
  }
  const recorder = new WorkloadRecorder();
  for (let index = 0; index < FOLDS / 10; index++) recorder.record('query', ledgers[index % ledgers.length]!); // warm-up
  const started = performance.now();
  for (let index = 0; index < FOLDS; index++) recorder.record('query', ledgers[index % ledgers.length]!);
  return ((performance.now() - started) * 1000) / FOLDS;
}

async function main(): Promise<void> {
  const started = performance.now();
  const latencyMs = latencyFromEnv(DEFAULT_LATENCY_MS);
  const embedded = await startEmbeddedMongo({ latencyMs });
  const client = await connectMongo(embedded.uri);
  const folder = mkdtempSync(join(os.tmpdir(), 'docjoin-bench-workload-'));
  const file = join(folder, 'workload.jsonl');
  const gateways: Gateway[] = [];
  try {
    const db = client.db(`bench_workload_${new ObjectId().toHexString()}`);
    await seedDemoData(db, { scale: 1 });
    const options = { db, mongoClient: client, mongoKind: 'embedded' as const, ...demoProjectOptions(), ...gatewaySettingsOf(loadConfig({ PORT: '0' })), listen: false };
    const off = await createGateway(options);
    gateways.push(off);
    const on = await createGateway({ ...options, workload: { file, flushIntervalMs: FLUSH_MS } });
    gateways.push(on);

    for (const query of MIX) {
      if ((await executeOrThrow(off, query)) !== (await executeOrThrow(on, query))) throw new Error(`${query}: the recording gateway answered other data`);
    }
    let recorded = 1; // the check above, once per operation of the mix
    for (let warmup = 0; warmup < WARMUP_ROUNDS; warmup++) {
      await round(off);
      await round(on);
      recorded += 1;
    }
    const throughput = { off: [] as number[], on: [] as number[] };
    const cpu = { off: [] as number[], on: [] as number[] };
    for (let index = 0; index < ROUNDS; index++) {
      // Alternate which goes first, so that neither always runs after the other's garbage.
      const order = index % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const which of order) {
        const result = await round(which === 'off' ? off : on);
        throughput[which].push(result.opsPerSecond);
        cpu[which].push(result.cpuUs);
      }
      recorded += 1;
    }
    await on.stop(); // the last flush
    gateways.pop();
    const foldUs = await foldMicroseconds(off);

    const summary = await readWorkload({ file });
    const expected = MIX.length + (recorded - 1) * OPERATIONS_PER_ROUND;
    if (summary.operations.query.count !== expected) throw new Error(`the workload counts ${summary.operations.query.count} operations, the gateway ran ${expected}`);
    const lines = readFileSync(file, 'utf8').trim().split('\n').length;

    const medianOff = median(throughput.off);
    const medianOn = median(throughput.on);
    const ratio = medianOn / medianOff;
    // Each round's two runs were neighbours in time: their ratio is steadier than the medians' (which
    // come from different rounds, so a neighbour's burst moves one and not the other).
    const pairedRatio = median(throughput.on.map((value, index) => value / throughput.off[index]!));
    const cpus = os.cpus();
    process.stdout.write(
      `\nembedded server, every reply delayed ${latencyMs} ms (BENCH_LATENCY_MS); demo data at scale 1; ${MIX.length} operations in turn, ${CONCURRENCY} in flight; ` +
        `${ROUNDS} rounds of ${OPERATIONS_PER_ROUND} after ${WARMUP_ROUNDS} warm-up rounds\n`,
    );
    process.stdout.write(`  ${'workload capture'.padEnd(40)}${'median ops/s'.padStart(16)}${'min'.padStart(10)}${'max'.padStart(10)}${'median CPU µs/op'.padStart(20)}\n`);
    for (const which of ['off', 'on'] as const) {
      const values = throughput[which];
      const label = which === 'off' ? 'off' : `on (file, flushed every ${FLUSH_MS} ms)`;
      process.stdout.write(
        `  ${label.padEnd(40)}${median(values).toFixed(0).padStart(16)}${Math.min(...values).toFixed(0).padStart(10)}${Math.max(...values).toFixed(0).padStart(10)}${median(cpu[which]).toFixed(0).padStart(20)}\n`,
      );
    }
    process.stdout.write(
      `  on ÷ off: ${pairedRatio.toFixed(3)}, the median of each round's ratio (recording costs ${((1 - pairedRatio) * 100).toFixed(1)}% of throughput; target < 5%); ` +
        `${ratio.toFixed(3)} of the medians; CPU per operation ${(median(cpu.on) / median(cpu.off)).toFixed(3)};\n  ` +
        `${summary.operations.query.count} operations recorded in ${lines} flushes, ${summary.fields.length} (field, strategy) entries\n`,
    );
    // The gateway, the driver and the embedded server share one JavaScript thread: at the measured
    // throughput each operation has 1 / throughput of it, and the fold runs on it.
    const operationUs = 1e6 / medianOff;
    process.stdout.write(
      `  recording alone: ${foldUs.toFixed(2)} µs per operation (the mix's ledgers folded ${FOLDS.toLocaleString('en')} times), ` +
        `${((foldUs / operationUs) * 100).toFixed(2)}% of the ${(operationUs / 1000).toFixed(2)} ms of the event loop each operation takes at that throughput\n`,
    );
    process.stdout.write(`\nnode ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}; total ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    await db.dropDatabase();
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await client.close();
    await embedded.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
