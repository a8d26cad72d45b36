import type { OperationName, OperationVariables } from './peer-operations';

/** The implementations side by side, in the order the report lists them. */
export const PEER_NAMES = ['docjoin', 'docjoin-advised', 'docjoin-features-off', 'docjoin-baseline', 'dataloader', 'mongoose', 'naive', 'raw'] as const;
export type PeerName = (typeof PEER_NAMES)[number];

/** The GraphQL servers docjoin is compared with ("best peer" is the best of these). */
export const GRAPHQL_PEERS: readonly PeerName[] = ['dataloader', 'mongoose', 'naive'];

export const PEER_LABELS: Readonly<Record<PeerName, string>> = {
  docjoin: 'docjoin',
  'docjoin-advised': 'docjoin, advised strategies',
  'docjoin-features-off': 'docjoin, features off',
  'docjoin-baseline': 'docjoin at the baseline commit',
  dataloader: 'Apollo + DataLoader (hand-written)',
  mongoose: 'Apollo + Mongoose populate/lean',
  naive: 'Apollo, one query per parent',
  raw: 'raw driver floor (no GraphQL, no HTTP)',
};

/** The environment variable the runner gives the children: the baseline's worktree (bench/peers/baseline-build.ts). */
export const BASELINE_DIRECTORY_VARIABLE = 'PEERS_BASELINE_DIRECTORY';

/** The environment variable the runner gives the children: the fields `docjoin advise` advised to read by lookup at the phase's latency. */
export const ADVISED_LOOKUPS_VARIABLE = 'PEERS_ADVISED_LOOKUPS';

export function isPeerName(value: string): value is PeerName {
  return (PEER_NAMES as readonly string[]).includes(value);
}

/** What the child process measures about itself. */
export interface ProcessStats {
  /** process.cpuUsage(): user + system, µs since the process started. */
  readonly cpuMicros: number;
  readonly rssBytes: number;
  /** Commands its MongoDB clients sent so far; undefined when the process runs without command monitoring. */
  readonly commands: number | undefined;
}

/** Sequential runs of an in-process operation (the floor's p50 and p99). */
export interface SequentialRequest {
  readonly kind: 'sequential';
  readonly operation: OperationName;
  readonly variables: readonly OperationVariables[];
  readonly minSamples: number;
  readonly maxSamples: number;
  readonly maxMs: number;
}

/** `concurrency` runs in flight for `durationMs` (the floor's throughput). */
export interface ConcurrentRequest {
  readonly kind: 'concurrent';
  readonly operation: OperationName;
  readonly variables: readonly OperationVariables[];
  readonly concurrency: number;
  readonly durationMs: number;
}

export type PeerRequest =
  | { readonly kind: 'stats' }
  | { readonly kind: 'once'; readonly operation: OperationName; readonly variables: OperationVariables }
  | SequentialRequest
  | ConcurrentRequest;

export interface SequentialResult {
  readonly latenciesMs: readonly number[];
}

/**
 * What a throughput run answered. With `concurrency` requests in flight the first answers come only
 * after about one request's time under load, and the last requests are cut off when the run stops.
 */
export interface ThroughputWindow {
  readonly concurrency: number;
  readonly completed: number;
  /** performance.now() of the first and the last answer. */
  readonly firstMs: number;
  readonly lastMs: number;
  /** The mean latency of the answers under load (ms). */
  readonly meanLatencyMs: number;
  readonly seconds: number;
}

/** Below this many answers per request in flight, a run saw too few cycles for the window between answers. */
const MIN_CYCLES = 4;

/**
 * Answers per second. A run of many cycles: the answers between the first and the last, over that time
 * (the start-up and the cut-off tail left out). A slow operation's run of few cycles, whose answers come
 * in waves (every request started together): Little's law, requests in flight ÷ their mean latency.
 */
export function requestsPerSecond(window: ThroughputWindow): number {
  if (window.completed >= MIN_CYCLES * window.concurrency && window.lastMs > window.firstMs) return (window.completed - 1) / ((window.lastMs - window.firstMs) / 1000);
  if (window.completed > 0 && window.meanLatencyMs > 0) return window.concurrency / (window.meanLatencyMs / 1000);
  return window.completed / window.seconds;
}

/** Child → runner. */
export type PeerMessage =
  | { readonly type: 'ready'; readonly port: number | undefined }
  | { readonly type: 'reply'; readonly id: number; readonly result: unknown }
  | { readonly type: 'failed'; readonly id: number | undefined; readonly message: string };

/** Runner → child. */
export interface PeerCall {
  readonly type: 'call';
  readonly id: number;
  readonly request: PeerRequest;
}
