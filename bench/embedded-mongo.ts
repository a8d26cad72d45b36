import { MongoClient, ObjectId, type Collection } from 'mongodb';
import { startEmbeddedMongo } from '../src/embedded-mongo';

/**
 * Throughput of the embedded server through the real driver (and of MONGODB_URI when set):
 * findOne by _id, find with $in over 1,000 ids in a 100,000-document collection, and insertMany
 * of 10,000 documents. Each figure is the median of RUNS timed runs after one warm-up run.
 */
const COLLECTION_SIZE = 100_000;
const IN_IDS = 1_000;
const INSERT_BATCH = 10_000;
const RUNS = 5;

interface Measurement {
  readonly name: string;
  /** Operations per timed run. */
  readonly ops: number;
  /** `runIndex` is -1 for the warm-up, then 0..RUNS-1. */
  readonly run: (runIndex: number) => Promise<void>;
}

interface Person {
  _id: ObjectId;
  name: string;
  group: number;
  score: number;
  tags: string[];
}

function makePeople(count: number): Person[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: new ObjectId(),
    name: `person-${i}`,
    group: i % 100,
    score: i * 1.5,
    tags: [`t${i % 7}`, `t${i % 11}`],
  }));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function measure(measurement: Measurement): Promise<{ opsPerSecond: number; msPerOp: number }> {
  await measurement.run(-1);
  const rates: number[] = [];
  for (let runIndex = 0; runIndex < RUNS; runIndex++) {
    const started = performance.now();
    await measurement.run(runIndex);
    rates.push(measurement.ops / ((performance.now() - started) / 1000));
  }
  const opsPerSecond = median(rates);
  return { opsPerSecond, msPerOp: 1000 / opsPerSecond };
}

async function seed(collection: Collection<Person>): Promise<Person[]> {
  const people = makePeople(COLLECTION_SIZE);
  for (let start = 0; start < people.length; start += INSERT_BATCH) {
    await collection.insertMany(people.slice(start, start + INSERT_BATCH), { ordered: false });
  }
  return people;
}

async function benchTarget(label: string, uri: string): Promise<void> {
  const client = await MongoClient.connect(uri);
  const db = client.db(`bench_${new ObjectId().toHexString()}`);
  try {
    const people = db.collection<Person>('people');
    const seedStarted = performance.now();
    const seeded = await seed(people);
    const seedMs = performance.now() - seedStarted;
    const pick = (count: number, offset: number): ObjectId[] =>
      Array.from({ length: count }, (_, i) => seeded[(offset + i * 97) % seeded.length]!._id);

    const findOneOps = 2_000;
    const inOps = 20;
    const measurements: Measurement[] = [
      {
        name: 'findOne({ _id })',
        ops: findOneOps,
        run: async (runIndex) => {
          for (let i = 0; i < findOneOps; i++) {
            const doc = await people.findOne({ _id: seeded[((runIndex + 1) * 7919 + i * 31) % seeded.length]!._id });
            if (doc === null) throw new Error('findOne by _id found nothing');
          }
        },
      },
      {
        name: `find({ _id: { $in: ${IN_IDS} ids } })`,
        ops: inOps,
        run: async (runIndex) => {
          for (let i = 0; i < inOps; i++) {
            const docs = await people.find({ _id: { $in: pick(IN_IDS, (runIndex + 1) * 1000 + i) } }).toArray();
            if (docs.length !== IN_IDS) throw new Error(`$in returned ${docs.length} documents, expected ${IN_IDS}`);
          }
        },
      },
      {
        name: `insertMany(${INSERT_BATCH} docs)`,
        ops: 1,
        run: async (runIndex) => {
          await db.collection<Person>(`inserts_${runIndex + 1}`).insertMany(makePeople(INSERT_BATCH));
        },
      },
    ];

    process.stdout.write(`\n${label}: ${uri}\n`);
    process.stdout.write(`  seeded ${COLLECTION_SIZE} documents in ${seedMs.toFixed(0)} ms\n`);
    for (const measurement of measurements) {
      const { opsPerSecond, msPerOp } = await measure(measurement);
      process.stdout.write(
        `  ${measurement.name.padEnd(36)} ${opsPerSecond.toFixed(1).padStart(10)} ops/s  ${msPerOp.toFixed(3).padStart(9)} ms/op\n`,
      );
    }
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

async function main(): Promise<void> {
  const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0);
  const embedded = await startEmbeddedMongo({ latencyMs });
  try {
    await benchTarget(`embedded (latencyMs ${latencyMs})`, embedded.uri);
  } finally {
    await embedded.stop();
  }
  const external = process.env.MONGODB_URI;
  if (external) await benchTarget('MONGODB_URI', external);
  process.stdout.write(`\nmedian of ${RUNS} runs after one warm-up; node ${process.version}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
