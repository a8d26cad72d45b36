import type { RelationField, StorageMap } from '../../gateway';
import type { AdviceThresholds } from './advice-thresholds';
import type { Candidate } from './price-change';
import { RULES } from './rules-of-thumb';
import { count, round, type WorkloadView } from './workload-view';

/** What an `@aggregate` read records when it asks for nothing but an unfiltered count (aggregate-request.ts `reads`). */
const BARE_COUNT = 'count';

/**
 * A `@counter` for a list whose `@aggregate` fields were read, by query, for a bare count in at least
 * `switchDefaultShare` of their reads: the parent would hold the count, and those reads would send
 * nothing. Undefined when the list has no aggregate, already has a counter, or the reads asked for more.
 * Its writes (a `$inc` of the parent per child added or removed) are priced afterwards, with the
 * schema the change leaves (price-change.ts).
 */
export function counterAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, thresholds: AdviceThresholds): (Candidate & { readonly counterField: string }) | undefined {
  const aggregates = [...storageMap.aggregates.values()].filter((aggregate) => aggregate.list === field.coordinate && aggregate.parentLink !== undefined);
  if (aggregates.length === 0 || aggregates.some((aggregate) => aggregate.counter !== undefined)) return undefined;
  let reads = 0;
  let bare = 0;
  let saved = 0;
  let before = 0;
  for (const aggregate of aggregates) {
    const entry = workload.entry(aggregate.coordinate, 'join');
    if (!entry || entry.operations === 0) continue;
    const counted = entry.selections.filter((set) => set.fields.length === 1 && set.fields[0] === BARE_COUNT).reduce((sum, set) => sum + set.operations, 0);
    reads += entry.operations;
    bare += counted;
    saved += (entry.roundTrips * counted) / entry.operations;
    before += workload.roundTripsPer1000Queries(aggregate.coordinate) ?? 0;
  }
  if (bare === 0 || bare < thresholds.switchDefaultShare * reads) return undefined;
  const counterField = `${field.typeName}.${field.fieldName}Count`;
  return {
    kind: 'add-counter',
    change: `keep the number of ${field.coordinate} in each ${field.typeName} (${counterField}: Int! @counter(of: "${field.coordinate}")): a bare count is then read from the parent`,
    rule: RULES.addCounter,
    counterField,
    storage: { kind: 'add-counter', coordinate: field.coordinate, counter: counterField },
    roundTripsPer1000Queries: { before: round(before), after: round(before - (workload.perQueries(saved) ?? 0)) },
    queryRoundTrips: -saved,
    evidence: [`${count(bare)} of ${count(reads)} queries aggregating ${field.coordinate} asked only for an unfiltered count`],
  };
}
