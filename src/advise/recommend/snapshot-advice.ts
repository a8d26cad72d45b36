import { embeddingPlaces, type RelationField, type StorageMap } from '../../gateway';
import type { RelationStatistics } from '../statistics/statistics-types';
import type { AdviceThresholds } from './advice-thresholds';
import type { EffectPair, FieldAdvice } from './advice-types';
import { RULES } from './rules-of-thumb';
import { count, coveredBy, missOperations, round, type WorkloadView } from './workload-view';

type SnapshotAdvice = Omit<FieldAdvice, 'coordinate' | 'current' | 'antiPatterns' | 'effect'> & { readonly effect: Partial<FieldAdvice['effect']> };

/**
 * Advice on a field that declares a snapshot, from the recorded workload: drop it when each round trip
 * it saved cost at least `dropSnapshotAmplification` copies rewritten; else widen it when reads missed
 * it for fields it could copy. Undefined when neither applies (or nothing was recorded).
 */
export function snapshotAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, statistics: RelationStatistics | undefined, thresholds: AdviceThresholds): SnapshotAdvice | undefined {
  const snapshot = field.shapes.snapshot;
  const entry = workload.entry(field.coordinate, 'snapshot');
  // A field of an embedded type (`OrderLine.product`) has its copies where that type is embedded.
  const copies = embeddingPlaces(storageMap, field.typeName)[0]?.collection;
  if (!snapshot || !entry || !copies) return undefined;
  const missed = missOperations(entry);
  // Operations the copy answered alone: each saved the join's round trip.
  const served = Math.max(0, entry.operations - missed);
  const written = workload.documentsWritten(copies, snapshot.fallback.collection);
  const amplification = written.documents / Math.max(1, served);
  const fanIn = (statistics?.snapshots.find((location) => location.coordinate === field.coordinate) ?? statistics?.snapshots[0])?.copiesPerSource;
  const before = workload.roundTripsPer1000Queries(field.coordinate) ?? 0;

  if (written.documents > 0 && amplification >= thresholds.dropSnapshotAmplification) {
    const writesBefore = workload.documentsWrittenPer1000Mutations() ?? 0;
    return {
      kind: 'drop-snapshot',
      change: `remove the @snapshot and read ${field.coordinate} by its join`,
      rule: RULES.dropSnapshot,
      effect: {
        roundTripsPer1000Queries: { before, after: round(before + (workload.perQueries(served) ?? 0)) },
        documentsWrittenPer1000Mutations: { before: writesBefore, after: round(writesBefore - (workload.perMutations(written.documents) ?? 0)) },
      },
      evidence: [
        `${count(written.runs)} mutation(s) rewrote ${count(written.documents)} ${copies} copies of ${snapshot.fallback.collection} documents (${count(round(written.documents / Math.max(1, written.runs)))} per mutation)`,
        `the copy answered ${count(served)} of ${count(entry.operations)} queries reading it alone: ${count(round(amplification))} copies rewritten per round trip saved (threshold ${thresholds.dropSnapshotAmplification})`,
        ...(fanIn ? [`sampled sources are copied by ${count(fanIn.p50)} documents (p50), ${count(fanIn.max)} at most`] : []),
      ],
    };
  }

  const target = storageMap.types.get(field.targetType);
  const copyable = (name: string) => target?.fields.get(name)?.kind === 'stored';
  const coverable = entry.missing.filter((set) => coveredBy(set, copyable));
  const coveredOperations = coverable.reduce((sum, set) => sum + set.operations, 0);
  if (coverable.length === 0 || coveredOperations < thresholds.widenMinMissShare * entry.operations) return undefined;
  // A copy that lacks a declared field (a backfill under way) misses for it too: that is no reason to widen.
  const added = [...new Set(coverable.flatMap((set) => set.fields))].filter((name) => !snapshot.fields.includes(name)).sort();
  if (added.length === 0) return undefined;
  const coveredMisses = coverable.reduce((sum, set) => sum + set.misses, 0);
  // The join round trips the misses cost, in the share of the operations the new fields turn into hits.
  const saved = missed === 0 ? 0 : (entry.roundTrips * coveredOperations) / missed;
  const writes = addedWrites(workload, copies, snapshot.fallback.collection, fanIn?.mean);
  return {
    kind: 'widen-snapshot',
    change: `add ${added.join(', ')} to the snapshot's fields`,
    rule: RULES.widenSnapshot,
    snapshotFields: [...snapshot.fields, ...added],
    effect: { roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(saved) ?? 0)) }, documentsWrittenPer1000Mutations: writes.effect },
    evidence: [
      `${count(coveredOperations)} of ${count(entry.operations)} queries reading ${field.coordinate} missed the snapshot for ${added.join(', ')} (${count(coveredMisses)} copies fetched by the join)`,
      ...(written.runs > 0 ? [`${count(written.runs)} mutation(s) rewrote ${count(written.documents)} copies meanwhile`] : []),
      ...writes.evidence.map((line) => line.replace('{fields}', added.join(', '))),
    ],
  };
}

/**
 * The copies a widening adds to the writes, estimated per recorded mutation that wrote source documents:
 * had it changed an added field (a counter is changed by every counted write), it would rewrite about
 * `copiesPerSource` copies of each; the documents it already wrote where the copies live (copies it
 * rewrote for the fields copied today, which the same statements now also set) are not added again.
 * Undefined without mutations, or without the sampled fan-in.
 */
function addedWrites(workload: WorkloadView, copies: string, sources: string, copiesPerSource: number | undefined): { effect: EffectPair | undefined; evidence: string[] } {
  const writesBefore = workload.documentsWrittenPer1000Mutations();
  const writers = workload.mutationsWriting(sources);
  if (writesBefore === undefined) return { effect: undefined, evidence: [] };
  if (writers.length === 0) return { effect: { before: writesBefore, after: writesBefore }, evidence: [] };
  const written = writers.reduce((sum, mutation) => sum + mutation.modified(sources), 0);
  const runs = writers.reduce((sum, mutation) => sum + mutation.runs, 0);
  if (copiesPerSource === undefined) {
    return { effect: undefined, evidence: [`${count(runs)} mutation(s) wrote ${count(written)} ${sources} document(s); sample the data to predict the copies copying {fields} adds`] };
  }
  const added = writers.reduce((sum, mutation) => sum + Math.max(0, mutation.modified(sources) * copiesPerSource - mutation.modified(copies)), 0);
  return {
    effect: { before: writesBefore, after: round(writesBefore + (workload.perMutations(added) ?? 0)) },
    evidence: [
      `${count(runs)} mutation(s) wrote ${count(written)} ${sources} document(s), each copied by about ${count(round(copiesPerSource))} ${copies} document(s): about ${count(round(added))} copies more to rewrite if they change {fields}`,
    ],
  };
}
