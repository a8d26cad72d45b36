import { median } from '../support/bench-support';
import { operationNamed, type OperationName } from './peer-operations';
import { GRAPHQL_PEERS } from './peer-protocol';
import { measurementOf, type Measurement, type PeersRun, type PhaseResult } from './peer-results';

/**
 * The ratios the report shows and the targets, judged (reported, not enforced). Best peer: the
 * best of the hand-written GraphQL servers (DataLoader, Mongoose, naive) on that operation and measure;
 * floor: the raw driver's figure.
 */

/** The latency the targets are judged at. */
export const TARGET_LATENCY_MS = 1;
/** The latency the lookup targets are judged at: a database in another zone (issue 36). */
export const LOOKUP_TARGET_LATENCY_MS = 10;
/** At LOOKUP_TARGET_LATENCY_MS, docjoin's p50 with the advised strategies on a nested operation is at most this share of the best peer's. */
const LOOKUP_P50_SHARE = 0.5;
/** RSS is flat when the mean of the RSS run's last window is at most this share above its first's. */
export const FLAT_RSS_GROWTH = 0.1;
/** The RSS run's windows compared for growth (s). */
export const RSS_WINDOW_SECONDS = 10;
/** Load before the RSS run's samples start: V8 shrinks an idle heap, and the run must not count it growing back (s). */
export const RSS_WARMUP_SECONDS = 10;

export function bestPeerThroughput(phase: PhaseResult, operation: OperationName): Measurement | undefined {
  return peers(phase, operation).reduce<Measurement | undefined>((best, measurement) => (best === undefined || measurement.throughput > best.throughput ? measurement : best), undefined);
}

export function bestPeerP50(phase: PhaseResult, operation: OperationName): Measurement | undefined {
  return peers(phase, operation).reduce<Measurement | undefined>((best, measurement) => (best === undefined || measurement.p50Ms < best.p50Ms ? measurement : best), undefined);
}

function peers(phase: PhaseResult, operation: OperationName): Measurement[] {
  return GRAPHQL_PEERS.map((peer) => measurementOf(phase, peer, operation)).filter((measurement): measurement is Measurement => measurement !== undefined);
}

export interface Ratios {
  /** Throughput ÷ the best peer's (higher is better). */
  readonly throughputVsBestPeer: number | undefined;
  readonly throughputVsFloor: number | undefined;
  /** p50 ÷ the best peer's p50 (lower is better). */
  readonly p50VsBestPeer: number | undefined;
  readonly p50VsFloor: number | undefined;
}

export function ratiosOf(phase: PhaseResult, measurement: Measurement): Ratios {
  const bestThroughput = bestPeerThroughput(phase, measurement.operation);
  const bestP50 = bestPeerP50(phase, measurement.operation);
  const floor = measurementOf(phase, 'raw', measurement.operation);
  return {
    throughputVsBestPeer: bestThroughput && measurement.throughput / bestThroughput.throughput,
    throughputVsFloor: floor && measurement.throughput / floor.throughput,
    p50VsBestPeer: bestP50 && measurement.p50Ms / bestP50.p50Ms,
    p50VsFloor: floor && measurement.p50Ms / floor.p50Ms,
  };
}

export interface TargetCheck {
  readonly target: string;
  /** The operation, or what else the row is about. */
  readonly subject: string;
  readonly measured: string;
  /** undefined: could not be measured (the row says why). */
  readonly pass: boolean | undefined;
}

const times = (value: number): string => `${value.toFixed(2)}×`;

export function checkTargets(run: PeersRun): TargetCheck[] {
  return [...targetLatencyChecks(run), ...lookupChecks(run)];
}

/**
 * At LOOKUP_TARGET_LATENCY_MS, on the nested operations: docjoin with the strategies `docjoin advise`
 * advised there against the best peer's p50, and its throughput against docjoin's own, every join read
 * by join. Where the advice leaves an operation's round trips as they were (nothing it reads was
 * advised, or advise gave no lookup and docjoin-advised did not run), docjoin by join is what the
 * advised strategies serve, and there is no throughput to compare.
 */
