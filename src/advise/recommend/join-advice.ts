import type { RelationField, StorageMap, FieldWorkload } from '../../gateway';
import type { AdviceThresholds } from './advice-thresholds';
import type { Candidate } from './price-change';
import { RULES } from './rules-of-thumb';
import { count, round, type WorkloadView } from './workload-view';

/**
 * A change to a field read by its join, from the selections the workload recorded: switch its default
 * to the snapshot it declares when most join reads fit the copy; else, for a forward join with no
 * snapshot, add one copying what most reads select. Undefined when neither applies. Its writes are
 * priced afterwards, with the change's schema (price-change.ts).
 */
export function joinAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, thresholds: AdviceThresholds): Candidate | undefined {
  const entry = workload.entry(field.coordinate, 'join');
  const join = field.shapes.join;
  if (!entry || !join || entry.operations === 0) return undefined;
  const before = workload.roundTripsPer1000Queries(field.coordinate) ?? 0;
  const snapshot = field.shapes.snapshot;
  if (snapshot) {
    if (field.defaultStrategy !== 'join') return undefined;
    const fitting = operationsReading(entry, (name) => snapshot.fields.includes(name));
    if (fitting < thresholds.switchDefaultShare * entry.operations) return undefined;
    const saved = (entry.roundTrips * fitting) / entry.operations;
    return {
      kind: 'switch-default',
      change: `read ${field.coordinate} from its snapshot by default (@read(strategy: SNAPSHOT))`,
      rule: RULES.switchDefault,
      storage: undefined,
      roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(saved) ?? 0)) },
      queryRoundTrips: -saved,
      evidence: [`${count(fitting)} of ${count(entry.operations)} queries joining ${field.coordinate} selected only fields its snapshot copies (${snapshot.fields.join(', ')})`],
    };
  }
  if (join.direction !== 'byKey' || join.foreignField !== '_id') return undefined;
  const target = storageMap.types.get(join.targetType);
  const copyable = (name: string) => target?.fields.get(name)?.kind === 'stored';
  const covered = entry.selections.filter((set) => set.fields.every(copyable));
  const coveredOperations = covered.reduce((sum, set) => sum + set.operations, 0);
  if (coveredOperations < thresholds.switchDefaultShare * entry.operations) return undefined;
  const idField = [...(target?.fields.values() ?? [])].find((storage) => storage.kind === 'stored' && storage.isId)?.fieldName;
  const fields = [...new Set([...(idField ? [idField] : []), ...covered.flatMap((set) => set.fields)])];
  const parents = storageMap.types.get(field.typeName)?.collection;
  // A key naming no document has nothing to copy: its copy would hold the key only, and reading it would
  // still join. A read saves its join only when none of its keys dangles: at the recorded share of
  // dangling keys, taken as independent, that is (1 - share) to the power of its keys.
  const keysPerRead = entry.operations > 0 ? entry.keys / entry.operations : 0;
  const withoutDangling = entry.keys > 0 ? (1 - entry.dangling / entry.keys) ** keysPerRead : 1;
  const saved = (entry.roundTrips * coveredOperations * withoutDangling) / entry.operations;
  const dangling = entry.dangling > 0 ? [`${count(entry.dangling)} of ${count(entry.keys)} keys the join read named no ${join.targetType} document: their copies could hold only the key, so a read with one of them would still join (counted as saving nothing)`] : [];
  return {
    kind: 'add-snapshot',
    change: `copy [${fields.join(', ')}] of each ${join.targetType} into ${parents ?? `each embedded ${field.typeName}`} (@snapshot(path: "…", fields: [${fields.map((name) => JSON.stringify(name)).join(', ')}]) beside the @join)`,
    rule: RULES.addSnapshot,
    snapshotFields: fields,
    storage: { kind: 'add-snapshot', coordinate: field.coordinate, fields },
    roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(saved) ?? 0)) },
    queryRoundTrips: -saved,
    evidence: [`${count(coveredOperations)} of ${count(entry.operations)} queries joining ${field.coordinate} selected only ${fields.join(', ')}`, ...dangling],
  };
}

/** Operations whose recorded selection reads only fields `fits` accepts. */
function operationsReading(entry: FieldWorkload, fits: (name: string) => boolean): number {
  return entry.selections.filter((set) => set.fields.every(fits)).reduce((sum, set) => sum + set.operations, 0);
}
