import type { ReadStrategy } from '../../startup/storage-map/storage-map-types';
import type { FilterShape, LookupShape } from './filter-shape';
import { LOCK_COLLECTION } from '../../documents/lock-collection';

/** One MongoDB command as command monitoring saw it, attributed to the request and fields that caused it. */
export interface CommandRecord {
  readonly collection: string;
  readonly commandName: string;
  /** `Type.field` coordinates whose loads this command served (several when fields shared a batch). */
  readonly fields: readonly string[];
  readonly documents: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly ok: boolean;
  /** The filter's keys and operators, values replaced by "?" (a getMore repeats its cursor's filter). */
  readonly filter?: FilterShape;
  /** An aggregate's `$lookup`s, each with the collection it read and what it selected by there. */
  readonly lookups?: readonly LookupShape[];
  /** Sent by a mutation's write unit (its reads, writes and commit/abort), during which attempt of it. */
  readonly writeUnit?: WriteAttemptTag;
  /** Documents the command changed (`nModified` / `n` of its reply); write units only. */
  readonly documentsModified?: number;
}

/** Which write unit of the request sent a command, and in which of its attempts (1 = the first). */
export interface WriteAttemptTag {
  readonly unit: number;
  readonly attempt: number;
}

/** `extensions.cost.writes`: what a mutation's write units sent and changed. */
export interface WriteCost {
  /** Commands of the write units: their checks, writes and commit/abort. */
  roundTrips: number;
  documentsModified: number;
  /** Documents modified per collection written. */
  fanOut: Record<string, number>;
  /** Every write unit ran in one transaction. */
  atomic: boolean;
  /** Times the units' work ran: 1 per unit, more when a transaction was retried (e.g. after a write conflict). */
  attempts: number;
  /**
   * Collections the write units read or wrote whose counts are left out of documentsModified, fanOut and
   * the report's documents and bytes: the viewer reads only some of their rows, or reads copies in them
   * filtered, and the count would tell of rows it cannot see (a fan-out into other viewers' copies, a
   * refill of a bounded array).
   */
  withheld?: string[];
}

export interface FieldCost {
  strategy: ReadStrategy;
  /** Commands this field's loads took part in (a batch shared by two fields counts for both). */
  roundTrips: number;
  /** Documents fetched from MongoDB for this field (0 when served embedded, from a snapshot or from cache). */
  documents: number;
  /** Keys (parent ids or references) this field asked for. */
  keys: number;
  snapshotHits?: number;
  snapshotMisses?: number;
  dangling?: number;
}

export interface CollectionCost {
  roundTrips: number;
  documents: number;
}

/**
 * What workload capture (workload/) reads of one relation field in one request, beyond its report entry.
 * Never part of `extensions.cost`.
 */
export interface FieldRead {
  readonly coordinate: string;
  /** The field's report entry. */
  readonly cost: Readonly<FieldCost>;
  /** Resolver calls: one per parent object, per alias. */
  readonly resolves: number;
  /**
   * The distinct parent objects among those resolves, per place in the operation the field is selected
   * at (its field nodes: each alias, each level): a document several parents share (a publisher under
   * each of its books, loaded once) counts once there. A lookup runs once per parent document in its
   * parents' command, per alias page, so this, not `resolves`, is how many joins MongoDB does for it
   * (aliases with the same page, which share one lookup, count apart: never fewer joins than it does).
   */
  readonly parentDocuments: number;
  /** Reply bytes of the commands its loads took part in (a batch shared by two fields counts for both). */
  readonly bytes: number;
  /**
   * The commands that served this field's loads and no other field's: what reading it without a command
   * would save (a batch shared with another field is sent for that one anyway).
   */
  readonly soleRoundTrips: number;
  /**
   * Documents handed to its resolves: a document under several parents once per parent, where
   * `cost.documents` counts once what was read (what a lookup, which joins each parent, would send).
   */
  readonly delivered: number;
  /**
   * Snapshot misses by the fields the copy lacked (the resolver's memoized list, so one array per
   * selection): the copies fetched instead.
   */
  readonly missing: ReadonlyMap<readonly string[], number>;
  /**
   * Join reads by the target fields their selection, filters and order read (one memoized array per
   * selection): the resolves that read each set. What a snapshot would have to copy to serve them.
   */
  readonly selections: ReadonlyMap<readonly string[], number>;
}