function lookupChecks(run: PeersRun): TargetCheck[] {
  const phase = run.phases.find((candidate) => candidate.latencyMs === LOOKUP_TARGET_LATENCY_MS);
  const at = `at ${LOOKUP_TARGET_LATENCY_MS} ms`;
  if (phase === undefined) return [{ target: `${at}: the lookup targets`, subject: 'nested', measured: 'that latency was not run (PEERS_LATENCIES_MS)', pass: undefined }];
  if (phase.advice === undefined) return [{ target: `${at}: the lookup targets`, subject: 'nested', measured: 'docjoin with the advised strategies was not run (PEERS_ONLY)', pass: undefined }];
  const checks: TargetCheck[] = [];
  for (const operation of run.settings.operations.filter((name) => operationNamed(name).nested)) {
    const joined = measurementOf(phase, 'docjoin', operation);
    const withAdvice = measurementOf(phase, 'docjoin-advised', operation);
    const advised = withAdvice && joined && withAdvice.roundTrips !== joined.roundTrips ? withAdvice : joined;
    const best = bestPeerP50(phase, operation);
    if (advised && best) {
      const ratio = advised.p50Ms / best.p50Ms;
      const which = advised === joined ? 'nothing advised changes it: docjoin' : 'advised';
      checks.push({
        target: `${at}: p50 with the advised strategies ≤ ${LOOKUP_P50_SHARE}× best GraphQL peer`,
        subject: operation,
        measured: `${times(ratio)} (${which} ${advised.p50Ms.toFixed(2)} vs ${best.peer} ${best.p50Ms.toFixed(2)} ms)`,
        pass: ratio <= LOOKUP_P50_SHARE,
      });
    }
    if (joined && advised && advised !== joined) {
      const ratio = advised.throughput / joined.throughput;
      checks.push({ target: `${at}: throughput with the advised strategies ≥ 1.0× by join`, subject: operation, measured: `${times(ratio)} (${fixed(advised.throughput)} vs ${fixed(joined.throughput)} req/s)`, pass: ratio >= 1 });
    }
  }
  return checks;
}

