import { demoProjectOptions } from '../test/support/demo-project';
import os from 'node:os';
import { MongoClient, ObjectId, type Collection, type Db, type Document, type Filter } from 'mongodb';
import { gatewaySettingsOf, loadConfig } from '../src/config/config';
import { startEmbeddedMongo } from '../src/embedded-mongo';
import { connectMongo, createGateway, type CostReport, type Gateway } from 'docjoin';
import { declaredStrategies, type ReadStrategy, type RelationField } from '../src/gateway';
import type { AuthorDoc, BookDoc, CommentDoc, HostDoc, LogMessageDoc, PersonDoc, PostDoc, PublisherDoc, StockDoc, TaskDoc } from '../seed/demo-documents';
import { seedDemoData } from '../seed/seed-database';
import { latencyFromEnv } from './support/bench-support';

/**
 * What the read strategies cost, side by side, on the demo data (scale 1) through the real driver:
 * the round-trip-pinned operations of issue 3, each under every combination of strategies its switchable
 * fields declare (found from the `extensions.cost.fields` of a first run), plus a naive baseline: the same
 * data fetched the way one-query-per-parent resolvers would, written by hand with the driver.
 *
 * The embedded server delays every reply by BENCH_LATENCY_MS (default 1 ms) to stand for a network round
 * trip; with MONGODB_URI set, the same runs follow against that server (in a fresh database, dropped after).
 * Every operation is warmed up before any is timed; the variants of one operation then run in turn (one
 * run of each per round), so a noisy neighbour slows them alike. Every run's `data` must equal the first
 * variant's, and its round trips its own first run's, or the bench aborts.
 */
const DEFAULT_LATENCY_MS = 1;
const WARMUP_RUNS = 5;
const RUNS = 40;
/** The driver commands a read sends (the naive loop's round trips; handshakes are not command events). */
const READ_COMMANDS: ReadonlySet<string> = new Set(['find', 'aggregate', 'getMore']);

interface BenchOperation {
  readonly query: string;
  /** Not one of issue 3's pinned operations: what it is here to show, which they leave out. */
  readonly extra?: string;
  /** The same `data` the way one-query-per-parent resolvers fetch it (see `naive*` below). */
  readonly naive: (db: Db) => Promise<unknown>;
}

const OPERATIONS: readonly BenchOperation[] = [
  {
    query: '{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }',
    naive: (db) => naiveBooks(db, 'thumbnailUrl'),
  },
  {
    query: '{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }',
    naive: (db) => naiveBooks(db, 'countOfBooks'),
  },
  {
    query: '{ people(first: 100) { holdings { stock { symbol } } tasks { description owner { lastName } } } }',
    naive: naivePeople,
  },
  {
    query: '{ hosts(first: 20) { name logs(first: 5) { message } } }',
    naive: (db) => naiveHostLogs(db, 'logs', 5),
  },
  {
    query: '{ posts(first: 10) { recentComments { author } } }',
    naive: naivePosts,
  },
  {
    query: '{ hosts(first: 20) { name recentLogs { message } } }',
    extra: 'Host.recentLogs',
    naive: (db) => naiveHostLogs(db, 'recentLogs', 10),
  },
  {
    query: '{ posts(first: 10) { commentsAggregate { count max { createdAt } groupBy(by: [AUTHOR], first: 3, order: COUNT_DESC) { key { author } count } } } }',
    extra: 'an @aggregate against reading every comment',
    naive: naiveCommentFigures,
  },
];

/** One timed run: what it returned and what it sent. */
interface Sample {
  readonly ms: number;
  /** `data` as JSON (key order follows the selection, for the gateway and the naive loop alike). */
  readonly json: string;
  readonly roundTrips: number;
  readonly naiveRoundTrips: number | undefined;
}

interface Variant {
  readonly label: string;
  readonly isNaive: boolean;
  readonly run: () => Promise<Sample>;
}

interface Row {
  readonly label: string;
  readonly isNaive: boolean;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly roundTrips: number;
  readonly naiveRoundTrips: number | undefined;
}

