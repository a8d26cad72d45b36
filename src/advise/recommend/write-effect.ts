import { estimateWriteUnit, type MutationWorkload, type MutationWritePlans, type ReferenceLocks, type SnapshotLocation, type SourceChangeCounts, type WorkloadSummary, type WriteModel, type WriteOperation } from '../../gateway';
import type { DataStatistics } from '../statistics/statistics-types';
import { count, round } from './workload-view';

/** A schema's write model, its Mutation fields' write plans and their lock rules: what each recorded mutation would send under it. */
export interface WriteSide {
  readonly model: WriteModel;
  readonly plans: MutationWritePlans;
  readonly locks: ReferenceLocks;
}

/** A storage change the advice may make, as docjoin migrate would apply it. */
export type StorageChange =
  | { readonly kind: 'widen-snapshot' | 'add-snapshot'; readonly coordinate: string; readonly fields: readonly string[] }
  | { readonly kind: 'drop-snapshot'; readonly coordinate: string }
  /** `counter`: the new `@counter(of: coordinate)` field's coordinate. */
  | { readonly kind: 'add-counter'; readonly coordinate: string; readonly counter: string }
  /** `total`: the new `@total(of: coordinate, field:)` field's coordinate, and its GraphQL type. */
  | { readonly kind: 'add-total'; readonly coordinate: string; readonly total: string; readonly field: string; readonly type: string };

/** The schema as it is, and as it would be after a change (or the one line saying why it would not start). */
export interface WriteSides {
  readonly before: WriteSide;
  after(change: StorageChange): WriteSide | string;
}

/** What a change does to the recorded mutations, summed over the whole recorded workload. */
export interface WriteDelta {
  /** Commands the mutations' units send more (negative: fewer): checks and reads… */
  readonly reads: number;
  /** …and write commands. */
  readonly writes: number;
  /** Documents modified more: the copies rewritten. Undefined when the copies per source could not be counted or sampled. */
  readonly documents: number | undefined;
  readonly evidence: readonly string[];
}

/**
 * Replays the recorded mutations against the write rules of the schema before and after `change`.
 *
 * Commands: each mutation's write plan priced with both write models (estimateWriteUnit, the rules
 * its units follow when they run), an `updateSource` once per recorded set of fields it changed, so a
 * price change is not priced as a rename; everything else once per run that stands (in a transaction
 * or not, as they ran).
 *
 * Copies: every recorded change of a source document (its fields set, or a counter its writes moved)
 * rewrites the copies of each snapshot location that copies one of those fields, outside the source
 * document: as many as the documents referencing that source, counted for the sources the workload
 * actually changed (their sample, weighted by changes), else the sampled fan-in.
 */
export function predictWrites(change: StorageChange, sides: WriteSides, workload: WorkloadSummary, statistics: DataStatistics | undefined): WriteDelta | string {
  const unknown = unknownChanges(workload);
  if (unknown) return unknown;
  const after = sides.after(change);
  if (typeof after === 'string') return after;
  const { before } = sides;
  let reads = 0;
  let writes = 0;
  for (const mutation of workload.mutations) {
    const name = mutation.field.slice(mutation.field.indexOf('.') + 1);
    const planBefore = before.plans[name];
    const planAfter = after.plans[name];
    if (!planBefore || !planAfter || planBefore.length !== planAfter.length) return `${mutation.field} was recorded, but the schema gives it no write plan (was the workload recorded against another schema?)`;
    const updatedBy = updatingOperations(planBefore, mutation.changes);
    planBefore.forEach((operation, index) => {
      const sets = mutation.changes.filter((_, set) => updatedBy[set] === index);
      const delta = commandDelta(before, after, operation, planAfter[index]!, mutation, sets);
      reads += delta.reads;
      writes += delta.writes;
    });
  }
  // A counter's writes each move one parent; a total's, the parents no statement moved before; a snapshot's rewrite its copies.
  if (change.kind === 'add-counter') return { reads, writes, documents: writes, evidence: [] };
  if (change.kind === 'add-total') return { reads, writes, ...totalDocumentsDelta(change.total, before, after, workload) };
  const copies = copiesDelta(change.coordinate, before.model, after.model, workload, statistics);
  return { reads, writes, documents: copies.documents, evidence: copies.evidence };
}

/**
 * The parents a new `@total` modifies that no statement modified before, over the recorded runs: one per
 * child inserted or deleted, unless a counter or bounded array of the same list already moves that parent
 * (the `$inc` joins its statement); one per update of the summed field (its own statement); two per
 * child re-pointed at another parent (an update of its key, a changeReference), unless a counter of the
 * list moves both already (a bounded array does not follow a move). A child without a number moves nothing, but the workload does not record which
 * runs had one: every run is priced as if it had, an upper bound.
 */
