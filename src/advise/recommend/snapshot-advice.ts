import { embeddingPlaces, type RelationField, type StorageMap } from '../../gateway';
import type { AdviceThresholds } from './advice-thresholds';
import type { Candidate } from './price-change';
import { RULES } from './rules-of-thumb';
import { count, coveredBy, missOperations, round, type WorkloadView } from './workload-view';

/**
 * A change to a field that declares a snapshot, from the recorded workload: drop it when each round
 * trip it saved cost at least `dropSnapshotAmplification` copies rewritten; else widen it when reads
 * missed it for fields it could copy. Undefined when neither applies (or nothing was recorded). Its
 * writes are priced afterwards, with the change's schema (price-change.ts).
 */
export function snapshotAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, thresholds: AdviceThresholds): Candidate | undefined {
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
  const before = workload.roundTripsPer1000Queries(field.coordinate) ?? 0;

  if (written.documents > 0 && amplification >= thresholds.dropSnapshotAmplification) {
    return {
      kind: 'drop-snapshot',
      change: `remove the @snapshot and read ${field.coordinate} by its join`,
      rule: RULES.dropSnapshot,
      storage: { kind: 'drop-snapshot', coordinate: field.coordinate },
      roundTripsPer1000Queries: { before, after: round(before + (workload.perQueries(served) ?? 0)) },
      queryRoundTrips: served,
      evidence: [
        `${count(written.runs)} mutation(s) rewrote ${count(written.documents)} ${copies} copies of ${snapshot.fallback.collection} documents (${count(round(written.documents / Math.max(1, written.runs)))} per mutation)`,
        `the copy answered ${count(served)} of ${count(entry.operations)} queries reading it alone: ${count(round(amplification))} copies rewritten per round trip saved (threshold ${thresholds.dropSnapshotAmplification})`,
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
  const fields = [...snapshot.fields, ...added];
  return {
    kind: 'widen-snapshot',
    change: `add ${added.join(', ')} to the snapshot's fields`,
    rule: RULES.widenSnapshot,
    snapshotFields: fields,
    storage: { kind: 'widen-snapshot', coordinate: field.coordinate, fields },
    roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(saved) ?? 0)) },
    queryRoundTrips: -saved,
    evidence: [
      `${count(coveredOperations)} of ${count(entry.operations)} queries reading ${field.coordinate} missed the snapshot for ${added.join(', ')} (${count(coveredMisses)} copies fetched by the join)`,
      ...(written.runs > 0 ? [`${count(written.runs)} mutation(s) rewrote ${count(written.documents)} copies meanwhile`] : []),
    ],
  };
}