// ---- the naive baseline -------------------------------------------------------------------------------
//
// What resolvers without batching send, over the normalized shape of every relation (its @join): one query
// for the root list, then one query per parent for each relation, and one findOne per id for an array of
// references (`Book.authors`, `Person.tasks`), as a resolver per list item does. Sibling resolvers run
// concurrently, as graphql-js runs them (all parents of a level are in flight together on the driver's
// pool), so this is the fair naive, not a sequential loop. It skips GraphQL parsing and execution, which
// only makes it faster than real naive resolvers.

function byId<T extends { _id: ObjectId }>(collection: Collection<T>, id: ObjectId, projection: Document): Promise<T | null> {
  return collection.findOne({ _id: id } as Filter<T>, { projection }) as Promise<T | null>;
}

function rootList<T extends { _id: ObjectId }>(collection: Collection<T>, first: number, projection: Document): Promise<T[]> {
  return collection.find({}, { sort: { _id: 1 }, limit: first, projection }).toArray() as Promise<T[]>;
}

function present<T>(value: T | null): value is T {
  return value !== null;
}

async function naiveBooks(db: Db, authorField: 'thumbnailUrl' | 'countOfBooks'): Promise<unknown> {
  const publishers = db.collection<PublisherDoc>('publishers');
  const authors = db.collection<AuthorDoc>('authors');
  const books = await rootList(db.collection<BookDoc>('books'), 50, { name: 1, publisherId: 1, 'authors.id': 1 });
  return {
    books: await Promise.all(
      books.map(async (book) => {
        const [publisher, bookAuthors] = await Promise.all([
          byId(publishers, book.publisherId, { name: 1 }),
          Promise.all(book.authors.map((ref) => byId(authors, ref.id, { name: 1, [authorField]: 1 }))),
        ]);
        return {
          name: book.name,
          publisher: publisher && { name: publisher.name },
          authors: bookAuthors.filter(present).map((author) => ({ name: author.name, [authorField]: author[authorField] })),
        };
      }),
    ),
  };
}

async function naivePeople(db: Db): Promise<unknown> {
  const people = db.collection<PersonDoc>('people');
  const stocks = db.collection<StockDoc>('stocks');
  const tasks = db.collection<TaskDoc>('tasks');
  const task = async (id: ObjectId) => {
    const found = await byId(tasks, id, { description: 1, ownerId: 1 });
    if (found === null) return null;
    const owner = await byId(people, found.ownerId, { lastName: 1 });
    return { description: found.description, owner: owner && { lastName: owner.lastName } };
  };
  const page = await rootList(people, 100, { 'holdings.stockId': 1, taskIds: 1 });
  return {
    people: await Promise.all(
      page.map(async (person) => {
        const [holdings, personTasks] = await Promise.all([
          Promise.all(
            person.holdings.map(async (holding) => {
              const stock = await byId(stocks, holding.stockId, { symbol: 1 });
              return { stock: stock && { symbol: stock.symbol } };
            }),
          ),
          Promise.all(person.taskIds.map(task)),
        ]);
        return { holdings, tasks: personTasks.filter(present) };
      }),
    ),
  };
}

/** `Host.logs(first)` and `Host.recentLogs` (the newest 10) both read the host's newest log messages. */
async function naiveHostLogs(db: Db, field: 'logs' | 'recentLogs', perHost: number): Promise<unknown> {
  const logMessages = db.collection<LogMessageDoc>('logMessages');
  const hosts = await rootList(db.collection<HostDoc>('hosts'), 20, { name: 1 });
  return {
    hosts: await Promise.all(
      hosts.map(async (host) => {
        const logs = await logMessages.find({ 'host.id': host._id }, { sort: { time: -1, _id: -1 }, limit: perHost, projection: { message: 1 } }).toArray();
        return { name: host.name, [field]: logs.map((log) => ({ message: log.message })) };
      }),
    ),
  };
}

async function naivePosts(db: Db): Promise<unknown> {
  const comments = db.collection<CommentDoc>('comments');
  const posts = await rootList(db.collection<PostDoc>('posts'), 10, { _id: 1 });
  return {
    posts: await Promise.all(
      posts.map(async (post) => {
        const recent = await comments.find({ postId: post._id }, { sort: { createdAt: -1, _id: -1 }, limit: 3, projection: { author: 1 } }).toArray();
        return { recentComments: recent.map((comment) => ({ author: comment.author })) };
      }),
    ),
  };
}

