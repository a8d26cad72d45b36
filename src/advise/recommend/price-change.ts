import type { WorkloadSummary } from '../../gateway';
import type { DataStatistics } from '../statistics/statistics-types';
import type { AdviceThresholds } from './advice-thresholds';
import type { AdviceKind, EffectPair, PredictedEffect } from './advice-types';
import { ASSUMED_COSTS, type CommandCosts } from './command-costs';
import { predictWrites, type StorageChange, type WriteDelta, type WriteSides } from './write-effect';
import { count, round, type WorkloadView } from './workload-view';

/** A change the workload argues for, priced on its reads only. */
export interface Candidate {
  readonly kind: Exclude<AdviceKind, 'keep' | 'bound-array' | 'stop-embedding'>;
  readonly change: string;
  readonly rule: string;
  readonly evidence: readonly string[];
  readonly snapshotFields?: readonly string[];
  /** The schema change to price the writes with; undefined when the write rules stay (a new read default). */
  readonly storage: StorageChange | undefined;
  /** The field's round trips per 1,000 queries, before and after. */
  readonly roundTripsPer1000Queries: EffectPair;
  /** The same change in round trips over the whole recorded workload (not rounded). */
  readonly queryRoundTrips: number;
}

/** What every candidate of one report is priced with. */
export interface PricingInput {
  readonly summary: WorkloadSummary | undefined;
  readonly sides: WriteSides | undefined;
  readonly statistics: DataStatistics | undefined;
  readonly thresholds: AdviceThresholds;
}

/** A candidate priced on both sides: its effect, the evidence of its writes, and why it is not given, if it is not. */
export interface PricedChange {
  readonly effect: Omit<PredictedEffect, 'largestDocumentBytes'>;
  readonly evidence: readonly string[];
  /** Undefined: given. */
  readonly rejectedBecause: string | undefined;
}

/**
 * Prices `candidate` on the whole recorded workload, in one currency: its read round trips saved and
 * the commands and copies its writes add (predictWrites), each in milliseconds of MongoDB commands at
 * `costs` (commandCosts: measured on that workload, or assumed). It is
 * given only when the workload's MongoDB time goes down by more than `minNetSavingShare`; a change
 * whose writes cannot be priced is not given either.
 */
export function priceChange(candidate: Candidate, workload: WorkloadView, costs: CommandCosts, { summary, sides, statistics, thresholds }: PricingInput): PricedChange {
  // A change the gateway would refuse to start with is no advice, whatever the workload.
  const refused = candidate.storage && sides ? sides.after(candidate.storage) : undefined;
  if (typeof refused === 'string') {
    return { effect: { roundTripsPer1000Queries: candidate.roundTripsPer1000Queries, documentsWrittenPer1000Mutations: undefined, mutationRoundTripsPer1000Mutations: undefined, net: undefined }, evidence: [], rejectedBecause: refused };
  }
  const queryDelta = candidate.queryRoundTrips;
  const writes = writeDelta(candidate, workload, summary, sides, statistics);
  const documentsBefore = workload.documentsWrittenPer1000Mutations();
  const mutationRoundTripsBefore = workload.mutationRoundTripsPer1000Mutations();
  if (typeof writes === 'string' || writes.documents === undefined) {
    const why = typeof writes === 'string' ? writes : 'the copies per changed source could not be counted or sampled (sample the data, and index the reference)';
    return {
      effect: { roundTripsPer1000Queries: candidate.roundTripsPer1000Queries, documentsWrittenPer1000Mutations: undefined, mutationRoundTripsPer1000Mutations: undefined, net: undefined },
      evidence: typeof writes === 'string' ? [] : writes.evidence,
      rejectedBecause: `its writes could not be priced: ${why}`,
    };
  }
  const documents = writes.documents;
  const commands = writes.reads + writes.writes;
  const operations = workload.queries + workload.mutations;
  const roundTrips = queryDelta + commands;
  const ms = (queryDelta + writes.reads) * costs.readMs + writes.writes * costs.writeMs + documents * costs.documentMs;
  const effect = {
    roundTripsPer1000Queries: candidate.roundTripsPer1000Queries,
    documentsWrittenPer1000Mutations: documentsBefore === undefined ? undefined : shifted(documentsBefore, workload.perMutations(documents)),
    mutationRoundTripsPer1000Mutations: mutationRoundTripsBefore === undefined ? undefined : shifted(mutationRoundTripsBefore, workload.perMutations(commands)),
    net: {
      roundTripsPer1000Operations: shifted(workload.roundTripsPer1000Operations(), per1000(roundTrips, operations)),
      commandMsPer1000Operations: shifted(round(per1000(costs.totalMs, operations)), per1000(ms, operations)),
      commandCosts: costs.source,
    },
  };
  const evidence = [...writes.evidence, ...(commands !== 0 ? [`mutations send ${signed(commands)} command(s) over the recorded workload (${signed(writes.reads)} read(s), ${signed(writes.writes)} write(s))`] : [])];
  const unit = costs.source === 'measured' ? 'ms of MongoDB commands' : `ms of MongoDB commands (assumed costs: ${ASSUMED_COSTS.commandMs} ms a command, ${ASSUMED_COSTS.documentMs} ms a further document)`;
  return { effect, evidence, rejectedBecause: rejection({ saved: -ms, total: costs.totalMs, unit }, thresholds) };
}

function writeDelta(candidate: Candidate, workload: WorkloadView, summary: WorkloadSummary | undefined, sides: WriteSides | undefined, statistics: DataStatistics | undefined): WriteDelta | string {
  if (!candidate.storage || !summary || workload.mutations === 0) return { reads: 0, writes: 0, documents: 0, evidence: [] };
  if (!sides) return 'no write model to replay the recorded mutations with';
  return predictWrites(candidate.storage, sides, summary, statistics);
}

/** Why a change saving `saved` of `total` is not given; undefined when it is. */
function rejection({ saved, total, unit }: { saved: number; total: number; unit: string }, thresholds: AdviceThresholds): string | undefined {
  const share = total === 0 ? 0 : saved / total;
  if (saved > 0 && share > thresholds.minNetSavingShare) return undefined;
  const what = saved > 0 ? `saves ${count(round(saved))} ${unit}` : saved < 0 ? `costs ${count(round(-saved))} ${unit} more than it saves` : `saves no ${unit}`;
  return `on the recorded workload it ${what} (${signed(round(-share * 100))}% of ${count(round(total))}); a change must save more than ${thresholds.minNetSavingShare * 100}% (minNetSavingShare)`;
}

function shifted(before: number, delta: number | undefined): EffectPair {
  return { before, after: round(before + (delta ?? 0)) };
}

function per1000(value: number, operations: number): number {
  return operations === 0 ? 0 : (value / operations) * 1000;
}

function signed(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${count(Math.abs(round(value)))}`;
}