/** One write unit's `writes`, and the Mutation field that ran it (workload capture). */
export interface WriteUnitCost {
  readonly field: string | undefined;
  /** The unit ended in an error (its transaction, if any, was rolled back). */
  readonly failed: boolean;
  readonly writes: WriteCost;
  /** The source documents whose changes stand (its last attempt's; none when rolled back). */
  readonly sourceChanges: readonly SourceChange[];
}

/**
 * A source document a write unit changed, and which of its stored fields: what decides which copies
 * of it had to be rewritten. Workload capture records these (per Mutation field, by type and fields,
 * with a sample of the ids), so `docjoin advise` prices a snapshot by the writes that change what it
 * copies, and by the copies of the sources actually written. Never part of `extensions.cost`.
 */
export interface SourceChange {
  readonly typeName: string;
  /** GraphQL field names, sorted: the fields set, or the counter moved. */
  readonly fields: readonly string[];
  /** The document's `_id`; undefined when picked by another field and nothing copies it (never read). */
  readonly id: unknown;
}

/** One entry of the `x-docjoin-cost: commands` debug view. */
export interface CommandCost {
  collection: string;
  command: string;
  /** Keys and operators only (see filter-shape.ts); absent for commands without a filter. */
  filter?: FilterShape;
  /** An aggregate's `$lookup`s: the collection each read and what it selected by there (see filter-shape.ts). */
  lookups?: readonly LookupShape[];
  /** The `Type.field`s (or root fields) the command served. */
  fields: string[];
  /** Absent for a write unit's command on a collection the viewer reads in part (writes.withheld). */
  documents?: number;
  durationMs: number;
}

/** The `extensions.cost` payload (see src/gateway/README.md, "extensions.cost"). */
export interface CostReport {
  roundTrips: number;
  documents: number;
  bytes: number;
  durationMs: number;
  /** The static upper bound computed before execution (0 when the operation never reached execution). */
  estimatedRoundTrips: number;
  /** The same estimate's bound on documents. */
  estimatedDocuments: number;
  /** Round trips one-query-per-parent resolvers would have sent for the same result. */
  naiveRoundTrips: number;
  fields: Record<string, FieldCost>;
  collections: Record<string, CollectionCost>;
  /**
   * Only under access rules, for a role that reads some type in part or hides a field: the collections
   * whose replies `bytes` leaves out (then every one the operation sent a command to). A reply may carry
   * what the gateway leaves out for the viewer (copies of rows it may not read, a field it hides), whose
   * size the bytes would tell.
   */
  bytesWithheld?: string[];
  /** Only with `x-docjoin-cost: commands`. */
  commands?: CommandCost[];
  /** Only for operations that ran a write unit (mutations). */
  writes?: WriteCost;
  /**
   * Only when a measure of the operation exceeded its static estimate (a bug in the estimate, or data
   * the estimate's assumptions did not foresee): which. docjoin_estimate_exceeded_total counts them.
   */
  estimateExceeded?: Array<'roundTrips' | 'documents'>;
  /** Only with a per-client budget: the points the estimate took, what the operation measured, and the client's bucket after it. */
  requestedPoints?: number;
  actualPoints?: number;
  throttleStatus?: { readonly maximumAvailable: number; readonly currentlyAvailable: number; readonly restoreRate: number };
}

export interface ReportOptions {
  readonly estimatedRoundTrips?: number;
  readonly estimatedDocuments?: number;
  /** Include the per-command debug view. */
  readonly commands?: boolean;
  /** Under access rules, whether the viewer reads every row of a collection: writes to others are withheld from the counts. */
  readonly readsEveryRow?: (collection: string) => boolean;
  /**
   * Under access rules, whether a relation field's keys and dangling references may be shown: not for a
   * reference into rows the viewer reads in part, whose missing keys would count the rows it cannot see.
   */
  readonly keysShown?: (coordinate: string) => boolean;
  /** Under access rules, false: the replies' bytes may not be shown to the viewer (see CostReport.bytesWithheld). */
  readonly replyBytesShown?: boolean;
}

/**
 * Per-request cost accounting. The mongo funnel feeds it commands (from monitoring events); strategy
 * resolvers feed it per-field facts (keys, snapshot hits, dangling references). One ledger per request.
 */