/** The figures of each post's comments the way a hand-written resolver computes them: every comment read, then counted in JavaScript. */
async function naiveCommentFigures(db: Db): Promise<unknown> {
  const comments = db.collection<CommentDoc>('comments');
  const posts = await rootList(db.collection<PostDoc>('posts'), 10, { _id: 1 });
  return {
    posts: await Promise.all(
      posts.map(async (post) => {
        const own = await comments.find({ postId: post._id }, { projection: { author: 1, createdAt: 1 } }).toArray();
        const perAuthor = new Map<string, number>();
        for (const comment of own) perAuthor.set(comment.author, (perAuthor.get(comment.author) ?? 0) + 1);
        const newest = own.reduce<Date | null>((latest, comment) => (latest === null || comment.createdAt > latest ? comment.createdAt : latest), null);
        const top = [...perAuthor].sort(([a, countA], [b, countB]) => countB - countA || Buffer.compare(Buffer.from(a), Buffer.from(b))).slice(0, 3);
        return { commentsAggregate: { count: own.length, max: { createdAt: newest?.toISOString() ?? null }, groupBy: top.map(([author, count]) => ({ key: { author }, count })) } };
      }),
    ),
  };
}

// ---- variants --------------------------------------------------------------------------------------------

async function executeOrThrow(gateway: Gateway, query: string, strategyHeader: string | undefined): Promise<{ data: unknown; cost: CostReport }> {
  const result = await gateway.execute({ query }, strategyHeader === undefined ? {} : { strategyHeader });
  if (result.errors !== undefined) {
    throw new Error(`${query} [${strategyHeader ?? 'defaults'}] answered errors: ${result.errors.map((error) => error.message).join('; ')}`);
  }
  if (result.cost === undefined) throw new Error(`${query}: no extensions.cost in the response`);
  return { data: result.data, cost: result.cost };
}

/** Every combination of the strategies declared by the operation's switchable fields (one with none). */
async function strategyCombinations(gateway: Gateway, query: string): Promise<Array<ReadonlyArray<readonly [RelationField, ReadStrategy]>>> {
  const { cost } = await executeOrThrow(gateway, query, undefined);
  const switchable = Object.keys(cost.fields)
    .sort()
    .map((coordinate) => gateway.storageMap.relations.get(coordinate))
    .filter((field): field is RelationField => field !== undefined && declaredStrategies(field).length > 1);
  let combinations: Array<Array<readonly [RelationField, ReadStrategy]>> = [[]];
  for (const field of switchable) {
    combinations = combinations.flatMap((combination) => declaredStrategies(field).map((strategy) => [...combination, [field, strategy] as const]));
  }
  // the SDL's defaults first: they are what a request without the header gets
  const isDefault = (combination: ReadonlyArray<readonly [RelationField, ReadStrategy]>): boolean =>
    combination.every(([field, strategy]) => field.defaultStrategy === strategy);
  return combinations.sort((a, b) => Number(isDefault(b)) - Number(isDefault(a)));
}

function gatewayVariant(gateway: Gateway, query: string, combination: ReadonlyArray<readonly [RelationField, ReadStrategy]>): Variant {
  const header = combination.length === 0 ? undefined : combination.map(([field, strategy]) => `${field.coordinate}=${strategy}`).join(',');
  const isDefault = combination.every(([field, strategy]) => field.defaultStrategy === strategy);
  return {
    label: `${header ?? 'no switchable field'}${combination.length > 0 && isDefault ? ' (default)' : ''}`,
    isNaive: false,
    async run() {
      const started = performance.now();
      const { data, cost } = await executeOrThrow(gateway, query, header);
      const ms = performance.now() - started;
      for (const [field, strategy] of combination) {
        const used = cost.fields[field.coordinate]?.strategy;
        if (used !== strategy) throw new Error(`${query}: asked for ${field.coordinate}=${strategy}, extensions.cost reports ${String(used)} (are strategy overrides on?)`);
      }
      return { ms, json: JSON.stringify(data), roundTrips: cost.roundTrips, naiveRoundTrips: cost.naiveRoundTrips };
    },
  };
}

