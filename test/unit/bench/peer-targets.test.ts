import { checkTargets, ratiosOf } from '../../../bench/peers/peer-targets';
import type { Measurement, PeersRun, PhaseResult, SteadyRss } from '../../../bench/peers/peer-results';
import type { OperationName } from '../../../bench/peers/peer-operations';
import type { PeerName } from '../../../bench/peers/peer-protocol';

function measured(peer: PeerName, operation: OperationName, throughput: number, p50Ms: number): Measurement {
  return { peer, operation, p50Ms, p99Ms: p50Ms * 3, samples: 40, throughput, throughputRounds: [throughput], roundTrips: 2, cpuMsPerRequest: 1, rssMb: 150, failed: 0 };
}

function steady(firstWindowMb: number, lastWindowMb: number, medianMb: number): SteadyRss {
  return { startedMb: 100, medianMb, peakMb: lastWindowMb + 5, firstWindowMb, lastWindowMb, throughput: 100, failed: 0 };
}

const PHASE: PhaseResult = {
  latencyMs: 1,
  seedSeconds: 2,
  seconds: 100,
  measurements: [
    measured('docjoin', 'books', 450, 6.8),
    measured('docjoin-features-off', 'books', 460, 6.7),
    measured('dataloader', 'books', 260, 8.1),
    measured('mongoose', 'books', 300, 7.5),
    measured('naive', 'books', 70, 16),
    measured('raw', 'books', 800, 4),
    measured('docjoin', 'posts', 1000, 3.8),
    measured('dataloader', 'posts', 1100, 3.9),
    measured('naive', 'posts', 900, 3.7),
    measured('raw', 'posts', 3600, 1.7),
  ],
  rss: { docjoin: steady(200, 225, 230), dataloader: steady(180, 185, 200) },
  featureRatios: { books: [0.9, 0.96, 1.1, 0.94, 0.97] },
  baselineRatios: {},
};

const RUN: PeersRun = {
  settings: { latenciesMs: [1], rounds: 5, durationSeconds: 2, warmupSeconds: 12, concurrency: 16, featurePairs: 5, featureProcesses: 4, rssSeconds: 60, minSamples: 5, maxSamples: 40, maxSampleMs: 250, peers: ['docjoin', 'docjoin-features-off', 'dataloader', 'mongoose', 'naive', 'raw'], operations: ['books', 'posts'] },
  phases: [PHASE],
  startedAt: '2026-11-28T00:00:00Z',
  node: 'v20',
  cpu: 'test',
  loadAverage: { start: 0, end: 0 },
  seconds: 100,
};

