import type { FieldWorkload, RelationField, StorageMap, WorkloadSummary } from '../../gateway';
import { holdsOneKey } from '../../gateway';
import type { DataStatistics } from '../statistics/statistics-types';
import { DEFAULT_ADVICE_THRESHOLDS, type AdviceThresholds } from './advice-thresholds';
import type { AdviceReport, AntiPattern, FieldAdvice } from './advice-types';
import { arrayAdvice, isUnboundedArray } from './array-advice';
import { describeStorage } from './describe-storage';
import { joinAdvice } from './join-advice';
import { lookedUpKeysOf, lookupAdvice, type CarriedByCopy, type NetworkCosts, type ProbedLookupCosts } from './lookup-advice';
import { commandCosts, type CommandCosts } from './command-costs';
import { counterAdvice, totalAdvice } from './counter-advice';
import { describePersonalFields } from './personal-data';
import { priceChange } from './price-change';
import { RULES } from './rules-of-thumb';
import { snapshotAdvice } from './snapshot-advice';
import type { WriteSides } from './write-effect';
import { WorkloadView } from './workload-view';
import { targetingOf, type ShardKeys } from '../../sharding/shard-targeting';

export interface AdviceInput {
  readonly storageMap: StorageMap;
  /** What `collectDataStatistics` sampled; undefined advises from the workload alone. */
  readonly statistics?: DataStatistics;
  /** What the gateway recorded (`readWorkload`); undefined advises from the data alone. */
  readonly workload?: WorkloadSummary;
  /**
   * The write rules of the schema as it is and after each change (write-sides.ts): the recorded
   * mutations are replayed against both to price a snapshot change's writes. Without them, a workload
   * with mutations gets no snapshot change (its writes could not be priced).
   */
  readonly writeSides?: WriteSides;
  readonly thresholds?: Partial<AdviceThresholds>;
  /** The cluster's shard keys (`mongodb.shardKeys`): joins it would broadcast are flagged. */
  readonly shardKeys?: ShardKeys;
  /** Price changes at ASSUMED_COSTS rather than the recorded command times (command-costs.ts). */
  readonly assumedCosts?: boolean;
  /** Only changes to how reads are served (a join read by lookup), none to what is stored (`--reads-only`). */
  readonly readsOnly?: boolean;
  /** The round trip to MongoDB (measured by the CLI, or `--latency-ms`): without it, no lookup is advised. */
  readonly network?: NetworkCosts;
  /** What a lookup costs the server, as the CLI timed it (probe-lookup-costs.ts); without it, lookups are priced at defaults. */
  readonly lookupCosts?: ProbedLookupCosts;
}

/**
 * One piece of advice per relation field. The data speaks first (an array that grows without bound
 * must change whatever the reads), then the workload (a snapshot's reads against its writes, priced
 * together: a change that does not save is `keep`, with what it would have been as `rejected`); a
 * field nothing argues about is `keep`. Pure: the same input gives the same report.
 */
export function recommend(input: AdviceInput): AdviceReport {
  const thresholds = { ...DEFAULT_ADVICE_THRESHOLDS, ...input.thresholds };
  const workload = new WorkloadView(input.workload);
  const costs = commandCosts(input.workload, { assumed: input.assumedCosts });
  const relations = [...input.storageMap.relations.values()].sort((a, b) => a.coordinate.localeCompare(b.coordinate));
  let carried = new Map<string, CarriedByCopy>();
  let fields = relations.map((field) => adviseField(field, input, workload, costs, thresholds, undefined));
  // A copy a lookup makes carries the lookups advised on its own fields and in its embedded elements:
  // priced again with them, until the advised set stops changing (a field it no longer pays for leaves the set).
  for (let pass = 0; pass < relations.length; pass++) {
    const next = carriedByCopies(relations, fields, workload, input.storageMap);
    if (sameCarried(next, carried)) break;
    carried = next;
    fields = relations.map((field) => adviseField(field, input, workload, costs, thresholds, carried.get(field.coordinate)));
  }
  return { workload: { queries: workload.queries, mutations: workload.mutations }, fields: fields.map((advice, index) => withPersonalData(advice, relations[index]!, input)) };
}