function naiveVariant(operation: BenchOperation, db: Db, commandCounter: { count: number }): Variant {
  return {
    label: 'naive: a query per parent and per reference',
    isNaive: true,
    async run() {
      commandCounter.count = 0;
      const started = performance.now();
      const data = await operation.naive(db);
      const ms = performance.now() - started;
      return { ms, json: JSON.stringify(data), roundTrips: commandCounter.count, naiveRoundTrips: undefined };
    },
  };
}

// ---- measuring -------------------------------------------------------------------------------------------

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (fraction === 0.5) {
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  }
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!; // nearest rank
}

/** The path of the first difference between two JSON values, for the abort message. */
function firstDifference(a: unknown, b: unknown, path = 'data'): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items ≠ ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const difference = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      const difference = firstDifference(left[key], right[key], `${path}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/**
 * One operation's variants, run in rounds (one run of each, in turn, so a noisy neighbour slows them
 * alike). Every run is checked: `data` equal to the first run's of the first variant, round trips equal
 * to the variant's first run.
 */
class OperationBench {
  readonly #firstSamples: Array<Sample | undefined>;
  readonly #timed: number[][];
  #reference: { label: string; json: string } | undefined;

  constructor(
    readonly operation: BenchOperation,
    readonly variants: readonly Variant[],
  ) {
    this.#firstSamples = variants.map(() => undefined);
    this.#timed = variants.map(() => []);
  }

  async runRound(timed: boolean): Promise<void> {
    const { query } = this.operation;
    for (const [index, variant] of this.variants.entries()) {
      const sample = await variant.run();
      const reference = (this.#reference ??= { label: variant.label, json: sample.json });
      if (sample.json !== reference.json) {
        const where = firstDifference(JSON.parse(reference.json), JSON.parse(sample.json)) ?? 'the same values in another key order';
        throw new Error(`${query}: "${variant.label}" returned other data than "${reference.label}" (${where})`);
      }
      const first = (this.#firstSamples[index] ??= sample);
      if (first.roundTrips !== sample.roundTrips || first.naiveRoundTrips !== sample.naiveRoundTrips) {
        throw new Error(
          `${query}: "${variant.label}" sent ${sample.roundTrips} round trips (naive ${String(sample.naiveRoundTrips)}), ` +
            `${first.roundTrips} (${String(first.naiveRoundTrips)}) on its first run`,
        );
      }
      if (timed) this.#timed[index]!.push(sample.ms);
    }
  }

  rows(): Row[] {
    return this.variants.map((variant, index) => {
      const times = this.#timed[index]!;
      const first = this.#firstSamples[index];
      if (times.length === 0 || first === undefined) throw new Error(`${this.operation.query}: "${variant.label}" has no timed run`);
      return {
        label: variant.label,
        isNaive: variant.isNaive,
        medianMs: percentile(times, 0.5),
        p90Ms: percentile(times, 0.9),
        roundTrips: first.roundTrips,
        naiveRoundTrips: first.naiveRoundTrips,
      };
    });
  }
}

// ---- output ----------------------------------------------------------------------------------------------

const COLUMNS = ['median ms', 'p90 ms', 'roundTrips', 'naiveRoundTrips', '× best'] as const;
const LABEL_WIDTH = 62;

function printHeader(): void {
  process.stdout.write(`  ${'operation / strategies'.padEnd(LABEL_WIDTH)}${COLUMNS.map((column) => column.padStart(16)).join('')}\n`);
}

function printRows(rows: readonly Row[]): number {
  const best = Math.min(...rows.filter((row) => !row.isNaive).map((row) => row.medianMs));
  for (const row of rows) {
    const cells = [row.medianMs.toFixed(2), row.p90Ms.toFixed(2), String(row.roundTrips), row.naiveRoundTrips === undefined ? '-' : String(row.naiveRoundTrips), `${(row.medianMs / best).toFixed(2)}×`];
    process.stdout.write(`    ${row.label.padEnd(LABEL_WIDTH - 2)}${cells.map((cell) => cell.padStart(16)).join('')}\n`);
  }
  return best;
}

// ---- main ------------------------------------------------------------------------------------------------

async function benchTarget(label: string, uri: string, mongoKind: 'embedded' | 'external'): Promise<void> {
  const dbName = `bench_strategies_${new ObjectId().toHexString()}`;
  // The naive loop's own client, so its commands can be counted without the gateway's ledger seeing them.
  const naiveClient = await MongoClient.connect(uri, { monitorCommands: true });
  const commandCounter = { count: 0 };
  naiveClient.on('commandStarted', (event) => {
    if (READ_COMMANDS.has(event.commandName)) commandCounter.count++;
  });
  const gatewayClient = await connectMongo(uri);
  let gateway: Gateway | undefined;
  try {
    const db = naiveClient.db(dbName);
    const seedStarted = performance.now();
    await seedDemoData(db, { scale: 1 });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    gateway = await createGateway({
      db: gatewayClient.db(dbName),
      mongoClient: gatewayClient,
      mongoKind,
      mongoUri: uri,
      // Fixed, not the caller's environment: overrides must be on, the limits the defaults.
      ...demoProjectOptions(), ...gatewaySettingsOf(loadConfig({ PORT: '0', DOCJOIN_STRATEGY_OVERRIDES: 'true' })),
      listen: false,
    });

    const benches: OperationBench[] = [];
    for (const operation of OPERATIONS) {
      const combinations = await strategyCombinations(gateway, operation.query);
      const variants = [...combinations.map((combination) => gatewayVariant(gateway!, operation.query, combination)), naiveVariant(operation, db, commandCounter)];
      benches.push(new OperationBench(operation, variants));
    }
    // Warm every operation up before timing any: otherwise the first one measured pays for the JIT and
    // for growing the connection pools (about a third more on the first operation, whichever it is).
    for (let round = 0; round < WARMUP_RUNS; round++) for (const bench of benches) await bench.runRound(false);

    process.stdout.write(`\n${label}: demo data at scale 1 seeded in ${seedSeconds.toFixed(1)} s; median and p90 of ${RUNS} runs after ${WARMUP_RUNS} warm-up runs\n`);
    printHeader();
    const booksRatios: string[] = [];
    for (const bench of benches) {
      for (let round = 0; round < RUNS; round++) await bench.runRound(true);
      const rows = bench.rows();
      process.stdout.write(`  ${bench.operation.query}${bench.operation.extra ? `   (not pinned; shows ${bench.operation.extra})` : ''}\n`);
      const best = printRows(rows);
      if (bench.operation.query.startsWith('{ books(')) {
        const naive = rows.find((row) => row.isNaive)!;
        const batched = rows.filter((row) => !row.isNaive).reduce((fastest, row) => (row.medianMs < fastest.medianMs ? row : fastest));
        booksRatios.push(
          `${(naive.medianMs / best).toFixed(1)}× (${naive.medianMs.toFixed(1)} ms, ${naive.roundTrips} round trips, vs ${batched.label}: ${best.toFixed(1)} ms, ${batched.roundTrips})`,
        );
      }
    }
    process.stdout.write(`  naive vs batched, books(first: 50): ${booksRatios.join('; with countOfBooks: ')}\n`);
  } finally {
    await gateway?.stop();
    await naiveClient.db(dbName).dropDatabase().catch(() => undefined);
    await gatewayClient.close();
    await naiveClient.close();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const latencyMs = latencyFromEnv(DEFAULT_LATENCY_MS);
  const embedded = await startEmbeddedMongo({ latencyMs });
  try {
    await benchTarget(`embedded server, every reply delayed ${latencyMs} ms (BENCH_LATENCY_MS)`, embedded.uri, 'embedded');
  } finally {
    await embedded.stop();
  }
  const external = process.env.MONGODB_URI;
  if (external) await benchTarget('MONGODB_URI', external, 'external');
  const cpus = os.cpus();
  process.stdout.write(
    `\n× best: median ÷ the fastest strategy's median for that operation. node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}; ` +
      `total ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
