import os from 'node:os';
import { demoProjectOptions } from '../test/support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../src/config/config';
import { startEmbeddedMongo } from '../src/embedded-mongo';
import { connectMongo, createGateway, type Gateway } from 'docjoin';
import { seedDemoData } from '../seed/seed-database';
import { median } from './support/bench-support';

/**
 * What refusing an exponential response costs, next to answering a small query, on the demo data
 * (scale 1), in one process and in turn (a noisy neighbour slows both alike): the query of issue 39,
 * `books(first: 100)` nested eight levels through `authors` and `books`, which once took 16 s to build
 * and then failed on its 107 MB, must be refused on its estimated response objects with no round trip.
 * Every run is checked: the refusal is COST_LIMIT_EXCEEDED on `responseNodes` with 0 round trips, the
 * small query answers with data.
 */
const RUNS = 200;
const WARMUP_RUNS = 20;
const EXPONENTIAL = '{ books(first: 100) { authors { books { authors { books { authors { books { authors { name } } } } } } } } }';
const SMALL = '{ books(first: 5) { name publisher { name } } }';

async function refused(gateway: Gateway): Promise<number> {
  const started = performance.now();
  const result = await gateway.execute({ query: EXPONENTIAL });
  const ms = performance.now() - started;
  const limit = (result.errors?.[0]?.extensions?.cost as { limit?: string } | undefined)?.limit;
  if (limit !== 'responseNodes' || result.cost?.roundTrips !== 0) throw new Error(`the exponential query was not refused before any read: ${JSON.stringify(result.errors ?? result.cost)}`);
  return ms;
}

async function answered(gateway: Gateway): Promise<number> {
  const started = performance.now();
  const result = await gateway.execute({ query: SMALL });
  const ms = performance.now() - started;
  if (result.errors || !result.data) throw new Error(`the small query failed: ${JSON.stringify(result.errors)}`);
  return ms;
}

async function main(): Promise<void> {
  const embedded = await startEmbeddedMongo();
  const client = await connectMongo(embedded.uri);
  try {
    const db = client.db('bench_limits');
    await seedDemoData(db, { scale: 1 });
    const gateway = await createGateway({ ...demoProjectOptions(), ...gatewaySettingsOf(loadConfig({ PORT: '0' })), db, mongoClient: client, listen: false });
    try {
      const times = { refused: [] as number[], answered: [] as number[] };
      for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
        const refusal = await refused(gateway);
        const answer = await answered(gateway);
        if (run >= WARMUP_RUNS) {
          times.refused.push(refusal);
          times.answered.push(answer);
        }
      }
      const refusedMs = median(times.refused);
      const answeredMs = median(times.answered);
      process.stdout.write(`demo data at scale 1, embedded server, ${RUNS} runs of each in turn after ${WARMUP_RUNS} warm-up runs; medians\n`);
      process.stdout.write(`  refused (issue 39's query, 0 round trips)   ${refusedMs.toFixed(3)} ms\n`);
      process.stdout.write(`  answered ${SMALL}   ${answeredMs.toFixed(3)} ms\n`);
      process.stdout.write(`  refusal ÷ small query: ${(refusedMs / answeredMs).toFixed(2)}×\n`);
      const cpus = os.cpus();
      process.stdout.write(`node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}\n`);
    } finally {
      await gateway.stop();
    }
  } finally {
    await client.close();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
