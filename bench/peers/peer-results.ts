import type { OperationName } from './peer-operations';
import type { PeerName } from './peer-protocol';

/** What one run of the peer benchmark measured: the runner fills it, the report and the chart read it. */

export interface PeersSettings {
  /** Latencies the embedded server adds to every reply, one phase each. */
  readonly latenciesMs: readonly number[];
  readonly rounds: number;
  /** Seconds of each throughput measurement (one per round). */
  readonly durationSeconds: number;
  /** The longest warm-up of one implementation on one operation. */
  readonly warmupSeconds: number;
  readonly concurrency: number;
  /** At the target latency, per operation: alternating runs of docjoin with its features on and off, paired. */
  readonly featurePairs: number;
  /** Fresh pairs of processes those pairs are spread over, each pair of processes warmed up on the operation first. */
  readonly featureProcesses: number;
  /** At the target latency, the RSS run's length after its warm-up (0: no RSS run). */
  readonly rssSeconds: number;
  /** Sequential samples per round: at least min, at most max, no longer than maxMs once min are in. */
  readonly minSamples: number;
  readonly maxSamples: number;
  readonly maxSampleMs: number;
  readonly peers: readonly PeerName[];
  readonly operations: readonly OperationName[];
  /** The commit docjoin-baseline was built from (PEERS_BASELINE); undefined without one. */
  readonly baseline?: { readonly ref: string; readonly commit: string; readonly subject: string } | undefined;
}

/** One implementation on one operation at one latency. */
export interface Measurement {
  readonly peer: PeerName;
  readonly operation: OperationName;
  /** Sequential latency over every round's samples (ms). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: number;
  /** Requests answered per second with `concurrency` in flight (from the first answer to the last): the median of the rounds. */
  readonly throughput: number;
  readonly throughputRounds: readonly number[];
  /** MongoDB commands per request (docjoin: extensions.cost.roundTrips; peers: their driver's command events). */
  readonly roundTrips: number;
  /** The server process's CPU time (user + system) per request over the sequential requests: the median of the rounds (ms). */
  readonly cpuMsPerRequest: number;
  /** The server process's largest RSS sampled after this operation's runs (MB). */
  readonly rssMb: number;
  /** Requests that failed in the throughput runs (should be 0). */
  readonly failed: number;
}

/** A server's resident set over the RSS run: every operation in turn, under load, sampled every second (MB). */
export interface SteadyRss {
  /** Once started, before any request: the code and data it loads. */
  readonly startedMb: number;
  readonly medianMb: number;
  readonly peakMb: number;
  /** The means of the samples of the run's first and last RSS_WINDOW_SECONDS. */
  readonly firstWindowMb: number;
  readonly lastWindowMb: number;
  /** Requests answered per second over the run, the operations mixed. */
  readonly throughput: number;
  readonly failed: number;
}

export interface PhaseResult {
  readonly latencyMs: number;
  readonly seedSeconds: number;
  readonly measurements: readonly Measurement[];
  /** At the target latency, each HTTP server's RSS run (the floor has no server); empty at other latencies. */
  readonly rss: Readonly<Partial<Record<PeerName, SteadyRss>>>;
  /** Per operation, each pair's throughput ratio, docjoin with its features on ÷ off (at the target latency only). */
  readonly featureRatios: Readonly<Partial<Record<OperationName, readonly number[]>>>;
  /** Per operation, each pair's throughput ratio, docjoin ÷ docjoin at the baseline commit (at the target latency, with PEERS_BASELINE). */
  readonly baselineRatios: Readonly<Partial<Record<OperationName, readonly number[]>>>;
  /** What `docjoin advise` advised at this latency, when docjoin-advised was asked for. */
  readonly advice?: PhaseAdvice;
  readonly seconds: number;
}

/** `docjoin advise` on a workload of the phase's queries, recorded by join before the timing. */
export interface PhaseAdvice {
  /** The fields it advised to read by lookup (docjoin-advised serves them so; it is left out of a phase without any). */
  readonly lookups: readonly string[];
  /** `Type.field: why not`, for each lookup it rejected. */
  readonly rejected: readonly string[];
  /** The advised fields' predicted change in MongoDB time per 1,000 operations of that workload (ms). */
  readonly predictedMsPer1000: number;
}

export interface PeersRun {
  readonly settings: PeersSettings;
  readonly phases: readonly PhaseResult[];
  readonly startedAt: string;
  readonly node: string;
  readonly cpu: string;
  /** os.loadavg()[0] when the run started and when it ended: other work on the machine skews the numbers. */
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly seconds: number;
}

export function measurementOf(phase: PhaseResult, peer: PeerName, operation: OperationName): Measurement | undefined {
  return phase.measurements.find((measurement) => measurement.peer === peer && measurement.operation === operation);
}