export class CostLedger {
  readonly #commands: CommandRecord[] = [];
  readonly #fields = new Map<string, FieldCost>();
  /** Per field: its recorder, which also counts the parents that resolved it with a query to make (what a naive resolver sends once per parent). */
  readonly #recorders = new Map<string, FieldCostRecorder>();
  /** Per field: what workload capture reads beyond the report. */
  readonly #reads = new Map<string, FieldReadTally>();
  /** One entry per write unit, in the order they started. */
  readonly #writeUnits: WriteUnitRecord[] = [];
  /** Round trips retried attempts may spend: the limit minus the estimate (limitRoundTrips). */
  #retryRoundTrips = Number.POSITIVE_INFINITY;
  /** The round trips the operation may send, and the error past them (limitRoundTrips); reads started so far. */
  #roundTripLimit: { readonly max: number; readonly refusal: (fields: readonly string[]) => Error } | undefined;
  #readsStarted = 0;
  #readsInFlight = 0;
  readonly #whenSettled: Array<() => void> = [];
  #writeUnitCommands = 0;

  /** Documents `$lookup` stages brought inside the documents of the replies, by the collection they came from (commands count only the outer ones). */
  readonly #lookedUp = new Map<string, number>();

  /** Round trips and documents so far, without the rest of the report. */
  /** `readsEveryRow`: the viewer's, under access rules; what write units read of other collections is left out, as in report(). */
  totals(readsEveryRow?: (collection: string) => boolean): { roundTrips: number; documents: number } {
    let documents = this.#lookedUpTotal();
    for (const command of this.#commands) if (shownTo(command, readsEveryRow)) documents += command.documents;
    return { roundTrips: this.#commands.length, documents };
  }

  /** `count` documents of `collection` arrived inside the replies' documents, by `$lookup` (request/loaders/projected-read.ts). */
  lookedUp(collection: string, count: number): void {
    this.#lookedUp.set(collection, (this.#lookedUp.get(collection) ?? 0) + count);
  }

  #lookedUpTotal(): number {
    let total = 0;
    for (const count of this.#lookedUp.values()) total += count;
    return total;
  }

  recordCommand(command: CommandRecord): void {
    this.#commands.push(command);
    if (command.writeUnit !== undefined) this.#writeUnitCommands += 1;
    for (const coordinate of command.fields) {
      const field = this.#fields.get(coordinate);
      if (field) field.roundTrips += 1;
      const read = this.#reads.get(coordinate);
      if (!read) continue;
      read.bytes += command.bytes;
      if (command.fields.length === 1) read.soleRoundTrips += 1;
    }
  }

  /**
   * Called when a relation field resolves, with the parent object it resolves on and where the operation
   * selects it (its field nodes); later calls for the same field accumulate into one entry (and get one recorder).
   */
  field(coordinate: string, strategy: ReadStrategy, resolvedOn?: { readonly parent: unknown; readonly at: object }): FieldCostRecorder {
    let recorder = this.#recorders.get(coordinate);
    if (!recorder) this.#recorders.set(coordinate, (recorder = this.#newRecorder(coordinate, strategy)));
    const { entry } = recorder;
    // Aliases may resolve one field with different strategies (an embedded copy hands a filter to its
    // join): the entry names the one that reads most, not whichever alias's parents arrived first.
    if (STRATEGY_RANK[strategy] > STRATEGY_RANK[entry.strategy]) entry.strategy = strategy;
    if (strategy === 'snapshot') {
      entry.snapshotHits ??= 0;
      entry.snapshotMisses ??= 0;
    }
    this.#reads.get(coordinate)!.resolved(resolvedOn);
    return recorder;
  }

  #newRecorder(coordinate: string, strategy: ReadStrategy): FieldCostRecorder {
    const entry: FieldCost = { strategy, roundTrips: 0, documents: 0, keys: 0 };
    const read = new FieldReadTally(coordinate, entry);
    this.#fields.set(coordinate, entry);
    this.#reads.set(coordinate, read);
    return new FieldCostRecorder(entry, { count: 0, dangling: 0 }, read);
  }

  /** Each relation field read so far, with what workload capture records of it. */
  fieldReads(): IterableIterator<FieldRead> {
    return this.#reads.values();
  }

  /**
   * Called by the writes module once per write unit (a mutation's writes), before its first command.
   * The funnel tags the unit's commands with the record's current attempt and tells it how the unit ended.
   */
  recordWriteUnit(unit: { atomic: boolean; field?: string }): WriteUnitRecord {
    const record = new WriteUnitRecord(this.#writeUnits.length + 1, unit.atomic, unit.field);
    this.#writeUnits.push(record);
    return record;
  }

  /** Per write unit, in the order they started: `writes` as the report counts it, for that unit alone. */
  writeUnitCosts(): WriteUnitCost[] {
    return this.#writeUnits.map((unit) => ({
      field: unit.field,
      failed: unit.outcome === 'failed',
      writes: writesOf(this.#commands, [unit]),
      sourceChanges: unit.changesStand ? unit.sourceChanges : [],
    }));
  }

