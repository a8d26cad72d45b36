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
  /** Sequential samples per round: at least min, at most max, no longer than maxMs once min are in. */
  readonly minSamples: number;
  readonly maxSamples: number;
  readonly maxSampleMs: number;
  readonly peers: readonly PeerName[];
  readonly operations: readonly OperationName[];
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

/** A process's RSS over a phase (MB). */
export interface RssTrace {
  /** Once started, before any request: the code and data it loads. */
  readonly afterStartMb: number;
  readonly afterWarmupMb: number;
  /** Over the samples taken after the warm-up and after every throughput run. */
  readonly medianMb: number;
  readonly peakMb: number;
  readonly endMb: number;
  /**
   * What the least-squares line through those samples gains from the first sample to the last (MB): a
   * leak shows as growth whatever the garbage collector's timing, which moves single samples by half.
   */
  readonly trendGrowthMb: number;
  readonly samples: number;
}

export interface PhaseResult {
  readonly latencyMs: number;
  readonly seedSeconds: number;
  readonly measurements: readonly Measurement[];
  readonly rss: Readonly<Partial<Record<PeerName, RssTrace>>>;
  /** Per operation, each pair's throughput ratio, docjoin with its features on ÷ off (at the target latency only). */
  readonly featureRatios: Readonly<Partial<Record<OperationName, readonly number[]>>>;
  readonly seconds: number;
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
