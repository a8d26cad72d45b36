import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type ObjectId } from 'mongodb';
import { connectMongo, loadProject, printPublicSchema } from 'docjoin';
import { median } from '../support/bench-support';
import { GraphQLHttpClient, throughput, type GraphQLResponse, type SampleLimits } from './http-load';
import { buildBaseline } from './baseline-build';
import { compilePeers, EmbeddedMongoProcess, PeerChild } from './peer-children';
import { operationNamed, PEER_OPERATIONS, type OperationName, type OperationVariables, type PeerOperation } from './peer-operations';
import { adviseLookupsOnDemo } from '../support/advise-lookups';
import { ADVISED_LOOKUPS_VARIABLE, BASELINE_DIRECTORY_VARIABLE, isPeerName, PEER_LABELS, PEER_NAMES, requestsPerSecond, type PeerName, type SequentialResult, type ThroughputWindow } from './peer-protocol';
import type { Measurement, PeersRun, PeersSettings, PhaseAdvice, PhaseResult, SteadyRss } from './peer-results';
import { PUBLIC_SCHEMA_FILE } from './peer-schema';
import { RSS_WARMUP_SECONDS, RSS_WINDOW_SECONDS, TARGET_LATENCY_MS } from './peer-targets';
import { resultsChart } from './results-chart';
import { resultsReport } from './results-report';

/**
 * `npm run bench -- peers` (bench/README.md): docjoin next to the GraphQL servers people write by hand,
 * and next to the raw driver floor, on the demo data, in one run. Per latency (the embedded MongoDB
 * server in its own process, every reply delayed 1 ms, then 0 ms, then 10 ms; seeded once with the demo
 * project's seed), `docjoin advise` first advises on the queries recorded by join (docjoin-advised serves
 * its lookups, where it gives any), then each implementation runs in its own child process: first with command monitoring on, to check
 * that every one answers docjoin's `data` and to count round trips (first latency only), then without
 * it for the timing (their data checked again). Per operation, each implementation is first warmed up on
 * it until its pace stops rising (warmUp), then timed in rounds (the implementations in a
 * balanced order, so a noisy neighbour slows them alike): sequential requests (p50, p99, CPU per
 * request), then `concurrency` in flight (autocannon; the floor runs its own loop), RSS after each. At
 * the target latency, the features' cost (and, with PEERS_BASELINE, this build against that commit's) is
 * measured in pairs of runs (pairedRatios) and each server's
 * RSS over a run of every operation in turn (steadyRss).
 * Writes bench/RESULTS.md and bench/peers-throughput.svg. Settings: PEERS_* variables (settingsFromEnv).
 */
const DB_NAME = 'docjoin';
const SEED_SCALE = 1;
/** posts(first: 10) reads the first ten posts: the mutation comments on the others. */
const READ_POSTS = 10;
const BENCH_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(BENCH_DIR, '..');
const RESULTS_FILE = path.join(BENCH_DIR, 'RESULTS.md');
const CHART_FILE = path.join(BENCH_DIR, 'peers-throughput.svg');