  /**
   * The commands, and the documents they returned, of write-unit attempts that ran again afterwards (a
   * transaction retried after a transient error). The static estimate bounds one attempt per unit, so
   * the estimate self-check leaves these out; `writes.attempts` reports the retries, and mayRetry keeps
   * them within the round-trip limit.
   */
  retriedAttempts(): { roundTrips: number; documents: number } {
    const retried = { roundTrips: 0, documents: 0 };
    for (const command of this.#commands) {
      const unit = command.writeUnit && this.#writeUnits[command.writeUnit.unit - 1];
      if (!unit || command.writeUnit!.attempt >= unit.attempts) continue;
      retried.roundTrips += 1;
      retried.documents += command.documents;
    }
    return retried;
  }

  /**
   * Before execution (the cost plugin): the operation may send at most `max` round trips, and its
   * estimate, which covers one attempt of each write unit, is `estimated`. Retried attempts may spend
   * the difference (mayRetry). Without a call, retries are not limited by round trips.
   */
  limitRoundTrips(limit: { readonly estimated: number; readonly max: number; readonly refusal?: (fields: readonly string[]) => Error }): void {
    this.#retryRoundTrips = limit.max - limit.estimated;
    this.#roundTripLimit = limit.refusal && { max: limit.max, refusal: limit.refusal };
  }