function totalDocumentsDelta(coordinate: string, before: WriteSide, after: WriteSide, workload: WorkloadSummary): { documents: number; evidence: string[] } {
  const total = after.model.totals.find((rule) => rule.coordinate === coordinate);
  if (!total) return { documents: 0, evidence: [] };
  const sameParents = (rule: { collection: string; childKey: string; parentKey: string }) => rule.collection === total.collection && rule.childKey === total.childKey && rule.parentKey === total.parentKey;
  // A counter of the same list moves the parents on every insert, delete and move; a bounded array on inserts and deletes only.
  const counted = before.model.counters.some((counter) => counter.source.kind === 'children' && counter.source.childCollection === total.childCollection && sameParents({ collection: counter.collection, ...counter.source }));
  const merged = counted || before.model.boundedArrays.some((array) => array.childCollection === total.childCollection && sameParents(array));
  const keyField = [...(before.model.storageMap.types.get(total.childType)?.fields.values() ?? [])].find((field) => field.kind === 'stored' && field.path === total.childKey)?.fieldName;
  const relations = before.model.storageMap.relations;
  let documents = 0;
  for (const mutation of workload.mutations) {
    const standing = mutation.runs - mutation.failed;
    for (const operation of before.plans[mutation.field.slice(mutation.field.indexOf('.') + 1)] ?? []) {
      if ((operation.kind === 'insert' || operation.kind === 'delete') && operation.typeName === total.childType && !merged) documents += standing;
      if (operation.kind === 'changeReference') {
        const join = relations.get(operation.coordinate)?.shapes.join;
        if (relations.get(operation.coordinate)?.typeName === total.childType && join?.localField === total.childKey && !counted) documents += 2 * standing;
      }
    }
    for (const set of mutation.changes) {
      if (set.typeName !== total.childType) continue;
      if (keyField !== undefined && set.fields.includes(keyField)) documents += counted ? 0 : 2 * set.documents;
      else if (set.fields.includes(total.summedField)) documents += set.documents;
    }
  }
  const why = merged ? `a child added or removed moves a parent another rule of ${total.of} moves already` : `each child added or removed moves its parent`;
  return { documents, evidence: [`${coordinate}: ${why}; a change of ${total.summedField} moves its parent by the difference`] };
}

/** Why the recorded changes cannot price a change: runs recorded without them, or sets past the cap. Undefined when they can. */
function unknownChanges(workload: WorkloadSummary): string | undefined {
  const untracked = workload.mutations.filter((mutation) => mutation.untrackedRuns > 0);
  if (untracked.length > 0) {
    return `${untracked.map((mutation) => `${count(mutation.untrackedRuns)} run(s) of ${mutation.field}`).join(', ')} were recorded without the fields they changed (windows from an older docjoin); record the workload again`;
  }
  const capped = workload.mutations.filter((mutation) => mutation.changesOther > 0);
  if (capped.length > 0) return `${capped.map((mutation) => mutation.field).join(', ')} changed more than 64 distinct sets of fields in a window; the changes past them were counted, not recorded`;
  return undefined;
}

/** For each recorded set of changes, the index of the plan's first `updateSource` that can have made it (its type, its fields among the operation's); -1 for none (a counter moved). */
function updatingOperations(plan: readonly WriteOperation[], sets: readonly SourceChangeCounts[]): number[] {
  return sets.map((set) => plan.findIndex((operation) => operation.kind === 'updateSource' && operation.typeName === set.typeName && set.fields.every((name) => operation.fields.includes(name))));
}

/**
 * The commands one plan operation sends more after than before, over the mutation's recorded runs: an
 * `updateSource` once per set of fields it changed (`sets`, assigned to it alone), any other operation
 * once per standing run. Each is priced in a transaction for the share of the runs that ran in one:
 * only there does a write take its locks (reference-locks.ts), which a change of what is copied can add
 * or remove.
 */
function commandDelta(before: WriteSide, after: WriteSide, operation: WriteOperation, operationAfter: WriteOperation, mutation: MutationWorkload, sets: readonly SourceChangeCounts[]): { reads: number; writes: number } {
  const standing = mutation.runs - mutation.failed;
  const atomicShare = standing > 0 ? Math.min(standing, mutation.atomicRuns) / standing : 0;
  const price = (side: WriteSide, priced: WriteOperation, transaction: boolean) => {
    const estimate = estimateWriteUnit(side.model, [priced], { transaction, locks: side.locks });
    return { reads: estimate.reads, writes: estimate.writes.length };
  };
  let reads = 0;
  let writes = 0;
  const add = (priced: WriteOperation, pricedAfter: WriteOperation, times: number) => {
    const inTransaction = Math.round(times * atomicShare);
    for (const [transaction, count] of [[true, inTransaction], [false, times - inTransaction]] as const) {
      if (count === 0) continue;
      const [was, will] = [price(before, priced, transaction), price(after, pricedAfter, transaction)];
      reads += (will.reads - was.reads) * count;
      writes += (will.writes - was.writes) * count;
    }
  };
  if (operation.kind !== 'updateSource' || operationAfter.kind !== 'updateSource') add(operation, operationAfter, standing);
  // The fan-out follows what changed, not what the plan allows.
  else for (const set of sets) add({ ...operation, fields: set.fields }, { ...operationAfter, fields: set.fields }, set.documents);
  return { reads, writes };
}