function numberFromEnv(name: string, fallback: number, valid: (value: number) => boolean, rule: string): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name} must be ${rule}, got "${raw}"`);
  return value;
}

function listFromEnv<T extends string>(name: string, all: readonly T[], isMember: (value: string) => value is T): T[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return [...all];
  const chosen = raw.split(',').map((entry) => entry.trim());
  const unknown = chosen.filter((entry) => !isMember(entry));
  if (unknown.length > 0) throw new Error(`${name}: unknown ${unknown.join(', ')}; the choices are ${all.join(', ')}`);
  return all.filter((entry) => chosen.includes(entry));
}

const isOperationName = (value: string): value is OperationName => PEER_OPERATIONS.some((operation) => operation.name === value);

/** Every setting, from PEERS_* variables (the defaults keep the whole run near 50 minutes on 2 cores). */
function settingsFromEnv(): PeersSettings {
  const positive = (value: number) => value > 0;
  const whole = (value: number) => Number.isInteger(value) && value >= 1;
  const latencies = (process.env.PEERS_LATENCIES_MS ?? '1,0,10').split(',').map((entry) => Number(entry.trim()));
  if (latencies.length === 0 || latencies.some((latency) => !Number.isFinite(latency) || latency < 0)) {
    throw new Error(`PEERS_LATENCIES_MS must list latencies ≥ 0 in ms, e.g. "1,0,10", got "${process.env.PEERS_LATENCIES_MS ?? ''}"`);
  }
  const baseline = process.env.PEERS_BASELINE?.trim() || undefined;
  const chosen = listFromEnv('PEERS_ONLY', PEER_NAMES, isPeerName);
  // Without a baseline commit, the default list leaves the baseline out.
  const peers = baseline === undefined && !process.env.PEERS_ONLY?.trim() ? chosen.filter((peer) => peer !== 'docjoin-baseline') : chosen;
  if (!peers.includes('docjoin')) throw new Error('PEERS_ONLY must include docjoin: every other implementation is checked against its data');
  if (peers.includes('docjoin-baseline') && baseline === undefined) throw new Error('PEERS_ONLY lists docjoin-baseline: name its commit in PEERS_BASELINE (e.g. PEERS_BASELINE=HEAD~3)');
  if (baseline !== undefined && !peers.includes('docjoin-baseline')) throw new Error('PEERS_BASELINE is set but PEERS_ONLY leaves docjoin-baseline out');
  return {
    latenciesMs: latencies,
    rounds: numberFromEnv('PEERS_ROUNDS', 5, whole, 'a whole number ≥ 1'),
    // 1 s windows swung docjoin's features-on ÷ off ratio between 0.54 and 1.36 across rounds; 2 s halve the swing.
    durationSeconds: numberFromEnv('PEERS_DURATION_S', 2, positive, 'a number of seconds > 0'),
    // The longest warm-up per implementation and operation (warmUp).
    warmupSeconds: numberFromEnv('PEERS_WARMUP_S', 12, positive, 'a number of seconds > 0'),
    concurrency: numberFromEnv('PEERS_CONCURRENCY', 16, whole, 'a whole number ≥ 1'),
    // A run's throughput moves by ±15% on this machine and the features target asks for 5%, hence many short
    // pairs: the median of 20 still moved 0.94–1.01 between two full runs of one build.
    featurePairs: numberFromEnv('PEERS_FEATURE_PAIRS', 40, (value) => Number.isInteger(value) && value >= 0, 'a whole number ≥ 0'),
    // Fresh pairs of processes the pairs are spread over (pairedRatios).
    featureProcesses: numberFromEnv('PEERS_FEATURE_PROCESSES', 4, whole, 'a whole number ≥ 1'),
    // The issue asks for RSS flat over a 60 s run; 0 skips the run.
    rssSeconds: numberFromEnv('PEERS_RSS_S', 60, (value) => value === 0 || value >= 2 * RSS_WINDOW_SECONDS, `0 or a number of seconds ≥ ${2 * RSS_WINDOW_SECONDS}`),
    // Over 5 rounds, 40 requests of 250 ms at most left posts' p50 ±0.3 ms apart from run to run (of 3.8);
    // up to 100 per round within 400 ms give the fast operations 2.5× the samples for ~1 min more in all.
    minSamples: numberFromEnv('PEERS_MIN_SAMPLES', 5, whole, 'a whole number ≥ 1'),
    maxSamples: numberFromEnv('PEERS_MAX_SAMPLES', 100, whole, 'a whole number ≥ 1'),
    maxSampleMs: numberFromEnv('PEERS_SAMPLE_MS', 400, positive, 'a number of ms > 0'),
    peers,
    operations: listFromEnv('PEERS_OPERATIONS', PEER_OPERATIONS.map((operation) => operation.name), isOperationName),
  };
}

/** Nearest rank (p99 of fewer than 100 samples is the slowest). */
function percentile(values: readonly number[], fraction: number): number {
  if (fraction === 0.5) return median(values);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

const MB = 1024 * 1024;

/** The path of the first difference between two JSON values, for the abort message. */
function firstDifference(a: unknown, b: unknown, where = 'data'): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${where}: ${a.length} items ≠ ${b.length}`;
    for (let index = 0; index < a.length; index++) {
      const difference = firstDifference(a[index], b[index], `${where}[${index}]`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const leftKeys = Object.keys(left);
    const rightKeys = Object.keys(right);
    if (leftKeys.join() !== rightKeys.join()) return `${where}: keys ${leftKeys.join(',')} ≠ ${rightKeys.join(',')}`;
    for (const key of leftKeys) {
      const difference = firstDifference(left[key], right[key], `${where}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${where}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/** One implementation's process with what the runner needs to drive it. */
interface Contender {
  readonly name: PeerName;
  readonly child: PeerChild;
  readonly http: GraphQLHttpClient | undefined;
  /** The embedded server it reads. */
  readonly database: EmbeddedMongoProcess;
}

/**
 * The post the next addComment comments on: one cursor for the whole phase over the posts that
 * posts(first: 10) does not read, so a run never comments on a post an earlier run just wrote to.
 */
class PostCursor {
  #next = 0;

  constructor(readonly posts: readonly OperationVariables[]) {}

  next(): OperationVariables {
    return this.posts[this.#next++ % this.posts.length]!;
  }

  /** The posts from the cursor on, for the floor's process; `skip` moves past the ones it used. */
  upcoming(): OperationVariables[] {
    return rotated(this.posts, this.#next);
  }

  skip(count: number): void {
    this.#next += count;
  }
}

/** Each request's body: a query's is always the same; the mutation's names the next post. */
function bodies(operation: PeerOperation, posts: PostCursor): () => string {
  if (operation.kind === 'query') {
    const body = JSON.stringify({ query: operation.query });
    return () => body;
  }
  return () => JSON.stringify({ query: operation.query, variables: posts.next() });
}

/** One run's data and round trips: counted by a monitored process's command events (docjoin: its cost report); NaN for a plain process. */
async function runOnce(contender: Contender, operation: PeerOperation, variables: OperationVariables): Promise<{ data: unknown; roundTrips: number }> {
  const before = await contender.child.stats();
  let data: unknown;
  let reported: number | undefined;
  if (contender.http) {
    const response: GraphQLResponse = await contender.http.post(JSON.stringify({ query: operation.query, ...(operation.kind === 'mutation' && { variables }) }));
    data = response.data;
    reported = response.extensions?.cost?.roundTrips;
  } else {
    data = await contender.child.call({ kind: 'once', operation: operation.name, variables });
  }
  const after = await contender.child.stats();
  const counted = after.commands === undefined || before.commands === undefined ? Number.NaN : after.commands - before.commands;
  return { data, roundTrips: reported ?? counted };
}

/** Aborts unless every implementation answers the reference's data; returns each one's round trips. */
async function checkSameData(contenders: readonly Contender[], operation: PeerOperation, variables: OperationVariables): Promise<Map<PeerName, number>> {
  const roundTrips = new Map<PeerName, number>();
  let reference: { name: PeerName; json: string; data: unknown } | undefined;
  for (const contender of contenders) {
    // Counted on the second run: a process's first may send a one-time command (docjoin asks once
    // whether the server runs transactions), which is not the operation's cost.
    await runOnce(contender, operation, variables);
    const { data, roundTrips: sent } = await runOnce(contender, operation, variables);
    roundTrips.set(contender.name, sent);
    const json = JSON.stringify(data);
    if (reference === undefined) {
      reference = { name: contender.name, json, data };
      continue;
    }
    if (json !== reference.json) {
      const where = firstDifference(reference.data, JSON.parse(json)) ?? 'the same values, serialized differently';
      throw new Error(`${operation.name}: ${contender.name} answered other data than ${reference.name} (${where})`);
    }
  }
  return roundTrips;
}

interface RoundSample {
  readonly latenciesMs: readonly number[];
  readonly cpuMsPerRequest: number;
  readonly throughput: number;
  readonly rssMb: number;
  readonly failed: number;
}

/** The longest throughput run, whatever the operation. */
const MAX_THROUGHPUT_SECONDS = 10;
/** An operation whose requests take longer than this under load is measured in one round (a run must outlast a request). */
const SLOW_SECONDS = 2;

/** How long a request takes with `concurrency` in flight, about: they share the server's one thread. */
function underLoadSeconds(p50Ms: number, concurrency: number): number {
  return (concurrency * p50Ms) / 1000;
}

/** A throughput run long enough for every request in flight to be answered at least once. */
function throughputSeconds(baseSeconds: number, p50Ms: number, concurrency: number): number {
  return Math.max(baseSeconds, Math.min(MAX_THROUGHPUT_SECONDS, 1.3 * underLoadSeconds(p50Ms, concurrency) + 0.5));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Below this share of one core over SETTLE_MS, a process is idle. */
const IDLE_CPU_SHARE = 0.1;
const SETTLE_MS = 100;
const SETTLE_TIMEOUT_MS = 30_000;

/** Waits until a process whose CPU time `cpuMicros` reads uses less than IDLE_CPU_SHARE of a core. */
async function idle(cpuMicros: () => Promise<number | undefined>): Promise<void> {
  let last = await cpuMicros();
  for (const started = performance.now(); last !== undefined && performance.now() - started < SETTLE_TIMEOUT_MS; ) {
    await sleep(SETTLE_MS);
    const now = await cpuMicros();
    if (now === undefined || now - last < IDLE_CPU_SHARE * SETTLE_MS * 1000) return;
    last = now;
  }
}

/**
 * Waits until the implementation's process and the database are idle: autocannon stops at its deadline,
 * but the server finishes the requests it had, and the database what they sent (and collects its
 * garbage); neither may run into the next measurement, least of all after the floor, which sends the
 * database several thousand requests a second.
 */
async function settled(contender: Contender): Promise<void> {
  await idle(async () => (await contender.child.stats()).cpuMicros);
  await idle(async () => contender.database.cpuMicros());
}

/** One throughput run of `seconds` at `settings.concurrency` in flight (autocannon; the floor runs its own loop). */
async function throughputRun(contender: Contender, operation: PeerOperation, posts: PostCursor, settings: PeersSettings, seconds: number): Promise<{ throughput: number; failed: number }> {
  if (contender.http) {
    const result = await throughput(contender.http.port, bodies(operation, posts), settings.concurrency, seconds);
    await settled(contender);
    return { throughput: requestsPerSecond(result), failed: result.failed };
  }
  const window = await contender.child.call<ThroughputWindow>({ kind: 'concurrent', operation: operation.name, variables: posts.upcoming(), concurrency: settings.concurrency, durationMs: seconds * 1000 });
  posts.skip(window.completed + settings.concurrency);
  await settled(contender);
  return { throughput: requestsPerSecond(window), failed: 0 };
}

/** Sequential requests: their latencies, and the server's CPU time per request (no other request runs during them). */
async function sequentialRun(contender: Contender, operation: PeerOperation, posts: PostCursor, limits: SampleLimits): Promise<{ latenciesMs: readonly number[]; cpuMsPerRequest: number }> {
  const before = await contender.child.stats();
  let latenciesMs: readonly number[];
  if (contender.http) {
    latenciesMs = await contender.http.sequential(bodies(operation, posts), limits);
  } else {
    latenciesMs = (await contender.child.call<SequentialResult>({ kind: 'sequential', operation: operation.name, variables: posts.upcoming(), ...limits })).latenciesMs;
    posts.skip(latenciesMs.length);
  }
  const after = await contender.child.stats();
  return { latenciesMs, cpuMsPerRequest: (after.cpuMicros - before.cpuMicros) / 1000 / latenciesMs.length };
}

/** One timed round of one implementation on one operation: sequential requests, then the throughput run. */
async function measureRound(contender: Contender, operation: PeerOperation, posts: PostCursor, settings: PeersSettings): Promise<RoundSample> {
  const { latenciesMs, cpuMsPerRequest } = await sequentialRun(contender, operation, posts, { minSamples: settings.minSamples, maxSamples: settings.maxSamples, maxMs: settings.maxSampleMs });
  const { throughput: requestsPerSecondUnderLoad, failed } = await throughputRun(contender, operation, posts, settings, throughputSeconds(settings.durationSeconds, median(latenciesMs), settings.concurrency));
  return { latenciesMs, cpuMsPerRequest, throughput: requestsPerSecondUnderLoad, rssMb: (await contender.child.stats()).rssBytes / MB, failed };
}

/** A warm-up's sequential requests (they size its windows). */
const WARMUP_SAMPLES: SampleLimits = { minSamples: 3, maxSamples: 10, maxMs: 200 };
/** Warm-up windows before the pace may count as reached. */
const MIN_WARMUP_WINDOWS = 3;
/** A window faster than every earlier one by more than this share means the pace is still rising. */
const STILL_RISING = 0.05;

/**
 * Runs the operation under load, in windows, until its throughput stops rising (or `settings.warmupSeconds`
 * have passed). Compiled GraphQL servers sharing two cores with the database and the load generator take
 * 5–8 s of load to reach their pace (addComment 211 → 1,010 req/s over 8 s for docjoin, 175 → 1,002 for
 * the DataLoader server), and lose part of it after minutes on other operations: each implementation is
 * warmed up on an operation right before that operation's rounds. Returns the seconds it took.
 */
async function warmUp(contender: Contender, operation: PeerOperation, posts: PostCursor, settings: PeersSettings): Promise<number> {
  const { latenciesMs } = await sequentialRun(contender, operation, posts, WARMUP_SAMPLES);
  const windowSeconds = throughputSeconds(1, median(latenciesMs), settings.concurrency);
  let best = 0;
  let seconds = 0;
  for (let windows = 1; seconds < settings.warmupSeconds; windows++) {
    const { throughput: pace } = await throughputRun(contender, operation, posts, settings, windowSeconds);
    seconds += windowSeconds;
    if (windows >= MIN_WARMUP_WINDOWS && pace <= best * (1 + STILL_RISING)) break;
    best = Math.max(best, pace);
  }
  return seconds;
}

/**
 * The features and baseline targets compare two builds of one server, so they need a finer measure
 * than the rounds: `settings.featurePairs` pairs of runs of the same length, `subject` and `reference`
 * back to back (which goes first alternates), each pair's ratio subject ÷ reference. A process keeps
 * its own pace for its whole life (in one full run the features-on process served `authors` at 0.73–0.95×
 * its features-off twin in all 20 pairs; three fresh processes of each then served 122, 134, 134 and 131,
 * 132, 127 req/s), so the pairs are spread over `settings.featureProcesses` fresh pairs of processes, each
 * warmed up on the operation first: the median then reads the builds, not one draw of processes.
 */
async function pairedRatios(names: readonly [subject: PeerName, reference: PeerName], database: EmbeddedMongoProcess, operation: PeerOperation, posts: PostCursor, settings: PeersSettings, p50Ms: number): Promise<number[]> {
  const seconds = throughputSeconds(settings.durationSeconds, p50Ms, settings.concurrency);
  const ratios: number[] = [];
  const processPairs = Math.min(settings.featureProcesses, settings.featurePairs);
  for (let processPair = 0; processPair < processPairs; processPair++) {
    const pairs = Math.floor(settings.featurePairs / processPairs) + (processPair < settings.featurePairs % processPairs ? 1 : 0);
    const [subject, reference] = (await startAll(names, database, 'plain')) as [Contender, Contender];
    try {
      for (const contender of [subject, reference]) await warmUp(contender, operation, posts, settings);
      for (let pair = 0; pair < pairs; pair++) {
        const first = ratios.length % 2 === 0 ? subject : reference;
        const firstPace = (await throughputRun(first, operation, posts, settings, seconds)).throughput;
        const secondPace = (await throughputRun(first === subject ? reference : subject, operation, posts, settings, seconds)).throughput;
        ratios.push(first === subject ? firstPace / secondPace : secondPace / firstPace);
      }
    } finally {
      await stopAll([subject, reference]);
    }
  }
  return ratios;
}

/**
 * The RSS targets' run for one HTTP server: every operation in turn (one request each, the mutation too)
 * at `settings.concurrency` in flight for RSS_WARMUP_SECONDS, then `settings.rssSeconds` more with its RSS
 * sampled every second. One load throughout: an idle pause would let V8 shrink the heap again.
 */
async function steadyRss(contender: Contender, port: number, operations: readonly PeerOperation[], posts: PostCursor, settings: PeersSettings, startedMb: number): Promise<SteadyRss> {
  const nextBodies = operations.map((operation) => bodies(operation, posts));
  let turn = 0;
  const nextBody = () => nextBodies[turn++ % nextBodies.length]!();
  const lastSecond = RSS_WARMUP_SECONDS + settings.rssSeconds;
  const samplesMb: number[] = [];
  const loadStarted = performance.now();
  const sampling = (async () => {
    for (let second = RSS_WARMUP_SECONDS + 1; second <= lastSecond; second++) {
      await sleep(loadStarted + second * 1000 - performance.now());
      samplesMb.push((await contender.child.stats()).rssBytes / MB);
    }
  })();
  const [load] = await Promise.all([throughput(port, nextBody, settings.concurrency, lastSecond), sampling]);
  await settled(contender);
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    startedMb,
    medianMb: median(samplesMb),
    peakMb: Math.max(...samplesMb),
    firstWindowMb: mean(samplesMb.slice(0, RSS_WINDOW_SECONDS)),
    lastWindowMb: mean(samplesMb.slice(-RSS_WINDOW_SECONDS)),
    throughput: requestsPerSecond(load),
    failed: load.failed,
  };
}

/**
 * Round `round`'s order of `items`: a row of a balanced Latin square (Williams), so that over as many
 * rounds as items each runs once in every position and, for an even count, right after each other
 * item once (a plain rotation always runs the same item after the floor, the database's heaviest user).
 */
function balancedOrder<T>(items: readonly T[], round: number): T[] {
  const count = items.length;
  const firstRow = Array.from({ length: count }, (_, position) => (position % 2 === 1 ? (position + 1) / 2 : (count - position / 2) % count));
  return firstRow.map((index) => items[(index + round) % count]!);
}

function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

async function seed(uri: string): Promise<{ seconds: number; mutationPosts: OperationVariables[]; checkPost: OperationVariables }> {
  const project = await loadProject({ cwd: path.resolve(BENCH_DIR, '..'), configPath: 'docjoin.config.ts' });
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db(DB_NAME);
    const started = performance.now();
    await project.config.seed!(db, { scale: SEED_SCALE, onProgress: () => undefined });
    const seconds = (performance.now() - started) / 1000;
    // In natural order, as the root lists read them: the first READ_POSTS are the ones posts(first: 10) returns.
    const posts = await db.collection<{ _id: ObjectId }>('posts').find({}, { projection: { _id: 1 } }).toArray();
    const commented = posts.slice(READ_POSTS).map((post) => ({ postId: post._id.toHexString() }));
    return { seconds, mutationPosts: commented.slice(0, -1), checkPost: commented[commented.length - 1]! };
  } finally {
    await client.close();
  }
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function formatRow(measurement: Measurement): string {
  const cells = [
    measurement.p50Ms.toFixed(2),
    measurement.p99Ms.toFixed(2),
    measurement.throughput.toFixed(0),
    String(measurement.roundTrips),
    measurement.cpuMsPerRequest.toFixed(2),
    measurement.rssMb.toFixed(0),
    measurement.failed > 0 ? `${measurement.failed} failed` : '',
  ];
  return `    ${PEER_LABELS[measurement.peer].padEnd(42)}${cells.map((cell) => cell.padStart(11)).join('')}`;
}

/**
 * Each implementation in a monitored process (command monitoring on, counting commands): the same data
 * from all, and each one's round trips per operation. Then they stop: command monitoring deserializes
 * every reply a second time, so the timed processes of the peers run without it (docjoin always has it).
 */
async function countRoundTrips(database: EmbeddedMongoProcess, peers: readonly PeerName[], operations: readonly PeerOperation[], checkPost: OperationVariables): Promise<Map<OperationName, Map<PeerName, number>>> {
  const contenders: Contender[] = [];
  try {
    contenders.push(...(await startAll(peers, database, 'monitored')));
    const roundTrips = new Map<OperationName, Map<PeerName, number>>();
    for (const operation of operations) roundTrips.set(operation.name, await checkSameData(contenders, operation, checkPost));
    return roundTrips;
  } finally {
    await stopAll(contenders);
  }
}

/** All at once (each compiles its own modules: in parallel it takes a fraction of the time). */
async function startAll(peers: readonly PeerName[], database: EmbeddedMongoProcess, monitoring: 'monitored' | 'plain'): Promise<Contender[]> {
  const started = await Promise.allSettled(peers.map((name) => PeerChild.start(name, database.uri, DB_NAME, monitoring)));
  const children = started.filter((result): result is PromiseFulfilledResult<PeerChild> => result.status === 'fulfilled').map((result) => result.value);
  const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    for (const child of children) await child.stop();
    throw failure.reason;
  }
  return children.map((child) => ({ name: child.name, child, http: child.port === undefined ? undefined : new GraphQLHttpClient(child.port), database }));
}

async function stopAll(contenders: readonly Contender[]): Promise<void> {
  for (const contender of contenders) {
    contender.http?.close();
    await contender.child.stop();
  }
}

/** Round trips per operation and implementation: they do not depend on the latency, so the first phase counts them for all. */
type RoundTrips = Map<OperationName, Map<PeerName, number>>;

async function runPhase(latencyMs: number, settings: PeersSettings, counted: RoundTrips | undefined): Promise<PhaseResult & { roundTrips: RoundTrips }> {
  const phaseStarted = performance.now();
  log(`\n--- embedded MongoDB server in its own process, every reply delayed ${latencyMs} ms ---`);
  const mongo = await EmbeddedMongoProcess.start(latencyMs);
  const contenders: Contender[] = [];
  try {
    const seeded = await seed(mongo.uri);
    log(`demo data at scale ${SEED_SCALE} seeded in ${seeded.seconds.toFixed(1)} s (${mongo.uri})`);
    const operations = settings.operations.map(operationNamed);
    const advice = settings.peers.includes('docjoin-advised') ? await adviseAt(mongo, operations) : undefined;
    // Without a lookup advised, docjoin-advised would be docjoin again.
    const peers = settings.peers.filter((peer) => peer !== 'docjoin-advised' || (advice?.lookups.length ?? 0) > 0);
    process.env[ADVISED_LOOKUPS_VARIABLE] = advice?.lookups.join(',') ?? '';
    // docjoin-advised's strategies depend on the latency: its round trips come from its cost report in each phase (below).
    const roundTrips = counted ?? (await countRoundTrips(mongo, peers.filter((peer) => peer !== 'docjoin-advised'), operations, seeded.checkPost));
    if (counted === undefined) log(`monitored processes: the same data from every implementation, round trips counted`);
    const phaseTrips: RoundTrips = new Map([...roundTrips].map(([operation, byPeer]) => [operation, new Map(byPeer)]));
    contenders.push(...(await startAll(peers, mongo, 'plain')));
    log(`timed processes: ${contenders.map((contender) => `${contender.name} (pid ${String(contender.child.child.pid)})`).join(', ')}`);
    const afterStart = new Map<PeerName, number>();
    for (const contender of contenders) afterStart.set(contender.name, (await contender.child.stats()).rssBytes / MB);
    for (const operation of operations) {
      const reported = (await checkSameData(contenders, operation, seeded.checkPost)).get('docjoin-advised');
      if (reported !== undefined) phaseTrips.get(operation.name)!.set('docjoin-advised', reported);
    }
    log(`timed processes: the same data from every implementation on ${operations.map((operation) => operation.name).join(', ')}`);
    const posts = new PostCursor(seeded.mutationPosts);

    log(`  ${'operation / implementation'.padEnd(44)}${['p50 ms', 'p99 ms', 'req/s', 'trips', 'CPU ms/req', 'RSS MB'].map((cell) => cell.padStart(11)).join('')}`);
    const measurements: Measurement[] = [];
    const featureRatiosByOperation: Partial<Record<OperationName, number[]>> = {};
    const baselineRatiosByOperation: Partial<Record<OperationName, number[]>> = {};
    for (const operation of operations) {
      const warmedSeconds: string[] = [];
      for (const contender of contenders) warmedSeconds.push(`${contender.name} ${(await warmUp(contender, operation, posts, settings)).toFixed(0)} s`);
      log(`  warmed up on ${operation.name} until its pace stopped rising: ${warmedSeconds.join(', ')}`);
      const rounds = new Map<PeerName, RoundSample[]>(contenders.map((contender) => [contender.name, []]));
      for (let round = 0; round < settings.rounds; round++) {
        for (const contender of balancedOrder(contenders, round)) {
          const first = rounds.get(contender.name)![0];
          if (first && underLoadSeconds(median(first.latenciesMs), settings.concurrency) > SLOW_SECONDS) continue;
          const sample = await measureRound(contender, operation, posts, settings);
          rounds.get(contender.name)!.push(sample);
        }
      }
      log(`  ${operation.query}`);
      for (const contender of contenders) {
        const samples = rounds.get(contender.name)!;
        const latencies = samples.flatMap((sample) => sample.latenciesMs);
        const measurement: Measurement = {
          peer: contender.name,
          operation: operation.name,
          p50Ms: percentile(latencies, 0.5),
          p99Ms: percentile(latencies, 0.99),
          samples: latencies.length,
          throughput: median(samples.map((sample) => sample.throughput)),
          throughputRounds: samples.map((sample) => sample.throughput),
          roundTrips: phaseTrips.get(operation.name)!.get(contender.name)!,
          cpuMsPerRequest: median(samples.map((sample) => sample.cpuMsPerRequest)),
          rssMb: Math.max(...samples.map((sample) => sample.rssMb)),
          failed: samples.reduce((sum, sample) => sum + sample.failed, 0),
        };
        measurements.push(measurement);
        log(formatRow(measurement));
      }
      const docjoin = contenders.find((contender) => contender.name === 'docjoin');
      const pairs: ReadonlyArray<readonly [PeerName, string, Partial<Record<OperationName, number[]>>]> = [
        ['docjoin-features-off', 'features on ÷ off', featureRatiosByOperation],
        ['docjoin-baseline', `this build ÷ ${settings.baseline?.ref ?? 'baseline'}`, baselineRatiosByOperation],
      ];
      for (const [name, label, byOperation] of pairs) {
        const reference = contenders.find((contender) => contender.name === name);
        if (!docjoin || !reference || latencyMs !== TARGET_LATENCY_MS || settings.featurePairs === 0) continue;
        const docjoinLatencies = rounds.get('docjoin')!.flatMap((sample) => sample.latenciesMs);
        const ratios = await pairedRatios([docjoin.name, reference.name], mongo, operation, posts, settings, median(docjoinLatencies));
        byOperation[operation.name] = ratios;
        log(`    ${label}, ${ratios.length} pairs of runs over ${Math.min(settings.featureProcesses, settings.featurePairs)} pairs of fresh processes: median ${median(ratios).toFixed(2)} (${ratios.map((ratio) => ratio.toFixed(2)).join(' ')})`);
      }
    }
    const rss: Partial<Record<PeerName, SteadyRss>> = {};
    if (latencyMs === TARGET_LATENCY_MS && settings.rssSeconds > 0) {
      for (const contender of contenders) {
        if (contender.http === undefined) continue;
        const steady = await steadyRss(contender, contender.http.port, operations, posts, settings, afterStart.get(contender.name)!);
        rss[contender.name] = steady;
        log(`  RSS under steady load, ${contender.name}: median ${steady.medianMb.toFixed(0)} MB, first ${RSS_WINDOW_SECONDS} s ${steady.firstWindowMb.toFixed(0)} → last ${RSS_WINDOW_SECONDS} s ${steady.lastWindowMb.toFixed(0)} MB, peak ${steady.peakMb.toFixed(0)}, ${steady.throughput.toFixed(0)} req/s${steady.failed > 0 ? `, ${steady.failed} failed` : ''}`);
      }
    }
    return {
      latencyMs,
      seedSeconds: seeded.seconds,
      measurements,
      rss,
      featureRatios: featureRatiosByOperation,
      baselineRatios: baselineRatiosByOperation,
      ...(advice && { advice }),
      seconds: (performance.now() - phaseStarted) / 1000,
      roundTrips,
    };
  } finally {
    await stopAll(contenders);
    await mongo.stop();
  }
}

/** Runs of each query the workload `docjoin advise` reads holds. */
const ADVICE_RUNS = 10;

/**
 * What `docjoin advise` advises at this phase's latency: the phase's queries recorded by join through
 * an in-process gateway, then advise against the same server (it measures the latency itself).
 */
async function adviseAt(mongo: EmbeddedMongoProcess, operations: readonly PeerOperation[]): Promise<PhaseAdvice> {
  const client = await connectMongo(mongo.uri);
  try {
    const queries = operations.filter((operation) => operation.kind === 'query').map((operation) => operation.query);
    const advice = await adviseLookupsOnDemo(client, mongo.uri, DB_NAME, queries, ADVICE_RUNS);
    const lookups = advice.advised.map((field) => field.coordinate);
    log(`docjoin advise at ${mongo.latencyMs} ms: read by lookup ${lookups.join(', ') || 'nothing'}${advice.rejected.map((line) => `\n  not ${line}`).join('')}`);
    return { lookups, rejected: advice.rejected, predictedMsPer1000: advice.predictedMsPer1000 };
  } finally {
    await client.close();
  }
}

/** The peers serve the public schema file; it must be what docjoin serves from the demo's SDL. */
async function checkPublicSchema(): Promise<void> {
  const project = await loadProject({ cwd: path.resolve(BENCH_DIR, '..'), configPath: 'docjoin.config.ts' });
  const printed = printPublicSchema(project.typeDefs);
  if (!readFileSync(PUBLIC_SCHEMA_FILE, 'utf8').includes(printed)) {
    throw new Error(`${path.relative(process.cwd(), PUBLIC_SCHEMA_FILE)} is not the demo's public schema; run npm run codegen`);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const startLoad = os.loadavg()[0]!;
  let settings = settingsFromEnv();
  await checkPublicSchema();
  log('compiling docjoin (tsconfig.build.json: dist/) and the peers (bench/tsconfig.peers.json: build/bench-peers/)');
  compilePeers();
  const baselineRef = process.env.PEERS_BASELINE?.trim();
  if (baselineRef) {
    log(`building the baseline, ${baselineRef}, in a git worktree of its own`);
    const { directory, ...baseline } = buildBaseline(REPO_ROOT, baselineRef);
    process.env[BASELINE_DIRECTORY_VARIABLE] = directory;
    settings = { ...settings, baseline };
    log(`baseline: ${baseline.subject} (${directory})`);
  }
  const cpus = os.cpus();
  log(
    `peers: ${settings.peers.join(', ')}; ${settings.rounds} rounds per operation of ${settings.durationSeconds} s at ${settings.concurrency} in flight ` +
      `and ${settings.minSamples}–${settings.maxSamples} sequential requests (≤ ${settings.maxSampleMs} ms once ${settings.minSamples} are in)`,
  );
  const phases: PhaseResult[] = [];
  let roundTrips: RoundTrips | undefined;
  for (const latencyMs of settings.latenciesMs) {
    const { roundTrips: counted, ...phase } = await runPhase(latencyMs, settings, roundTrips);
    phases.push(phase);
    roundTrips = counted;
  }
  const run: PeersRun = {
    settings,
    phases,
    startedAt,
    node: process.version,
    cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}`,
    loadAverage: { start: startLoad, end: os.loadavg()[0]! },
    seconds: (performance.now() - started) / 1000,
  };
  // The raw measurements too, outside the repository, for whoever wants other views of the same run.
  const rawFile = path.join(os.tmpdir(), 'docjoin-peers-results.json');
  writeFileSync(rawFile, `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(RESULTS_FILE, resultsReport(run, path.basename(CHART_FILE)));
  writeFileSync(CHART_FILE, resultsChart(run));
  log(`\nwrote ${path.relative(process.cwd(), RESULTS_FILE)} and ${path.relative(process.cwd(), CHART_FILE)} (raw: ${rawFile}); total ${run.seconds.toFixed(0)} s`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