  /**
   * A read for `fields` is about to be sent: refused (the limit's `refusal`) once the reads started and
   * the write units' commands would pass the limit. Only reads the estimate does not count get there: a
   * hand-written resolver's (through `context.documents`), or a join stored data made that the estimate
   * did not foresee (snapshot copies lacking the selected fields, outside the startup sample). What
   * docjoin plans otherwise stays within its estimate, which the limit bounds before execution.
   */
  startRead(fields: readonly string[]): void {
    this.#readsStarted += 1;
    if (this.#roundTripLimit !== undefined && this.#readsStarted + this.#writeUnitCommands > this.#roundTripLimit.max) throw this.#roundTripLimit.refusal(fields);
    this.#readsInFlight += 1;
  }

  /** A read startRead let through has its answer, or has failed. */
  endRead(): void {
    this.#readsInFlight -= 1;
    if (this.#readsInFlight === 0) for (const settled of this.#whenSettled.splice(0)) settled();
  }

  /**
   * Resolves once no read is in flight, nor starts in the turn of the event loop after the last one
   * ends: graphql-js answers as soon as a non-null field fails, while its other branches go on reading,
   * and the report must count what they send. At once when none is in flight, as for nearly every answer.
   */
  async readsSettled(): Promise<void> {
    while (this.#readsInFlight > 0) {
      await new Promise<void>((resolve) => this.#whenSettled.push(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Whether `unit` may run again within the round-trip limit. Once it does, its latest attempt counts as
   * retried; the next attempt is within the estimate, which stays an upper bound for the commands of
   * every unit's latest attempt. So the measure stays within the limit while the commands of all
   * retried attempts, this one's included, fit in what the estimate leaves.
   */
  mayRetry(unit: WriteUnitRecord): boolean {
    const latest = this.#commands.filter((command) => command.writeUnit?.unit === unit.unit && command.writeUnit.attempt === unit.attempts).length;
    return this.retriedAttempts().roundTrips + latest <= this.#retryRoundTrips;
  }

  /** Every command so far, in order (the seam for issue 4's `x-docjoin-cost: commands` view). */
  get commands(): readonly CommandRecord[] {
    return this.#commands;
  }

  #writesReport(readsEveryRow: ((collection: string) => boolean) | undefined): WriteCost {
    return writesOf(this.#commands, this.#writeUnits, readsEveryRow ?? (() => true));
  }

  /**
   * What one-query-per-parent resolvers would send for the same result: one per root command (a find,
   * a mutation's write, or any command not made for a relation field; getMores excluded) plus, for
   * every relation field, one per parent that had something to look up (a join or a snapshot miss with
   * at least one key). `keysShown` false for a field (ReportOptions): its parents whose keys all
   * dangled are left out, as its `keys` leave out the dangling ones (they include rows the viewer cannot read).
   */
  naiveRoundTrips(keysShown: (coordinate: string) => boolean = () => true): number {
    let naive = 0;
    for (const command of this.#commands) {
      if (command.commandName !== 'getMore' && !command.fields.some((field) => this.#fields.has(field))) naive += 1;
    }
    for (const [coordinate, recorder] of this.#recorders) naive += recorder.naiveQueries - (keysShown(coordinate) ? 0 : recorder.danglingParents);
    return naive;
  }

  report(options: ReportOptions = {}): CostReport {
    const byCollection = new Map<string, CollectionCost>();
    let documents = this.#lookedUpTotal();
    let bytes = 0;
    let durationMs = 0;
    // A write unit keeps the data's copies true through every row (a bounded array's refill, a reference
    // check): what its commands read of a collection the viewer reads in part is not the viewer's to count.
    const withheld = new Set<string>();
    const bytesWithheld = new Set<string>();
    for (const command of this.#commands) {
      const shown = shownTo(command, options.readsEveryRow);
      if (!shown) withheld.add(command.collection);
      const bytesShown = shown && options.replyBytesShown !== false;
      if (!bytesShown) bytesWithheld.add(command.collection);
      documents += shown ? command.documents : 0;
      bytes += bytesShown ? command.bytes : 0;
      durationMs += command.durationMs;
      let collection = byCollection.get(command.collection);
      if (!collection) byCollection.set(command.collection, (collection = { roundTrips: 0, documents: 0 }));
      collection.roundTrips += 1;
      collection.documents += shown ? command.documents : 0;
    }
    // A looked-up collection may have no command of its own: it is listed with the documents it sent.
    for (const [name, count] of this.#lookedUp) {
      const collection = byCollection.get(name);
      if (collection) collection.documents += count;
      else byCollection.set(name, { roundTrips: 0, documents: count });
    }
    const collections = inKeyOrder(byCollection, (collection) => collection);
    const keysShown = options.keysShown ?? (() => true);
    const fields = inKeyOrder(this.#fields, (entry, coordinate) => fieldReport(entry, keysShown(coordinate)));
    const report: CostReport = {
      roundTrips: this.#commands.length,
      documents,
      bytes,
      durationMs: roundMs(durationMs),
      estimatedRoundTrips: options.estimatedRoundTrips ?? 0,
      estimatedDocuments: options.estimatedDocuments ?? 0,
      naiveRoundTrips: this.naiveRoundTrips(keysShown),
      fields,
      collections,
    };
    if (bytesWithheld.size > 0) report.bytesWithheld = [...bytesWithheld].sort();
    if (this.#writeUnits.length > 0) {
      report.writes = this.#writesReport(options.readsEveryRow);
      if (withheld.size > 0) report.writes.withheld = [...withheld].sort();
    }
    if (options.commands) report.commands = this.#commands.map((command) => toCommandCost(command, shownTo(command, options.readsEveryRow)));
    return report;
  }
}

/**
 * Round trips count every command a unit sent, in every attempt. Documents count only changes that
 * stand: in a transaction, those of the attempt that committed (a retried or rolled-back attempt's
 * writes were undone); without one, every write (nothing is undone, even when the unit failed).
 * fanOut lists each collection the counted attempt wrote to, 0 when its changes were undone.
 */
/** The commands that change documents (a write unit also reads, and commits). */
const WRITE_COMMANDS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** `readsEveryRow` given: the viewer's report, which also withholds what concealed units wrote (WriteUnitRecord.conceal). */
function writesOf(commands: readonly CommandRecord[], units: readonly WriteUnitRecord[], readsEveryRow?: (collection: string) => boolean): WriteCost {
  const writes: WriteCost = { roundTrips: 0, documentsModified: 0, fanOut: {}, atomic: units.every((unit) => unit.atomic), attempts: 0 };
  const withheld = new Set<string>();
  for (const unit of units) writes.attempts += unit.attempts;
  // Usually every unit of the request (units[i] is unit i + 1); writeUnitCosts passes one.
  const byNumber = new Map(units.map((unit) => [unit.unit, unit]));
  for (const command of commands) {
    if (!command.writeUnit) continue;
    const unit = byNumber.get(command.writeUnit.unit);
    if (!unit) continue;
    writes.roundTrips += 1;
    if (command.writeUnit.attempt !== unit.attempts) continue;
    // A lock bump (writes/reference-locks.ts) is a round trip, but it changes no document of the schema's.
    if (!WRITE_COMMANDS.has(command.commandName) || command.collection === LOCK_COLLECTION) continue;
    if (readsEveryRow && (!readsEveryRow(command.collection) || unit.concealed)) {
      withheld.add(command.collection);
      continue;
    }
    const modified = unit.changesStand ? (command.documentsModified ?? 0) : 0;
    writes.documentsModified += modified;
    writes.fanOut[command.collection] = (writes.fanOut[command.collection] ?? 0) + modified;
  }
  if (withheld.size > 0) writes.withheld = [...withheld].sort();
  return writes;
}

/** One write unit of a request: how many times its work ran, and whether its writes stand. */
export class WriteUnitRecord {
  #attempts = 0;
  #outcome: 'running' | 'committed' | 'failed' = 'running';
  #sourceChanges: SourceChange[] = [];
  #concealed = false;

  constructor(
    readonly unit: number,
    readonly atomic: boolean,
    /** The Mutation field (`Mutation.renameAuthor`) whose resolver ran the unit. */
    readonly field?: string,
  ) {}

  /** The unit's work starts (again, when a transaction is retried). */
  startAttempt(): void {
    this.#attempts += 1;
    this.#sourceChanges = [];
  }

  /** A source document the current attempt changed (an attempt run again starts from none). */
  noteSourceChange(change: SourceChange): void {
    this.#sourceChanges.push(change);
  }

  get sourceChanges(): readonly SourceChange[] {
    return this.#sourceChanges;
  }

  /**
   * The unit set a field the viewer may not see: how many documents its writes modified would tell
   * whether they held that value already, so its collections are withheld from the write counts.
   */
  conceal(): void {
    this.#concealed = true;
  }

  get concealed(): boolean {
    return this.#concealed;
  }

  /** The unit ended: its transaction committed (or its ordered writes all ran), or it failed. */
  finish(outcome: 'committed' | 'failed'): void {
    this.#outcome = outcome;
  }

  get attempts(): number {
    return this.#attempts;
  }

  get outcome(): 'running' | 'committed' | 'failed' {
    return this.#outcome;
  }

  /** The tag for a command sent now. */
  get tag(): WriteAttemptTag {
    return { unit: this.unit, attempt: this.#attempts };
  }

  /** A failed transaction was rolled back; writes outside a transaction stand whatever happened after them. */
  get changesStand(): boolean {
    return !this.atomic || this.#outcome === 'committed';
  }
}

const NO_FIELDS: readonly string[] = Object.freeze([]);

/** Which strategy a field's entry names when aliases resolved it with several: the one that reads most. */
const STRATEGY_RANK: Readonly<Record<ReadStrategy, number>> = { embedded: 0, snapshot: 1, lookup: 2, join: 3 };

/**
 * A field's entry with its keys in one order, whichever fact was recorded first. `keysShown` false: the
 * keys the viewer got, without the dangling ones (they include the rows it cannot read); so too the
 * snapshot misses, whose join found nothing for the copies of those rows.
 */
function fieldReport(entry: FieldCost, keysShown: boolean): FieldCost {
  const { strategy, roundTrips, documents, keys, snapshotHits, snapshotMisses, dangling } = entry;
  const unseen = keysShown ? 0 : (dangling ?? 0);
  const report: FieldCost = { strategy, roundTrips, documents, keys: keys - unseen };
  if (snapshotHits !== undefined) report.snapshotHits = snapshotHits;
  if (snapshotMisses !== undefined) report.snapshotMisses = Math.max(0, snapshotMisses - unseen);
  if (dangling !== undefined && keysShown) report.dangling = dangling;
  return report;
}

/** The map as an object with its keys in a fixed order, not in the order replies arrived: identical operations print identical reports. */
function inKeyOrder<V, R>(map: ReadonlyMap<string, V>, reported: (value: V, key: string) => R): Record<string, R> {
  const keys = [...map.keys()];
  if (keys.length > 1) keys.sort();
  const record: Record<string, R> = {};
  for (const key of keys) record[key] = reported(map.get(key)!, key);
  return record;
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function toCommandCost(command: CommandRecord, shown: boolean): CommandCost {
  return {
    collection: command.collection,
    command: command.commandName,
    ...(command.filter !== undefined && { filter: command.filter }),
    ...(command.lookups !== undefined && { lookups: command.lookups }),
    fields: [...command.fields],
    ...(shown && { documents: command.documents }),
    durationMs: roundMs(command.durationMs),
  };
}

/**
 * Whether a command's documents are the viewer's to count: a write unit keeps the data's copies true
 * through every row (a bounded array's refill, a reference check), so what it reads or writes of a
 * collection the viewer reads in part is withheld.
 */
function shownTo(command: CommandRecord, readsEveryRow: ((collection: string) => boolean) | undefined): boolean {
  return !command.writeUnit || !readsEveryRow || readsEveryRow(command.collection);
}

class FieldReadTally implements FieldRead {
  resolves = 0;
  bytes = 0;
  soleRoundTrips = 0;
  delivered = 0;
  readonly missing = new Map<readonly string[], number>();
  readonly selections = new Map<readonly string[], number>();
  /** The parent objects seen at each place the field is selected, and the resolves given none (each its own parent). */
  readonly #parentsAt = new Map<object, Set<object>>();
  #unplacedResolves = 0;

  constructor(
    readonly coordinate: string,
    readonly cost: FieldCost,
  ) {}

  resolved(on: { readonly parent: unknown; readonly at: object } | undefined): void {
    this.resolves += 1;
    if (on === undefined || typeof on.parent !== 'object' || on.parent === null) {
      this.#unplacedResolves += 1;
      return;
    }
    const parents = this.#parentsAt.get(on.at);
    if (parents) parents.add(on.parent);
    else this.#parentsAt.set(on.at, new Set([on.parent]));
  }

  get parentDocuments(): number {
    let documents = this.#unplacedResolves;
    for (const parents of this.#parentsAt.values()) documents += parents.size;
    return documents;
  }
}

/** Adds one field's facts to its ledger entry. */
export class FieldCostRecorder {
  constructor(
    readonly entry: FieldCost,
    private readonly naive: { count: number; dangling: number } = { count: 0, dangling: 0 },
    private readonly read?: FieldReadTally,
  ) {}

  /** The parents that read the field by a query: what a naive resolver sends, one query per parent. */
  get naiveQueries(): number {
    return this.naive.count;
  }

  /** Of those, the parents none of whose keys named a document (dangling, or rows the viewer may not read). */
  get danglingParents(): number {
    return this.naive.dangling;
  }

  /** Called once per parent whose keys (one or more) all dangled. */
  parentDangled(): void {
    this.naive.dangling += 1;
  }

  /** Called once per parent that reads the field by a query (join or snapshot miss), with its key count. */
  keys(count: number): void {
    this.entry.keys += count;
    if (count > 0) this.naive.count += 1;
  }

  documents(count: number): void {
    this.entry.documents += count;
  }

  /** The documents one resolve of the field got (FieldRead.delivered). */
  delivered(count: number): void {
    if (this.read) this.read.delivered += count;
  }

  snapshotHits(count: number): void {
    this.entry.snapshotHits = (this.entry.snapshotHits ?? 0) + count;
  }

  /** `missing`: the fields the copy lacked (pass the same array for the same selection; see FieldRead). */
  snapshotMisses(count: number, missing: readonly string[] = NO_FIELDS): void {
    this.entry.snapshotMisses = (this.entry.snapshotMisses ?? 0) + count;
    if (this.read) this.read.missing.set(missing, (this.read.missing.get(missing) ?? 0) + count);
  }

  /** A join read's target fields (the request context's memoized array for its selection). */
  selection(fields: readonly string[]): void {
    if (this.read) this.read.selections.set(fields, (this.read.selections.get(fields) ?? 0) + 1);
  }

  dangling(count: number): void {
    if (count > 0) this.entry.dangling = (this.entry.dangling ?? 0) + count;
  }
}