/** A lookup one copy of a type runs again: under which of the type's fields, the documents it brings and the joins it makes. */
interface CarriedLookup {
  readonly fieldName: string;
  readonly documents: number;
  readonly joins: number;
}

/**
 * Per by-key join, what each of its targets carries by the lookups advised on the target's own fields
 * and in the elements it embeds: their documents per parent read, as the workload recorded them, and
 * their joins, each in the share of the join's reads whose selection read that field (all of them when
 * none was recorded).
 */
function carriedByCopies(relations: readonly RelationField[], advice: readonly FieldAdvice[], workload: WorkloadView, storageMap: StorageMap): Map<string, CarriedByCopy> {
  const lookupsOn = new Map<string, CarriedLookup[]>();
  const carry = (typeName: string, lookup: CarriedLookup) => {
    const lookups = lookupsOn.get(typeName);
    if (lookups) lookups.push(lookup);
    else lookupsOn.set(typeName, [lookup]);
  };
  relations.forEach((field, index) => {
    if (advice[index]!.kind !== 'read-by-lookup') return;
    const entry = workload.entry(field.coordinate, 'join');
    if (!entry || entry.resolves === 0) return;
    // What each copy's lookup carries: the documents one resolve got (a document shared by parents, once each).
    carry(field.typeName, { fieldName: field.fieldName, documents: entry.delivered / entry.resolves, joins: 1 });
    // Its type's elements, embedded in documents, carry it in each copy of such a document too, as in the
    // document: per holder, a join and a document for each of its elements' keys (lookup-advice.ts prices it per key).
    const holders = holdersOf(field.typeName, storageMap, workload);
    if (holders === undefined || holders === 0) return;
    const keysPerHolder = lookedUpKeysOf(entry) / holders;
    for (const holding of elementHolders(field.typeName, storageMap)) {
      carry(holding.typeName, { fieldName: holding.fieldName, documents: keysPerHolder, joins: Math.max(1, keysPerHolder) });
    }
  });
  const carried = new Map<string, CarriedByCopy>();
  for (const field of relations) {
    const lookups = field.shapes.join?.direction === 'byKey' ? lookupsOn.get(field.targetType) : undefined;
    if (lookups === undefined) continue;
    const entry = workload.entry(field.coordinate, 'join');
    let perCopy = { documents: 0, lookups: 0 };
    for (const lookup of lookups) {
      const share = selectedShare(entry, lookup.fieldName);
      perCopy = { documents: perCopy.documents + lookup.documents * share, lookups: perCopy.lookups + lookup.joins * share };
    }
    if (perCopy.lookups > 0) carried.set(field.coordinate, perCopy);
  }
  return carried;
}

/**
 * The share of a join's recorded reads whose selection read `fieldName` of its target; the reads past
 * the recorded sets (selectionsOther) count as reading it, and a join with none recorded reads it always.
 * A share of operations, not of copies (the workload does not record which operation made how many):
 * where the operations that select the field are the ones with many copies, it prices them low.
 */
function selectedShare(entry: FieldWorkload | undefined, fieldName: string): number {
  const sets = entry?.selections ?? [];
  const other = entry?.selectionsOther ?? 0;
  const total = sets.reduce((sum, set) => sum + set.operations, 0) + other;
  if (total === 0) return 1;
  return (sets.reduce((sum, set) => sum + (set.fields.includes(fieldName) ? set.operations : 0), 0) + other) / total;
}

/** A reverse join whose children may each list several parents (holdsOneKey): a lookup sends such a child once per parent. */
function childrenListSeveral(field: RelationField, storageMap: StorageMap): boolean {
  const join = field.shapes.join;
  const children = join?.direction === 'byReference' ? storageMap.types.get(field.targetType) : undefined;
  return children !== undefined && !holdsOneKey(children, join!.foreignField);
}