function targetLatencyChecks(run: PeersRun): TargetCheck[] {
  const phase = run.phases.find((candidate) => candidate.latencyMs === TARGET_LATENCY_MS);
  if (phase === undefined) return [{ target: `targets are judged at ${TARGET_LATENCY_MS} ms latency`, subject: 'all', measured: 'that latency was not run (PEERS_LATENCIES_MS)', pass: undefined }];
  const checks: TargetCheck[] = [];
  const docjoin = (operation: OperationName) => measurementOf(phase, 'docjoin', operation);
  for (const operation of run.settings.operations) {
    const own = docjoin(operation);
    const best = bestPeerThroughput(phase, operation);
    if (own && best) {
      const ratio = own.throughput / best.throughput;
      checks.push({ target: 'throughput ≥ 1.0× best GraphQL peer', subject: operation, measured: `${times(ratio)} (${fixed(own.throughput)} vs ${best.peer} ${fixed(best.throughput)} req/s)`, pass: ratio >= 1 });
    }
  }
  for (const operation of run.settings.operations) {
    const own = docjoin(operation);
    const best = bestPeerP50(phase, operation);
    if (own && best) {
      const ratio = own.p50Ms / best.p50Ms;
      checks.push({ target: 'p50 ≤ 1.0× best GraphQL peer', subject: operation, measured: `${times(ratio)} (${own.p50Ms.toFixed(2)} vs ${best.peer} ${best.p50Ms.toFixed(2)} ms)`, pass: ratio <= 1 });
    }
  }
  for (const operation of run.settings.operations.filter((name) => operationNamed(name).nested)) {
    const own = docjoin(operation);
    const floor = measurementOf(phase, 'raw', operation);
    if (own && floor) {
      const ratio = own.throughput / floor.throughput;
      checks.push({ target: 'nested: throughput ≥ 0.5× raw floor', subject: operation, measured: `${times(ratio)} (${fixed(own.throughput)} vs ${fixed(floor.throughput)} req/s)`, pass: ratio >= 0.5 });
    }
  }
  const ownRss = phase.rss.docjoin;
  const handWritten = phase.rss.dataloader;
  const rssRun = `${run.settings.rssSeconds} s of every operation in turn`;
  if (ownRss && handWritten) {
    const ratio = ownRss.medianMb / handWritten.medianMb;
    checks.push({
      target: 'RSS ≤ 1.2× hand-written (median of the samples)',
      subject: rssRun,
      measured: `${times(ratio)} (${ownRss.medianMb.toFixed(0)} vs ${handWritten.medianMb.toFixed(0)} MB; peaks ${ownRss.peakMb.toFixed(0)} vs ${handWritten.peakMb.toFixed(0)}; serving ${fixed(ownRss.throughput)} vs ${fixed(handWritten.throughput)} req/s)`,
      pass: ratio <= 1.2,
    });
  }
  if (ownRss) {
    const growth = ownRss.lastWindowMb / ownRss.firstWindowMb - 1;
    checks.push({
      target: `RSS flat (last ${RSS_WINDOW_SECONDS} s ≤ ${FLAT_RSS_GROWTH * 100}% above the first ${RSS_WINDOW_SECONDS} s)`,
      subject: rssRun,
      measured: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)}% (${ownRss.firstWindowMb.toFixed(0)} → ${ownRss.lastWindowMb.toFixed(0)} MB, the means of ${RSS_WINDOW_SECONDS} samples; peak ${ownRss.peakMb.toFixed(0)})`,
      pass: growth <= FLAT_RSS_GROWTH,
    });
  }
  for (const operation of run.settings.operations) {
    const on = docjoin(operation);
    const off = measurementOf(phase, 'docjoin-features-off', operation);
    const pairs = phase.featureRatios[operation];
    if (on && off && pairs && pairs.length > 0) {
      const ratio = median(pairs);
      checks.push({
        target: 'features on ÷ off: throughput within 5%',
        subject: operation,
        measured: `${times(ratio)}, the median of ${pairs.length} pairs of back-to-back runs (${pairs.map((pair) => pair.toFixed(2)).join(', ')}; the rounds' medians ${fixed(on.throughput)} vs ${fixed(off.throughput)} req/s)`,
        pass: ratio >= 0.95,
      });
    }
  }
  const baseline = run.settings.baseline;
  for (const operation of baseline ? run.settings.operations : []) {
    const own = docjoin(operation);
    const before = measurementOf(phase, 'docjoin-baseline', operation);
    const pairs = phase.baselineRatios[operation];
    if (own && before && pairs && pairs.length > 0) {
      const ratio = median(pairs);
      checks.push({
        target: `throughput within 5% of ${baseline!.ref} (${baseline!.commit.slice(0, 7)}) or better`,
        subject: operation,
        measured: `${times(ratio)}, the median of ${pairs.length} pairs of back-to-back runs (the rounds' medians ${fixed(own.throughput)} vs ${fixed(before.throughput)} req/s)`,
        pass: ratio >= 0.95,
      });
    }
    if (own && before) {
      const ratio = own.p50Ms / before.p50Ms;
      checks.push({ target: `p50 within 5% of ${baseline!.ref} or better`, subject: operation, measured: `${times(ratio)} (${own.p50Ms.toFixed(2)} vs ${before.p50Ms.toFixed(2)} ms)`, pass: ratio <= 1.05 });
    }
  }
  return checks;
}

/** Requests per second as the tables print them. */
export function fixed(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1);
}
