import { spawnSync } from 'node:child_process';
import { calculateObjectSize, serialize, type Document } from 'bson';
import { MongoClient, ObjectId, type Collection, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../src/embedded-mongo';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { Store } from '../src/embedded-mongo/storage/store';
import { decodeBsonDocument } from '../src/embedded-mongo/wire/bson-document';
import { generateHostsLogMessages } from '../seed/generators/hosts-log-messages';
import { median } from './support/bench-support';

/**
 * The embedded server through the real driver (and MONGODB_URI when set):
 * - throughput: findOne by _id, find with $in over 1,000 ids in 100,000 documents, insertMany of 10,000;
 * - latency of the gateway's reads: the reverse-join aggregate of `{ hosts(first: 20) { logs(first: 5) } }`
 *   over the demo's 100,000 log messages, and find with sort + limit 20 over 100,000 documents;
 * - memory: the store's heap per byte of BSON it holds, measured in a child process run with
 *   `--expose-gc` (in-process, no driver: documents decoded from BSON exactly as the wire does).
 *   A case above 4× (store + one index) prints FAIL and makes the run exit non-zero (a coarse regression guard).
 * Each time is the median of RUNS timed runs after one warm-up run.
 */
const COLLECTION_SIZE = 100_000;
const IN_IDS = 1_000;
const INSERT_BATCH = 10_000;
const RUNS = 7;
const DEMO_HOSTS = 100; // × 1,000 log messages each
const JOINED_HOSTS = 20;
const LOGS_PER_HOST = 5;
const MEMORY_CHILD_FLAG = '--memory-child';

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

async function insertInBatches<T extends Document>(collection: Collection<T>, docs: T[]): Promise<void> {
  for (let start = 0; start < docs.length; start += INSERT_BATCH) {
    await collection.insertMany(docs.slice(start, start + INSERT_BATCH) as never[], { ordered: false });
  }
}

/** The demo's hosts and log messages with the log index the gateway relies on. */
async function seedDemoLogs(db: Db): Promise<ObjectId[]> {
  const { hosts, logMessages } = generateHostsLogMessages({ hosts: DEMO_HOSTS });
  await insertInBatches(db.collection('hosts'), hosts);
  await insertInBatches(db.collection('logMessages'), logMessages);
  await db.collection('logMessages').createIndex({ 'host.id': 1, time: -1 });
  return hosts.map((host) => host._id);
}

/** What src/gateway/request/loaders/reverse-join-loader.ts sends for `{ hosts(first: 20) { name logs(first: 5) { message } } }`. */
function reverseJoinPipeline(hostIds: readonly ObjectId[]): Document[] {
  const sortBy = { time: -1, _id: -1 };
  return [
    { $match: { 'host.id': { $in: hostIds } } },
    { $sort: sortBy },
    { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
    { $group: { _id: '$host.id', docs: { $topN: { n: LOGS_PER_HOST, sortBy, output: '$$ROOT' } } } },
    { $unwind: '$docs' },
    { $replaceRoot: { newRoot: '$docs' } },
  ];
}

/** The gateway's reverse join with a per-parent limit: one indexed, limited `$unionWith` branch per host. */
function unionReverseJoinPipeline(hostIds: readonly ObjectId[]): Document[] {
  const branch = (hostId: ObjectId): Document[] => [
    { $match: { 'host.id': hostId } },
    { $sort: { time: -1, _id: -1 } },
    { $limit: LOGS_PER_HOST },
    { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
  ];
  const [first, ...rest] = hostIds;
  return [...branch(first!), ...rest.map((hostId) => ({ $unionWith: { coll: 'logMessages', pipeline: branch(hostId) } }))];
}

async function benchTarget(label: string, uri: string): Promise<void> {
  const client = await MongoClient.connect(uri);
  const db = client.db(`bench_${new ObjectId().toHexString()}`);
  try {
    const people = db.collection<Person>('people');
    const seedStarted = performance.now();
    const seeded = makePeople(COLLECTION_SIZE);
    await insertInBatches(people, seeded);
    const seedMs = performance.now() - seedStarted;
    const demoStarted = performance.now();
    const hostIds = await seedDemoLogs(db);
    const demoMs = performance.now() - demoStarted;
    const logs = db.collection('logMessages');
    const pick = (count: number, offset: number): ObjectId[] =>
      Array.from({ length: count }, (_, i) => seeded[(offset + i * 97) % seeded.length]!._id);
    const firstIds = seeded.map((person) => person._id.toHexString()).sort().slice(0, 20);

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
      {
        name: `reverse join: ${JOINED_HOSTS} hosts × top ${LOGS_PER_HOST} logs`,
        ops: 1,
        run: async (runIndex) => {
          const start = ((runIndex + 1) * JOINED_HOSTS) % (DEMO_HOSTS - JOINED_HOSTS);
          const docs = await logs.aggregate(reverseJoinPipeline(hostIds.slice(start, start + JOINED_HOSTS))).toArray();
          if (docs.length !== JOINED_HOSTS * LOGS_PER_HOST) throw new Error(`reverse join returned ${docs.length} documents`);
        },
      },
      {
        name: `reverse join, $unionWith: ${JOINED_HOSTS} × top ${LOGS_PER_HOST}`,
        ops: 1,
        run: async (runIndex) => {
          const start = ((runIndex + 1) * JOINED_HOSTS) % (DEMO_HOSTS - JOINED_HOSTS);
          const docs = await logs.aggregate(unionReverseJoinPipeline(hostIds.slice(start, start + JOINED_HOSTS))).toArray();
          if (docs.length !== JOINED_HOSTS * LOGS_PER_HOST) throw new Error(`reverse join ($unionWith) returned ${docs.length} documents`);
        },
      },
      {
        name: 'find({}).sort({ _id: 1 }).limit(20)',
        ops: 20,
        run: async () => {
          for (let i = 0; i < 20; i++) {
            const docs = await people.find({}).sort({ _id: 1 }).limit(20).toArray();
            if (docs[0]!._id.toHexString() !== firstIds[0]) throw new Error('sort by _id returned the wrong first document');
          }
        },
      },
      {
        name: 'find({}).sort({ score: -1 }).limit(20)',
        ops: 5,
        run: async () => {
          for (let i = 0; i < 5; i++) {
            const docs = await people.find({}).sort({ score: -1 }).limit(20).toArray();
            if (docs[0]!.score !== (COLLECTION_SIZE - 1) * 1.5) throw new Error('sort by score returned the wrong first document');
          }
        },
      },
      {
        name: 'find({ host.id }).sort({ time: -1 }).limit(20)',
        ops: 20,
        run: async (runIndex) => {
          for (let i = 0; i < 20; i++) {
            const host = hostIds[((runIndex + 1) * 20 + i) % hostIds.length]!;
            const docs = await logs.find({ 'host.id': host }).sort({ time: -1 }).limit(20).toArray();
            if (docs.length !== 20) throw new Error(`indexed sort + limit returned ${docs.length} documents`);
          }
        },
      },
    ];

    process.stdout.write(`\n${label}: ${uri}\n`);
    process.stdout.write(`  seeded ${COLLECTION_SIZE} people in ${seedMs.toFixed(0)} ms, ${DEMO_HOSTS * 1000} demo log messages in ${demoMs.toFixed(0)} ms\n`);
    for (const measurement of measurements) {
      const { opsPerSecond, msPerOp } = await measure(measurement);
      process.stdout.write(
        `  ${measurement.name.padEnd(48)} ${opsPerSecond.toFixed(1).padStart(10)} ops/s  ${msPerOp.toFixed(3).padStart(9)} ms/op\n`,
      );
    }
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

/** Runs the memory measurement in a fresh process with `--expose-gc`, so nothing else is on its heap. */
function benchMemory(): void {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, MEMORY_CHILD_FLAG], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`memory benchmark failed (exit ${String(result.status ?? result.signal)})`);
}

interface MemoryCase {
  readonly label: string;
  readonly documents: () => Document[];
  readonly index: Document;
}

const MEMORY_CASES: readonly MemoryCase[] = [
  {
    label: 'demo logMessages (~150 B BSON each)',
    documents: () => generateHostsLogMessages({ hosts: DEMO_HOSTS }).logMessages,
    index: { 'host.id': 1, time: -1 },
  },
  {
    label: 'people, no _id sent (~100 B BSON each)',
    documents: () => makePeople(COLLECTION_SIZE).map(({ _id, ...rest }) => rest),
    index: { group: 1 },
  },
];

/** In the child: heap growth of a Store holding each case, per byte of the BSON it stores. */
function memoryChild(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const collect = (): number => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  process.stdout.write('\nmemory: heapUsed growth ÷ BSON size of the stored documents (node --expose-gc, in-process)\n');
  for (const memoryCase of MEMORY_CASES) {
    // insert commands as the driver sends them, decoded as the wire layer decodes them
    let messages: Uint8Array[] | undefined = [];
    const docs = memoryCase.documents();
    for (let start = 0; start < docs.length; start += INSERT_BATCH) {
      messages.push(serialize({ insert: 'c', documents: docs.slice(start, start + INSERT_BATCH), $db: 'bench' }));
    }
    docs.length = 0;
    const before = collect();
    const store = new Store();
    const commands = dataCommands(store);
    const context = { db: 'bench', connectionId: 0 };
    for (const message of messages) void commands.insert!(decodeBsonDocument(message), context);
    messages = undefined;
    const loaded = collect();
    void commands.createIndexes!({ createIndexes: 'c', indexes: [{ key: memoryCase.index, name: 'extra' }] }, context);
    const indexed = collect();
    let bsonBytes = 0;
    const collection = store.collection('bench', 'c')!;
    for (const doc of collection.currentDocuments()) bsonBytes += calculateObjectSize(doc);
    const ratio = (bytes: number): string => `${(bytes / bsonBytes).toFixed(2)}×`;
    const withIndex = (indexed - before) / bsonBytes;
    const verdict = withIndex > MEMORY_LIMIT_RATIO ? `FAIL (over ${MEMORY_LIMIT_RATIO}×)` : 'ok';
    process.stdout.write(
      `  ${memoryCase.label.padEnd(40)} ${collection.size} docs, BSON ${(bsonBytes / 1e6).toFixed(1)} MB: ` +
        `store ${ratio(loaded - before)}, + index ${JSON.stringify(memoryCase.index)} ${ratio(indexed - before)} ${verdict}\n`,
    );
    if (withIndex > MEMORY_LIMIT_RATIO) process.exitCode = 1;
  }
}

/**
 * A coarse regression guard, not a target: the issue asks for "about 3×" the BSON size; above 4×
 * (store + one secondary index) the memory run fails and `npm run bench` exits non-zero.
 */
const MEMORY_LIMIT_RATIO = 4;

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
  benchMemory();
}

if (process.argv.includes(MEMORY_CHILD_FLAG)) {
  memoryChild();
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