/**
 * How many documents held the elements of `typeName` that the workload read, through the embedded fields
 * whose elements carry their lookups (plan-projection.ts elementLookups: a top-level path in a document of
 * a collection): each runs one lookup for all its elements. Undefined when no such field holds them.
 */
function holdersOf(typeName: string, storageMap: StorageMap, workload: WorkloadView): number | undefined {
  let holders: number | undefined;
  for (const field of elementHolders(typeName, storageMap)) holders = (holders ?? 0) + (workload.entry(field.coordinate, 'embedded')?.parentDocuments ?? 0);
  return holders;
}

/** The embedded fields whose elements of `typeName` carry their lookups: a top-level path in a document of a collection. */
function elementHolders(typeName: string, storageMap: StorageMap): RelationField[] {
  return [...storageMap.relations.values()].filter((field) => {
    const embedded = field.shapes.embedded;
    return field.targetType === typeName && embedded !== undefined && !embedded.path.includes('.') && storageMap.types.get(field.typeName)?.collection !== undefined;
  });
}

function sameCarried(a: ReadonlyMap<string, CarriedByCopy>, b: ReadonlyMap<string, CarriedByCopy>): boolean {
  return a.size === b.size && [...a].every(([coordinate, perCopy]) => b.get(coordinate)?.documents === perCopy.documents && b.get(coordinate)?.lookups === perCopy.lookups);
}

function adviseField(field: RelationField, input: AdviceInput, workload: WorkloadView, costs: CommandCosts, thresholds: AdviceThresholds, carriedPerCopy: CarriedByCopy | undefined): FieldAdvice {
  const relation = input.statistics?.relations[field.coordinate];
  const collectionName = input.storageMap.types.get(field.typeName)?.collection;
  const collection = collectionName === undefined ? undefined : input.statistics?.collections[collectionName];
  const base = {
    coordinate: field.coordinate,
    current: describeStorage(field),
    antiPatterns: antiPatterns(field, input, workload, thresholds),
  };
  const roundTrips = workload.roundTripsPer1000Queries(field.coordinate);
  const unchangedRoundTrips = roundTrips === undefined ? undefined : { before: roundTrips, after: roundTrips };
  const writes = workload.documentsWrittenPer1000Mutations();
  const largest = collection?.documentBytes?.max;

  const array = input.readsOnly ? undefined : arrayAdvice(field, relation, collection, thresholds);
  if (array) {
    const { largestDocumentBytes, ...advice } = array;
    return { ...base, ...advice, effect: { roundTripsPer1000Queries: unchangedRoundTrips, documentsWrittenPer1000Mutations: undefined, largestDocumentBytes } };
  }
  // The first change that pays is given; when none does, the first one considered is kept as rejected.
  let rejected: FieldAdvice['rejected'];
  const candidates = input.readsOnly ? [] : [snapshotAdvice(field, input.storageMap, workload, thresholds), joinAdvice(field, input.storageMap, workload, thresholds), counterAdvice(field, input.storageMap, workload, thresholds), totalAdvice(field, input.storageMap, workload, thresholds)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const { storage: _storage, roundTripsPer1000Queries: _reads, queryRoundTrips: _trips, ...advice } = candidate;
    const priced = priceChange(candidate, workload, costs, { summary: input.workload, sides: input.writeSides, statistics: input.statistics, thresholds });
    const effect = { ...priced.effect, largestDocumentBytes: undefined };
    const evidence = [...candidate.evidence, ...priced.evidence];
    if (priced.rejectedBecause === undefined) return { ...base, ...advice, effect, evidence };
    rejected ??= { kind: candidate.kind, change: candidate.change, because: priced.rejectedBecause, effect, evidence };
  }
  // A join the snapshot changes did not take can still save its round trips by lookup.
  const lookup = lookupAdvice(field, workload, input.workload, costs, input.network, {
    onlyInElements: collectionName === undefined,
    childrenListSeveral: childrenListSeveral(field, input.storageMap),
    holders: collectionName === undefined ? holdersOf(field.typeName, input.storageMap, workload) : undefined,
    shardKeys: input.shardKeys,
    thresholds,
    carriedPerCopy,
    probed: input.lookupCosts,
  });
  if (lookup) {
    const { rejectedBecause, ...advice } = lookup;
    const effect = { ...advice.effect, largestDocumentBytes: undefined };
    if (rejectedBecause === undefined) return { ...base, ...advice, effect };
    rejected ??= { kind: advice.kind, change: advice.change, because: rejectedBecause, effect, evidence: advice.evidence };
  }
  return {
    ...base,
    kind: 'keep',
    change: 'keep the current shape',
    rule: RULES.keep,
    effect: {
      roundTripsPer1000Queries: unchangedRoundTrips,
      documentsWrittenPer1000Mutations: writes === undefined ? undefined : { before: writes, after: writes },
      largestDocumentBytes: largest === undefined ? undefined : { before: largest, after: largest },
    },
    evidence: [],
    ...(rejected && { rejected }),
  };
}

