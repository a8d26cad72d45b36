import type { RelationField, StorageMap, FieldWorkload } from '../../gateway';
import type { DataStatistics } from '../statistics/statistics-types';
import type { AdviceThresholds } from './advice-thresholds';
import type { FieldAdvice } from './advice-types';
import { RULES } from './rules-of-thumb';
import { count, round, type WorkloadView } from './workload-view';

type JoinAdvice = Omit<FieldAdvice, 'coordinate' | 'current' | 'antiPatterns' | 'effect'> & { readonly effect: Pick<FieldAdvice['effect'], 'roundTripsPer1000Queries' | 'documentsWrittenPer1000Mutations'> };

/**
 * Advice on a field read by its join, from the selections the workload recorded: switch its default to
 * the snapshot it declares when most join reads fit the copy; else, for a forward join with no
 * snapshot, add one copying what most reads select, when the copies it would cost to keep true (the
 * mutations' writes to the target, times the parents that would copy each target) stay under
 * `dropSnapshotAmplification` per round trip saved. Undefined when neither applies.
 */
export function joinAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, statistics: DataStatistics | undefined, thresholds: AdviceThresholds): JoinAdvice | undefined {
  const entry = workload.entry(field.coordinate, 'join');
  const join = field.shapes.join;
  if (!entry || !join || entry.operations === 0) return undefined;
  const before = workload.roundTripsPer1000Queries(field.coordinate) ?? 0;
  const snapshot = field.shapes.snapshot;
  if (snapshot) {
    if (field.defaultStrategy !== 'join') return undefined;
    const fitting = operationsReading(entry, (name) => snapshot.fields.includes(name));
    if (fitting < thresholds.switchDefaultShare * entry.operations) return undefined;
    const writes = workload.documentsWrittenPer1000Mutations();
    return {
      kind: 'switch-default',
      change: `read ${field.coordinate} from its snapshot by default (@read(strategy: SNAPSHOT))`,
      rule: RULES.switchDefault,
      effect: {
        roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries((entry.roundTrips * fitting) / entry.operations) ?? 0)) },
        documentsWrittenPer1000Mutations: writes === undefined ? undefined : { before: writes, after: writes },
      },
      evidence: [`${count(fitting)} of ${count(entry.operations)} queries joining ${field.coordinate} selected only fields its snapshot copies (${snapshot.fields.join(', ')})`],
    };
  }
  if (join.direction !== 'byKey' || !statistics) return undefined;
  const target = storageMap.types.get(join.targetType);
  const copyable = (name: string) => target?.fields.get(name)?.kind === 'stored';
  const covered = entry.selections.filter((set) => set.fields.every(copyable));
  const coveredOperations = covered.reduce((sum, set) => sum + set.operations, 0);
  if (coveredOperations < thresholds.switchDefaultShare * entry.operations) return undefined;
  const idField = [...(target?.fields.values() ?? [])].find((storage) => storage.kind === 'stored' && storage.isId)?.fieldName;
  const fields = [...new Set([...(idField ? [idField] : []), ...covered.flatMap((set) => set.fields)])];
  const parents = storageMap.types.get(field.typeName)?.collection;
  const copiesPerTarget = fanIn(field, parents, join.collection, statistics);
  if (copiesPerTarget === undefined) return undefined;
  const targetWrites = workload.documentsWritten(join.collection);
  const rewrites = targetWrites.documents * copiesPerTarget;
  const saved = (entry.roundTrips * coveredOperations) / entry.operations;
  if (rewrites / Math.max(1, saved) >= thresholds.dropSnapshotAmplification) return undefined;
  const writes = workload.documentsWrittenPer1000Mutations();
  return {
    kind: 'add-snapshot',
    change: `copy [${fields.join(', ')}] of each ${join.targetType} into ${parents ?? field.typeName} (@snapshot(path: "…", fields: [${fields.map((name) => JSON.stringify(name)).join(', ')}]) beside the @join)`,
    rule: RULES.addSnapshot,
    snapshotFields: fields,
    effect: {
      roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(saved) ?? 0)) },
      documentsWrittenPer1000Mutations: writes === undefined ? undefined : { before: writes, after: round(writes + (workload.perMutations(rewrites) ?? 0)) },
    },
    evidence: [
      `${count(coveredOperations)} of ${count(entry.operations)} queries joining ${field.coordinate} selected only ${fields.join(', ')}`,
      `${count(targetWrites.documents)} ${join.collection} document(s) written by mutations; each is referenced by about ${count(round(copiesPerTarget))} ${parents ?? ''} document(s), so at most ${count(round(rewrites))} copies to rewrite`,
    ],
  };
}

/** Operations whose recorded selection reads only fields `fits` accepts. */
function operationsReading(entry: FieldWorkload, fits: (name: string) => boolean): number {
  return entry.selections.filter((set) => set.fields.every(fits)).reduce((sum, set) => sum + set.operations, 0);
}

/**
 * How many parents would hold a copy of each target document: the parents' count times the keys each
 * holds (the sampled array's mean length for a list, else one), over the targets' count.
 */
function fanIn(field: RelationField, parents: string | undefined, targets: string, statistics: DataStatistics): number | undefined {
  const parentCount = parents === undefined ? undefined : statistics.collections[parents]?.estimatedCount;
  const targetCount = statistics.collections[targets]?.estimatedCount;
  if (!parentCount || !targetCount) return undefined;
  const keysPerParent = field.isList ? (statistics.relations[field.coordinate]?.array?.lengths?.mean ?? 1) : 1;
  return (parentCount * keysPerParent) / targetCount;
}