/**
 * The copies rewritten more after than before: per recorded set of source changes and per place copies
 * of `coordinate` are stored (a collection, and the path to the embedded type there), the locations
 * that copy one of the changed fields after, less those that do before, times the copies of a changed
 * source at that place.
 */
function copiesDelta(coordinate: string, before: WriteModel, after: WriteModel, workload: WorkloadSummary, statistics: DataStatistics | undefined): { documents: number | undefined; evidence: string[] } {
  const copying = (model: WriteModel, set: SourceChangeCounts) =>
    model.snapshots.filter((location) => location.field === coordinate && !location.inSourceDocument && location.sourceType === set.typeName && location.fields.some((field) => set.fields.includes(field.name)));
  let documents = 0;
  let unknown = false;
  const evidence: string[] = [];
  for (const set of workload.mutations.flatMap((mutation) => mutation.changes)) {
    const [was, will] = [copying(before, set), copying(after, set)];
    for (const place of new Set([...was, ...will].map(placeOf))) {
      const change = will.filter((location) => placeOf(location) === place).length - was.filter((location) => placeOf(location) === place).length;
      if (change === 0) continue;
      const location = [...will, ...was].find((candidate) => placeOf(candidate) === place)!;
      const perSource = copiesPerChangedSource(coordinate, location, set, statistics);
      if (perSource === undefined) {
        unknown = true;
        continue;
      }
      documents += change * set.documents * perSource.copies;
      const what = `${count(set.documents)} change(s) of ${set.typeName} ${set.fields.join(', ')}`;
      const copies = `${count(round(perSource.copies))} ${location.collection} copies each`;
      evidence.push(change > 0 ? `${what}: about ${copies} to rewrite (${perSource.from})` : `${what} rewrite about ${copies} today (${perSource.from})`);
    }
  }
  return { documents: unknown ? undefined : documents, evidence };
}

/** Where a location's copies are stored: its collection, and the path to the object holding the copy (`orders lines.`). */
function placeOf(location: SnapshotLocation): string {
  return `${location.collection} ${holderPrefix(location)}`;
}

/** The path from the document root to the object holding the copy, as embeddingPlaces writes it (`""`, `"lines."`). */
function holderPrefix(location: SnapshotLocation): string {
  return location.segments
    .slice(0, -1)
    .map((segment) => `${segment.path}.`)
    .join('');
}

/**
 * Documents referencing one source of `set`, at `location`'s place: the mean over the sampled
 * sources the set changed, weighted by their changes, counted where the relation's key is indexed;
 * else the sampled fan-in of the existing copies, or the average references per target.
 */
function copiesPerChangedSource(coordinate: string, location: SnapshotLocation, set: SourceChangeCounts, statistics: DataStatistics | undefined): { copies: number; from: string } | undefined {
  const holder = statistics?.writtenSources[coordinate]?.holders.find((candidate) => candidate.collection === location.collection && candidate.prefix === holderPrefix(location));
  if (holder) {
    let changes = 0;
    let copies = 0;
    for (const source of set.sample) {
      const counted = holder.copies[source.id];
      if (counted === undefined) continue;
      changes += source.changes;
      copies += source.changes * counted;
    }
    if (changes > 0) return { copies: copies / changes, from: `counted for ${count(set.sample.length)} sampled changed source(s)` };
  }
  const notSampled = set.sample.length === 0 ? 'no changed source sampled (picked by another field than _id): ' : '';
  const fanIn = statistics?.relations[coordinate]?.snapshots.find((snapshot) => snapshot.collection === location.collection)?.copiesPerSource;
  if (fanIn) return { copies: fanIn.mean, from: `${notSampled}the mean over sampled sources` };
  const average = averageReferences(coordinate, location, statistics);
  return average === undefined ? undefined : { copies: average, from: `${notSampled}parents per target, on average` };
}

/** Parents' count times the keys each holds, over the targets' count. */
function averageReferences(coordinate: string, location: SnapshotLocation, statistics: DataStatistics | undefined): number | undefined {
  const parents = statistics?.collections[location.collection]?.estimatedCount;
  const targets = statistics?.collections[location.sourceCollection]?.estimatedCount;
  if (!parents || !targets) return undefined;
  const keysPerParent = statistics?.relations[coordinate]?.array?.lengths?.mean ?? 1;
  return (parents * keysPerParent) / targets;
}
