import type { FieldWorkload, RelationField, WorkloadSummary } from '../../gateway';
import { readsByLookup, versionBefore } from '../../gateway';
import { targetingOf, type ShardKeys } from '../../sharding/shard-targeting';
import type { AdviceThresholds } from './advice-thresholds';
import type { PredictedEffect } from './advice-types';
import { ASSUMED_COSTS, type CommandCosts } from './command-costs';
import { RULES } from './rules-of-thumb';
import { count, round, type WorkloadView } from './workload-view';

/** The network between the gateway and MongoDB, as `docjoin advise` measured it (or was told). */
export interface NetworkCosts {
  /** The round trip a lookup saves, in milliseconds: measured, or `--latency-ms`. */
  readonly latencyMs: number;
  /** What the median of the pings measured. */
  readonly measuredMs: number;
  /** `--latency-ms`: the deployment the advice is for is not the one measured. */
  readonly assumed: boolean;
  /** The server's version (buildInfo), e.g. `7.0.12`; undefined when it could not be read. */
  readonly serverVersion: string | undefined;
}

/** What a lookup costs this server beyond the round trips it saves, as advise timed it (probe-lookup-costs.ts). */
export interface ProbedLookupCosts {
  /** One byte more in a reply (ms): a copy costs its size, as the join's replies measured it. */
  readonly byteMs: number;
  /** One parent more to join, by an indexed equality (ms). */
  readonly parentMs: number;
  /** The collection the probe read. */
  readonly collection: string;
}

/** What one copy of a join's target carries, by the lookups advised on the target's own fields and in its embedded elements (recommend.ts). */
export interface CarriedByCopy {
  /** Their documents per parent, summed. */
  readonly documents: number;
  /**
   * The joins they make in every copy, each in the share of the join's reads that selected it: one per
   * lookup on the target's fields, one per key of the copy's elements for a lookup in them.
   */
  readonly lookups: number;
}

/** Reading a join by lookup, priced: given when `rejectedBecause` is undefined. */
export interface PricedLookup {
  readonly kind: 'read-by-lookup';
  readonly change: string;
  readonly rule: string;
  readonly effect: Omit<PredictedEffect, 'largestDocumentBytes'>;
  readonly evidence: readonly string[];
  readonly rejectedBecause: string | undefined;
}

/**
 * Whether reading `field`'s join by `$lookup`, inside its parents' command, pays on the recorded
 * workload. It saves the join's round trips, each worth the round-trip latency to the database and its
 * command's own work beyond it (commandWorkOf). The database still does the join, once per parent
 * document the join resolved on (a parent several others share is one document in its parents'
 * command; in an embedded array, once per key handed to an element), and sends a target shared by
 * several parents once per parent: the keys those documents hold, against the documents the join read,
 * are the copies a lookup adds. Both are priced at what advise timed on the server (`probed`): a parent
 * at its cost, a copy at its cost per byte times the bytes the join's replies took per document.
 * Without a probe, a copy is priced at what the workload's reads took per document beyond their round
 * trip, a parent at ASSUMED_COSTS. Under load it is priced as saving only its commands' own work
 * (commandWorkOf), and a lookup whose copies, with the lookups they carry, cost more work than that is
 * refused; one given whose joins tip it past that gets a caution. Undefined when the workload never
 * joined the field, the field cannot be read that way (a connection), or there is no latency to save. Refused on a MongoDB older than 5.0 (or one that does
 * not tell its version), and into a sharded target where MongoDB cannot look it up (before 5.1) or would
 * ask every shard for each parent.
 */
