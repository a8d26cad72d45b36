import { connectMongo, createGateway, type Gateway } from 'docjoin';
import { gatewaySettingsOf, loadConfig } from '../src/config/config';
import { startEmbeddedMongo } from '../src/embedded-mongo';
import { seedDemoData } from '../seed/seed-database';
import { demoProjectOptions } from '../test/support/demo-project';
import { adviseLookupsOnDemo } from './support/advise-lookups';
import { latencyFromEnv, median } from './support/bench-support';

/**
 * Issue 36, item 4: is `docjoin advise`'s lookup advice right about what it saves? The embedded server
 * delays every reply by BENCH_LATENCY_MS (default 10 ms: a database in another zone). The demo's nested
 * operations are recorded as a workload under the schema's joins, `docjoin advise` reads it (measuring
 * the latency itself), and the same operations run again with every field it advised to read by lookup.
 * Reported: each operation's p50 both ways, and the advice's predicted change in MongoDB time per 1,000
 * operations against the change measured (the sum of the commands' durations, `extensions.cost.durationMs`,
 * both runs taken in turn, round by round). Target: the prediction within 25% of the measured change.
 */
const DEFAULT_LATENCY_MS = 10;
const SCALE = 0.2;
const ROUNDS = 15;
const OPERATIONS = [
  '{ authors(first: 50) { name books { name publisher { name books(first: 3) { name } } } } }',
  '{ people(first: 100) { firstName holdings { numberHeld stock { symbol open } } tasks { description owner { lastName } } } }',
  '{ hosts(first: 20) { name logs(first: 5) { message time } } }',
] as const;

interface Timed {
  readonly ms: number;
  readonly commandMs: number;
  readonly roundTrips: number;
}

async function main(): Promise<void> {
  const latencyMs = latencyFromEnv(DEFAULT_LATENCY_MS);
  const embedded = await startEmbeddedMongo({ latencyMs });
  const client = await connectMongo(embedded.uri);
  const dbName = 'bench_lookup_advice';
  let gateway: Gateway | undefined;
  try {
    process.stdout.write(`lookup advice: demo data at scale ${SCALE}, the embedded server delaying every reply ${latencyMs} ms\n`);
    await seedDemoData(client.db(dbName), { scale: SCALE });
    const advice = await adviseLookupsOnDemo(client, embedded.uri, dbName, OPERATIONS, ROUNDS);
    const header = advice.advised.map((field) => `${field.coordinate}=lookup`).join(',');
    const predictedPer1000 = advice.predictedMsPer1000;
    process.stdout.write(`advised by lookup: ${header || 'nothing'}\n`);
    for (const rejected of advice.rejected) process.stdout.write(`  not ${rejected}\n`);
    if (advice.advised.length === 0) return;

    const settings = gatewaySettingsOf(loadConfig({ PORT: '0', DOCJOIN_STRATEGY_OVERRIDES: 'true' }));
    gateway = await createGateway({ ...demoProjectOptions(), mongoClient: client, db: dbName, ...settings, listen: false, onWarning: () => undefined });
    const byJoin = new Map<string, Timed[]>();
    const byLookup = new Map<string, Timed[]>();
    for (const query of OPERATIONS) {
      for (let warm = 0; warm < 3; warm++) {
        await timed(gateway, query, '');
        await timed(gateway, query, header);
      }
      byJoin.set(query, []);
      byLookup.set(query, []);
      for (let round = 0; round < ROUNDS; round++) {
        byJoin.get(query)!.push(await timed(gateway, query, ''));
        byLookup.get(query)!.push(await timed(gateway, query, header));
      }
    }
    let joinCommandMs = 0;
    let lookupCommandMs = 0;
    for (const query of OPERATIONS) {
      const joined = byJoin.get(query)!;
      const looked = byLookup.get(query)!;
      joinCommandMs += joined.reduce((sum, run) => sum + run.commandMs, 0);
      lookupCommandMs += looked.reduce((sum, run) => sum + run.commandMs, 0);
      const p50 = (runs: readonly Timed[]) => median(runs.map((run) => run.ms));
      process.stdout.write(
        `  ${query.slice(0, 60)}…: join p50 ${p50(joined).toFixed(1)} ms (${joined[0]!.roundTrips} round trips), lookup p50 ${p50(looked).toFixed(1)} ms (${looked[0]!.roundTrips}); ratio ${(p50(looked) / p50(joined)).toFixed(2)}\n`,
      );
    }
    const operations = OPERATIONS.length * ROUNDS;
    const measuredPer1000 = ((lookupCommandMs - joinCommandMs) / operations) * 1000;
    const error = Math.abs(predictedPer1000 - measuredPer1000) / Math.abs(measuredPer1000);
    process.stdout.write(
      `MongoDB time per 1,000 operations: predicted change ${predictedPer1000.toFixed(0)} ms, measured ${measuredPer1000.toFixed(0)} ms ` +
        `(join ${((joinCommandMs / operations) * 1000).toFixed(0)}, lookup ${((lookupCommandMs / operations) * 1000).toFixed(0)}): off by ${(error * 100).toFixed(1)}% ` +
        `(target: within 25%: ${error <= 0.25 ? 'met' : 'NOT met'})\n`,
    );
  } finally {
    await gateway?.stop();
    await client.db(dbName).dropDatabase().catch(() => undefined);
    await client.close();
    await embedded.stop();
  }
}

/** One run of `query` with `strategyHeader`: its wall time, and the MongoDB time and round trips its cost report counts. */
async function timed(gateway: Gateway, query: string, strategyHeader: string): Promise<Timed> {
  const started = performance.now();
  const result = await gateway.execute({ query }, { strategyHeader });
  const ms = performance.now() - started;
  if (result.errors) throw new Error(`${query} (${strategyHeader || 'defaults'}): ${JSON.stringify(result.errors)}`);
  return { ms, commandMs: result.cost!.durationMs, roundTrips: result.cost!.roundTrips };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