describe('peer benchmark targets', () => {
  it('compares with the best hand-written GraphQL peer per measure, never with docjoin itself or the floor', () => {
    const books = ratiosOf(PHASE, PHASE.measurements[0]!);
    expect(books.throughputVsBestPeer).toBeCloseTo(450 / 300, 10);
    expect(books.p50VsBestPeer).toBeCloseTo(6.8 / 7.5, 10);
    expect(books.throughputVsFloor).toBeCloseTo(450 / 800, 10);
    expect(books.p50VsFloor).toBeCloseTo(6.8 / 4, 10);
  });

  it('judges every target at 1 ms, with its pass or fail, and the nested floor only for nested operations', () => {
    const checks = checkTargets(RUN).map((check) => [check.target, check.subject, check.pass]);
    expect(checks).toEqual([
      ['throughput ≥ 1.0× best GraphQL peer', 'books', true],
      ['throughput ≥ 1.0× best GraphQL peer', 'posts', false],
      ['p50 ≤ 1.0× best GraphQL peer', 'books', true],
      ['p50 ≤ 1.0× best GraphQL peer', 'posts', false],
      ['nested: throughput ≥ 0.5× raw floor', 'books', true],
      ['RSS ≤ 1.2× hand-written (median of the samples)', '60 s of every operation in turn', true],
      ['RSS flat (last 10 s ≤ 10% above the first 10 s)', '60 s of every operation in turn', false],
      ['features on ÷ off: throughput within 5%', 'books', true],
      ['at 10 ms: the lookup targets', 'nested', undefined],
    ]);
  });

  it('at 10 ms, judges docjoin with the advised strategies against half the best peer\'s p50 and its own throughput by join, on nested operations', () => {
    const at10: PhaseResult = {
      ...PHASE,
      latencyMs: 10,
      advice: { lookups: ['Author.books', 'Host.logs'], rejected: [], predictedMsPer1000: -9000 },
      rss: {},
      featureRatios: {},
      measurements: [
        { ...measured('docjoin', 'authors', 120, 60), roundTrips: 4 },
        { ...measured('docjoin-advised', 'authors', 130, 40), roundTrips: 1 },
        measured('dataloader', 'authors', 40, 93),
        measured('mongoose', 'authors', 50, 96),
        measured('docjoin', 'hosts', 380, 26.6),
        { ...measured('docjoin-advised', 'hosts', 580, 15.5), roundTrips: 1 },
        measured('naive', 'hosts', 180, 28.9),
        // books: nothing advised changes its round trips, so docjoin by join is what the advised strategies serve (and there is no throughput row).
        measured('docjoin', 'books', 430, 28.4),
        measured('docjoin-advised', 'books', 400, 27),
        measured('mongoose', 'books', 460, 25.7),
        measured('docjoin', 'posts', 900, 12),
        measured('dataloader', 'posts', 800, 13),
      ],
    };
    const run: PeersRun = { ...RUN, settings: { ...RUN.settings, operations: ['books', 'hosts', 'posts', 'authors'] }, phases: [PHASE, at10] };
    const lookup = checkTargets(run).filter((check) => check.target.startsWith('at 10 ms'));
    expect(lookup.map((check) => [check.target, check.subject, check.measured, check.pass])).toEqual([
      ['at 10 ms: p50 with the advised strategies ≤ 0.5× best GraphQL peer', 'books', '1.11× (nothing advised changes it: docjoin 28.40 vs mongoose 25.70 ms)', false],
      ['at 10 ms: p50 with the advised strategies ≤ 0.5× best GraphQL peer', 'hosts', '0.54× (advised 15.50 vs naive 28.90 ms)', false],
      ['at 10 ms: throughput with the advised strategies ≥ 1.0× by join', 'hosts', '1.53× (580 vs 380 req/s)', true],
      ['at 10 ms: p50 with the advised strategies ≤ 0.5× best GraphQL peer', 'authors', '0.43× (advised 40.00 vs dataloader 93.00 ms)', true],
      ['at 10 ms: throughput with the advised strategies ≥ 1.0× by join', 'authors', '1.08× (130 vs 120 req/s)', true],
    ]);
    // Without docjoin-advised (PEERS_ONLY), the targets cannot be judged.
    const { advice: _advice, ...unadvised } = at10;
    expect(checkTargets({ ...run, phases: [PHASE, unadvised] }).filter((check) => check.target.startsWith('at 10 ms'))).toEqual([
      { target: 'at 10 ms: the lookup targets', subject: 'nested', measured: 'docjoin with the advised strategies was not run (PEERS_ONLY)', pass: undefined },
    ]);
  });

  it('reads the features target from the median pair, and says what it measured', () => {
    const features = checkTargets(RUN).find((check) => check.target.startsWith('features'))!;
    expect(features.measured).toBe("0.96×, the median of 5 pairs of back-to-back runs (0.90, 0.96, 1.10, 0.94, 0.97; the rounds' medians 450 vs 460 req/s)");
    const slower = checkTargets({ ...RUN, phases: [{ ...PHASE, featureRatios: { books: [0.9, 0.94, 1.1, 0.93, 0.97] } }] }).find((check) => check.target.startsWith('features'))!;
    expect(slower.pass).toBe(false);
  });

  it('with a baseline commit, judges throughput (median pair) and p50 within 5% of that build, per operation', () => {
    const withBaseline: PeersRun = {
      ...RUN,
      settings: { ...RUN.settings, peers: [...RUN.settings.peers, 'docjoin-baseline'], baseline: { ref: 'HEAD~3', commit: 'abcdef1234567890', subject: 'abcdef1 before' } },
      phases: [
        {
          ...PHASE,
          measurements: [...PHASE.measurements, measured('docjoin-baseline', 'books', 440, 6.9), measured('docjoin-baseline', 'posts', 1100, 3.5)],
          baselineRatios: { books: [1.01, 0.99, 1.03], posts: [0.9, 0.93, 0.96] },
        },
      ],
    };
    const checks = checkTargets(withBaseline).filter((check) => check.target.includes('HEAD~3'));
    expect(checks.map((check) => [check.target, check.subject, check.pass])).toEqual([
      ['throughput within 5% of HEAD~3 (abcdef1) or better', 'books', true],
      ['p50 within 5% of HEAD~3 or better', 'books', true],
      ['throughput within 5% of HEAD~3 (abcdef1) or better', 'posts', false],
      ['p50 within 5% of HEAD~3 or better', 'posts', false],
    ]);
    expect(checks[2]!.measured).toBe("0.93×, the median of 3 pairs of back-to-back runs (the rounds' medians 1,000 vs 1,100 req/s)");
    // Without a baseline commit there is no such row.
    expect(checkTargets(RUN).some((check) => check.target.includes('within 5% of'))).toBe(false);
  });

  it('says so when the target latency was not run', () => {
    expect(checkTargets({ ...RUN, phases: [{ ...PHASE, latencyMs: 0 }] })).toEqual([
      { target: 'targets are judged at 1 ms latency', subject: 'all', measured: 'that latency was not run (PEERS_LATENCIES_MS)', pass: undefined },
      { target: 'at 10 ms: the lookup targets', subject: 'nested', measured: 'that latency was not run (PEERS_LATENCIES_MS)', pass: undefined },
    ]);
  });
});