/** Says which of the fields a snapshot change would newly copy look like personal data, and into how many documents. */
function withPersonalData(advice: FieldAdvice, field: RelationField, input: AdviceInput): FieldAdvice {
  if (!advice.snapshotFields) return advice;
  const copiedToday = field.shapes.snapshot?.fields ?? [];
  const personal = describePersonalFields(
    field.targetType,
    advice.snapshotFields.filter((name) => name !== 'id' && !copiedToday.includes(name)),
  );
  if (personal.length === 0) return advice;
  // The snapshot's copies today, wherever they are (inside copies of the field's documents too); a new one goes into the field's own documents.
  const located = (input.writeSides?.before.model.snapshots ?? []).filter((location) => location.coordinate === field.coordinate).map((location) => location.collection);
  const own = input.storageMap.types.get(field.typeName)?.collection ?? field.typeName;
  const copiedInto = [...new Set(located.length > 0 ? located : [own])].map((collection) => ({ collection, documents: input.statistics?.collections[collection]?.estimatedCount }));
  return { ...advice, personalData: { fields: personal, copiedInto } };
}

function antiPatterns(field: RelationField, input: AdviceInput, workload: WorkloadView, thresholds: AdviceThresholds): AntiPattern[] {
  const found: AntiPattern[] = [];
  const relation = input.statistics?.relations[field.coordinate];
  if (isUnboundedArray(relation, thresholds)) found.push('unbounded-array');
  const collection = relation?.collection === undefined ? undefined : input.statistics?.collections[relation.collection];
  if ((collection?.nearLimit.documents ?? 0) > 0) found.push('oversized-documents');
  const joined = workload.entry(field.coordinate, 'join');
  if (joined && workload.queries > 0 && joined.operations >= thresholds.everyRequestShare * workload.queries) found.push('join-on-every-request');
  if (input.shardKeys && broadcastJoin(field, workload, input.shardKeys)) found.push('broadcast-join');
  return found;
}

/**
 * Whether the field's join, read by default or by the recorded workload (snapshot misses included),
 * looks its targets up by another key than their collection's shard key: a cluster sends it to every shard.
 */
function broadcastJoin(field: RelationField, workload: WorkloadView, shardKeys: ShardKeys): boolean {
  const join = field.shapes.join;
  if (!join) return false;
  const readsJoin = field.defaultStrategy === 'join' || workload.entries(field.coordinate).some((entry) => entry.roundTrips > 0);
  const lookup = { collection: join.collection, command: join.direction === 'byKey' ? 'find' : 'aggregate', filter: { [join.foreignField]: { $in: '?' as const } } };
  return readsJoin && targetingOf(lookup, shardKeys) === 'broadcast';
}