export function lookupAdvice(
  field: RelationField,
  workload: WorkloadView,
  summary: WorkloadSummary | undefined,
  costs: CommandCosts,
  network: NetworkCosts | undefined,
  {
    onlyInElements = false,
    childrenListSeveral = false,
    holders,
    shardKeys,
    thresholds,
    carriedPerCopy,
    probed,
  }: {
    /** The field's type has no collection: its objects are only ever elements of an embedded array (or object). */
    readonly onlyInElements?: boolean;
    /** A reverse join whose children may each list several parents' keys (an array foreignField). */
    readonly childrenListSeveral?: boolean;
    /** For such a field, the documents that held the elements it resolved (one lookup each, for all their elements); undefined: none a lookup reaches. */
    readonly holders?: number | undefined;
    readonly shardKeys: ShardKeys | undefined;
    readonly thresholds: AdviceThresholds;
    readonly carriedPerCopy?: CarriedByCopy | undefined;
    readonly probed: ProbedLookupCosts | undefined;
  },
): PricedLookup | undefined {
  const entry = workload.entry(field.coordinate, 'join');
  const join = field.shapes.join;
  // Next to the database (no latency) a lookup has nothing to save.
  if (!network || network.latencyMs === 0 || !entry || !join || !readsByLookup(field) || entry.roundTrips === 0) return undefined;
  const change = `read ${field.coordinate} inside its parents' command (@read(strategy: LOOKUP)): its join's round trips go, and MongoDB joins each parent`;
  const before = workload.roundTripsPer1000Queries(field.coordinate) ?? 0;
  // A lookup runs once per parent document in its parents' command: a parent several grandparents share
  // (a publisher under each of its books) is one document there, joined once with its keys, however
  // often it resolved (its copies, under a lookup of its own, are carriedPerCopy).
  const perDocument = perParentDocument(entry);
  const parents = holders ?? Math.min(entry.parentDocuments, entry.resolves);
  const lookedUpKeys = lookedUpKeysOf(entry);
  // A document the join read once for several keys is sent once per key.
  // A single field joined by another key than _id (`currencyCode` → `code`) reads shared targets too.
  const sharedTargets = join.direction === 'byKey' || !field.isList;
  const copies = sharedTargets ? Math.max(0, lookedUpKeys - entry.documents) : 0;
  const { documentMs, parentMs, priced } = probed ? probedCosts(probed, entry.documents > 0 ? entry.bytes / entry.documents : 0) : unprobedCosts(summary, costs, network);
  // A round trip removed takes its command with it: the network, and the work a command does beyond it and its documents.
  const commandWork = commandWorkOf(summary, network, probed, documentMs);
  const savedMs = entry.roundTrips * (network.latencyMs + commandWork.ms);
  // Each copy also carries what the lookups advised on the target's own fields bring, and runs them (recommend.ts).
  const carried = copies * (carriedPerCopy?.documents ?? 0);
  const carriedParents = copies * (carriedPerCopy?.lookups ?? 0);
  const carriedMs = carried * documentMs + carriedParents * parentMs;
  // In an embedded array, one lookup per document reads the keys of all its elements, and each element
  // is then handed the documents of its own keys: priced per key, as a parent each (on the demo, the
  // 300 holdings of 100 people took the server 4.6 ms and the gateway 3.5 ms more a query by lookup,
  // about 27 µs a holding, where a parent probed at 16–20 µs).
  const joins = holders === undefined ? parents : Math.max(holders, lookedUpKeys);
  const joinedMs = joins * parentMs;
  const addedMs = joinedMs + copies * documentMs + carriedMs;
  const operations = workload.queries + workload.mutations;
  const per1000 = (value: number) => (operations === 0 ? 0 : (value / operations) * 1000);
  // The workload's MongoDB time at this latency: its commands were timed (or assumed) at another one.
  const timedAt = costs.source === 'assumed' ? ASSUMED_COSTS.commandMs : network.measuredMs;
  const totalMs = Math.max(0, costs.totalMs + workload.totalRoundTrips() * (network.latencyMs - timedAt));
  const effect = {
    roundTripsPer1000Queries: { before, after: round(before - (workload.perQueries(entry.roundTrips) ?? 0)) },
    documentsWrittenPer1000Mutations: undefined,
    net: {
      roundTripsPer1000Operations: { before: workload.roundTripsPer1000Operations(), after: round(workload.roundTripsPer1000Operations() - per1000(entry.roundTrips)) },
      commandMsPer1000Operations: { before: round(per1000(totalMs)), after: round(per1000(totalMs - savedMs + addedMs)) },
      commandCosts: costs.source,
    },
  };
  const latency = network.assumed ? `${network.latencyMs} ms a round trip (--latency-ms; measured: ${network.measuredMs} ms)` : `${network.measuredMs} ms a round trip to MongoDB (the median of the pings advise sent)`;
  const evidence: string[] = [
    `${count(entry.operations)} queries joined ${field.coordinate} in ${count(entry.roundTrips)} round trip(s), at ${latency} and ${milliseconds(commandWork.ms)} ms a command does beyond it (${commandWork.priced}): ${count(round(savedMs))} ms saved`,
    holders === undefined
      ? `MongoDB joins each of the ${count(parents)} parent document(s) the join resolved on${parents < entry.resolves ? ` (${count(entry.resolves)} resolves: a parent several others share is one document in its parents' command, joined once)` : ''}, at ${milliseconds(parentMs)} ms each (${priced}): ${count(round(joinedMs))} ms`
      : `MongoDB joins each of the ${count(holders)} document(s) holding the ${count(entry.resolves)} ${field.typeName} element(s) the join resolved, and each of their ${count(lookedUpKeys)} key(s) is handed to its element: ${count(joins)} join(s) at ${milliseconds(parentMs)} ms each (${priced}): ${count(round(joinedMs))} ms`,
    sharedTargets
      ? `the join read ${count(entry.documents)} document(s) for the ${perDocument < 1 ? 'about ' : ''}${count(lookedUpKeys)} key(s) its parent documents hold${perDocument < 1 ? ` (its ${count(entry.keys - entry.dangling)} key(s) over its resolves, per parent document)` : ''}: a lookup sends ${count(copies)} more (a document several parents share, once per parent), at ${milliseconds(documentMs)} ms each: ${count(round(copies * documentMs))} ms`
      : childrenListSeveral
        ? `${join.targetType}.${join.foreignField} may hold several parents' keys: a lookup sends a child once for each parent of the page that lists it, which the workload does not record; priced at the ${count(entry.documents)} document(s) the join read`
        : `a reverse join's children each hold one parent's key: a lookup sends the ${count(entry.documents)} document(s) the join read, no more`,
    ...(carriedParents > 0
      ? [
          `each copy runs the lookups advised on ${join.targetType} and its elements that the join's reads selected again (${round(carriedPerCopy!.lookups)} join(s) per copy), and carries the ${round(carriedPerCopy!.documents)} document(s) they bring: ` +
            `${count(round(carriedParents))} more parent(s) joined and ${count(round(carried))} more document(s), ${count(round(carriedMs))} ms`,
        ]
      : []),
  ];
  // Under load, requests wait on the CPU of the database and the gateway, not on the network: there a
  // round trip saves its command's own work, and what the join did not do is send each copy again
  // (its key the join's batch looked up too) and run the lookups it carries again. A reverse join sends
  // no copy: each parent's lookup stands for the key its batch looked up, and the check cannot refuse it.
  // The gateway's own work for the join (its batch, its loader's keys), which a lookup saves too, is not
  // priced: the check errs toward keeping the join, as a database whose CPU is the limit needs.
  const duplicatedMs = copies * documentMs + carriedMs;
  const commandsWorkMs = entry.roundTrips * commandWork.ms;
  if (duplicatedMs > 0) evidence.push(underLoad(duplicatedMs, commandsWorkMs, commandWork));
  const refused = elementsRefusal(field, onlyInElements, holders) ?? versionRefusal(network.serverVersion) ?? shardingRefusal(field, shardKeys, network.serverVersion);
  if (refused) return { kind: 'read-by-lookup', change, rule: RULES.readByLookup, effect, evidence, rejectedBecause: refused };
  const saved = savedMs - addedMs;
  const share = totalMs === 0 ? 0 : saved / totalMs;
  const rejectedBecause =
    saved > 0 && share > thresholds.minNetSavingShare
      ? duplicatedMs > commandsWorkMs
        ? `under load it adds work: its copies and the lookups they carry take ${count(round(duplicatedMs))} ms, more than the ${count(round(commandsWorkMs))} ms its round trips' commands took beyond the network, so throughput would drop where MongoDB's CPU is what limits it (the gateway's own work for the join, which a lookup also saves, is not priced)`
        : undefined
      : `on the recorded workload it ${saved > 0 ? `saves ${count(round(saved))}` : `costs ${count(round(-saved))}`} ms of MongoDB commands (${round(share * 100)}% of ${count(round(totalMs))}); a change must save more than ${thresholds.minNetSavingShare * 100}% (minNetSavingShare)`;
  // The joins count against the commands only in a caution on a lookup given (see joinsCaution).
  if (rejectedBecause === undefined && joinedMs + duplicatedMs > commandsWorkMs) evidence.push(joinsCaution(joins, joinedMs, duplicatedMs, commandsWorkMs));
  return { kind: 'read-by-lookup', change, rule: RULES.readByLookup, effect, evidence, rejectedBecause };
}

/** The share of a join's resolves that were on distinct parent documents (a parent several others share resolves once for each). */
function perParentDocument(entry: FieldWorkload): number {
  return entry.resolves === 0 ? 1 : Math.min(1, entry.parentDocuments / entry.resolves);
}

/** The keys a lookup looks up for a join's parent documents: the join's keys, less the dangling ones, scaled from its resolves to those documents. */
export function lookedUpKeysOf(entry: FieldWorkload): number {
  return Math.round((entry.keys - entry.dangling) * perParentDocument(entry));
}

/** What a command does beyond the network, and how advise knows it. */
interface CommandWork {
  readonly ms: number;
  readonly priced: string;
}

/**
 * What a read command took beyond the network and its documents, on average, as the workload timed
 * its reads against the pings advise sent: the work a round trip a lookup removes did at the database
 * and the driver. The reads' documents are priced at the probed cost of their own mean size (the
 * queries' reply bytes per document). Without a probe a document is priced at all of the reads' time
 * beyond their round trips, which leaves a command no work of its own to tell apart, and reads timed
 * at 0 ms were not timed (the driver counts whole milliseconds): the work is then assumed
 * (ASSUMED_COSTS.commandWorkMs).
 */
function commandWorkOf(summary: WorkloadSummary | undefined, network: NetworkCosts, probed: ProbedLookupCosts | undefined, documentMs: number): CommandWork {
  const reads = summary?.commands.reads;
  if (!probed || !summary || !reads || reads.commands === 0 || reads.ms === 0) return { ms: ASSUMED_COSTS.commandWorkMs, priced: 'assumed' };
  const queries = summary.operations.query;
  const readDocumentMs = queries.documents > 0 && queries.bytes > 0 ? probed.byteMs * (queries.bytes / queries.documents) : documentMs;
  const ms = Math.max(0, (reads.ms - reads.documents * readDocumentMs) / reads.commands - network.measuredMs);
  return { ms, priced: 'as the recorded reads took beyond the pings and their documents' };
}

function underLoad(duplicatedMs: number, commandsWorkMs: number, commandWork: CommandWork): string {
  return (
    `under load, where requests wait on CPU rather than on round trips, the copies (each sent and decoded again) and what they carry are ${count(round(duplicatedMs))} ms of work; ` +
    `the round trips' commands did ${count(round(commandsWorkMs))} ms beyond the network (${milliseconds(commandWork.ms)} ms each, ${commandWork.priced})`
  );
}

/**
 * Where the check above passes on the copies but their joins tip the work past the commands': a
 * lookup's per-parent join costs more than a key in the join's batch, by how much the check cannot tell
 * (on the embedded server, a top-level join about as much, 4–6 µs against 3–6; the demo's `Task.owner`
 * nested in `Person.tasks` added 3.0 ms for 280 tasks where the join's find of their 92 owners took 1.4).
 */
function joinsCaution(joins: number, joinedMs: number, duplicatedMs: number, commandsWorkMs: number): string {
  const copiesToo = duplicatedMs > 0 ? `, with the copies and what they carry ${count(round(joinedMs + duplicatedMs))} ms` : '';
  return (
    `caution: under load its ${count(joins)} join(s) take ${count(round(joinedMs))} ms${copiesToo}, ` +
    `more than the ${count(round(commandsWorkMs))} ms its round trips' commands did beyond the network. The check counts only the copies, as the join's batch looked those keys up too, ` +
    "but a lookup's join costs MongoDB more than a key in a batch, most of all nested in another lookup. Where MongoDB's CPU is the limit, measure the throughput before adopting it"
  );
}

/** What a lookup adds per parent and per copy, and how they were priced (for the evidence). */
interface LookupCosts {
  readonly documentMs: number;
  readonly parentMs: number;
  readonly priced: string;
}

function probedCosts(probed: ProbedLookupCosts, documentBytes: number): LookupCosts {
  const priced = `as advise timed reads of ${probed.collection}; a copy's ${count(Math.round(documentBytes))} bytes as the join's replies took`;
  return { documentMs: probed.byteMs * documentBytes, parentMs: probed.parentMs, priced };
}

/**
 * A lookup's costs when advise did not probe the server: a document at what the workload's reads took
 * per document they returned, less a round trip each (an overestimate: it also counts each command's own
 * work), a parent at ASSUMED_COSTS; at assumed costs (or without times), both at ASSUMED_COSTS.
 */
function unprobedCosts(summary: WorkloadSummary | undefined, costs: CommandCosts, network: NetworkCosts): LookupCosts {
  const reads = summary?.commands.reads;
  const parentMs = ASSUMED_COSTS.lookupParentMs;
  if (costs.source === 'assumed' || !reads || reads.documents === 0) return { documentMs: ASSUMED_COSTS.readDocumentMs, parentMs, priced: 'assumed' };
  return { documentMs: Math.max(0, reads.ms - reads.commands * network.measuredMs) / reads.documents, parentMs, priced: "a copy at the recorded reads' time per document, a parent assumed" };
}

/** Milliseconds to a tenth of a microsecond. */
function milliseconds(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Where an embedded type's elements are joined under lookup too (plan-projection.ts elementLookups). */
function elementsRefusal(field: RelationField, onlyInElements: boolean, holders: number | undefined): string | undefined {
  if (!onlyInElements) return undefined;
  if (field.shapes.join!.direction !== 'byKey') {
    return `${field.typeName} is only ever an element of an embedded array, where a reverse join stays joined under lookup (its per-parent limit would span every element)`;
  }
  if (holders === undefined) return `${field.typeName} is only ever an element that a lookup cannot reach (below a dotted path, inside another element, or as an interface's member): it stays joined`;
  return undefined;
}

/** docjoin's lookups pair `localField`/`foreignField` with a pipeline, which MongoDB reads from 5.0 on. */
function versionRefusal(serverVersion: string | undefined): string | undefined {
  if (serverVersion === undefined) return 'the server did not tell its version (buildInfo), and a lookup needs MongoDB 5.0 or later';
  return versionBefore(serverVersion, [5, 0]) ? `MongoDB ${serverVersion} cannot run docjoin's lookups ($lookup with both localField and a pipeline needs 5.0 or later)` : undefined;
}

/** Why a lookup into the field's target cannot be given on this cluster; undefined when it can. */
function shardingRefusal(field: RelationField, shardKeys: ShardKeys | undefined, serverVersion: string | undefined): string | undefined {
  const join = field.shapes.join!;
  if (!shardKeys || !Object.hasOwn(shardKeys, join.collection)) return undefined;
  if (serverVersion === undefined || versionBefore(serverVersion, [5, 1])) {
    return `${join.collection} is sharded (mongodb.shardKeys), and MongoDB ${serverVersion ?? 'of an unknown version'} cannot $lookup into a sharded collection (5.1 and later can)`;
  }
  const perParent = targetingOf({ collection: join.collection, command: 'find', filter: { [join.foreignField]: '?' } }, shardKeys);
  if (perParent === 'broadcast') return `${join.collection} is sharded by another key than ${join.foreignField} (mongodb.shardKeys): each parent's $lookup would ask every shard`;
  return undefined;
}
