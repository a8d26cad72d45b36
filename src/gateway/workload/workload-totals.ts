import type { CostLedger } from '../request/cost/cost-ledger';
import type { ReadStrategy } from '../startup/storage-map/storage-map-types';
import { SourceSample } from './source-sample';
import type { CollectionFanOut, CommandTimes, FieldWorkload, MissCounts, MissingFields, MutationWorkload, OperationCounts, OperationTotals, SelectedFields, SourceChangeCounts, TimedCommands } from './workload-types';

export type RecordedOperation = keyof OperationCounts;

/** A stored window or a summary: what addCounts sums. */
export interface WorkloadCounts {
  readonly operations: OperationCounts;
  readonly fields: readonly FieldWorkload[];
  readonly mutations: readonly MutationWorkload[];
  readonly commands: CommandTimes;
}

/**
 * Mutable workload counters: the recorder folds each operation's ledger into them, readWorkload sums
 * stored windows with them. Their size depends on the schema only: one entry per (relation field,
 * strategy) and per Mutation field, one fan-out count per collection written, and at most
 * `maxMissingSets` sets of missing fields per entry, the others counted together as `missingOther`.
 */
export class WorkloadTotals {
  readonly #operations: Record<RecordedOperation, Mutable<OperationTotals>> = { query: emptyTotals(), mutation: emptyTotals() };
  readonly #fields = new Map<string, Map<ReadStrategy, FieldCounters>>();
  readonly #mutations = new Map<string, MutationCounters>();
  readonly #commands: Record<CommandKind, Mutable<TimedCommands>> = emptyCommandTimes();
  /** Operations whose commands were timed. */
  #timedOperations = 0;

  constructor(private readonly maxMissingSets: number) {}

  get isEmpty(): boolean {
    return this.#operations.query.count === 0 && this.#operations.mutation.count === 0;
  }

  /** One executed operation: its totals, its relation fields' entries, its write units. */
  addOperation(type: RecordedOperation, ledger: CostLedger): void {
    const totals = this.#operations[type];
    totals.count += 1;
    this.#timedOperations += 1;
    for (const command of ledger.commands) {
      totals.roundTrips += 1;
      totals.documents += command.documents;
      totals.bytes += command.bytes;
      const kind = commandKind(command.commandName, command.documentsModified);
      const timed = this.#commands[kind];
      timed.commands += 1;
      timed.ms += command.durationMs;
      timed.documents += kind === 'reads' ? command.documents : (command.documentsModified ?? 0);
    }
    for (const read of ledger.fieldReads()) {
      const { cost } = read;
      const field = this.#field(read.coordinate, cost.strategy);
      field.operations += 1;
      field.resolves += read.resolves;
      field.parentDocuments += read.parentDocuments;
      field.roundTrips += cost.roundTrips;
      field.soleRoundTrips += read.soleRoundTrips;
      field.documents += cost.documents;
      field.delivered += read.delivered;
      field.bytes += read.bytes;
      field.keys += cost.keys;
      field.snapshotHits += cost.snapshotHits ?? 0;
      field.snapshotMisses += cost.snapshotMisses ?? 0;
      field.dangling += cost.dangling ?? 0;
      // Two selections of the field (aliases) may lack the same fields: the operation counts once per set.
      let counted: Set<string> | undefined;
      for (const [names, misses] of read.missing) {
        const key = names.join(',');
        const first = read.missing.size === 1 || !(counted ??= new Set()).has(key);
        counted?.add(key);
        this.#miss(field, key, names, first ? 1 : 0, misses);
      }
      for (const names of read.selections.keys()) this.#select(field, names, 1);
    }
    for (const unit of ledger.writeUnitCosts()) {
      const mutation = this.#mutation(unit.field ?? 'Mutation.(unknown)');
      mutation.runs += 1;
      if (unit.failed) mutation.failed += 1;
      mutation.attempts += unit.writes.attempts;
      mutation.roundTrips += unit.writes.roundTrips;
      mutation.documentsModified += unit.writes.documentsModified;
      if (unit.writes.atomic) mutation.atomicRuns += 1;
      for (const [collection, documents] of Object.entries(unit.writes.fanOut)) mutation.fanOut.set(collection, (mutation.fanOut.get(collection) ?? 0) + documents);
      for (const change of unit.sourceChanges) {
        const set = this.#changeSet(mutation, change.typeName, change.fields, 1);
        if (set && change.id !== undefined) set.sample.addId(change.id);
      }
    }
  }

  /** Adds counts read back from a flush (or a window whose flush failed). */
  addCounts(counts: WorkloadCounts): void {
    for (const type of RECORDED_OPERATIONS) {
      const totals = this.#operations[type];
      const added = counts.operations[type];
      totals.count += added.count;
      totals.roundTrips += added.roundTrips;
      totals.documents += added.documents;
      totals.bytes += added.bytes;
    }
    for (const added of counts.fields) {
      const field = this.#field(added.field, added.strategy);
      for (const name of FIELD_COUNTS) field[name] += added[name];
      for (const missing of added.missing) this.#miss(field, missing.fields.join(','), missing.fields, missing.operations, missing.misses);
      field.missingOther.operations += added.missingOther.operations;
      field.missingOther.misses += added.missingOther.misses;
      for (const selection of added.selections) this.#select(field, selection.fields, selection.operations);
      field.selectionsOther += added.selectionsOther;
    }
    for (const added of counts.mutations) {
      const mutation = this.#mutation(added.field);
      for (const name of MUTATION_COUNTS) mutation[name] += added[name];
      for (const { collection, documentsModified } of added.fanOut) mutation.fanOut.set(collection, (mutation.fanOut.get(collection) ?? 0) + documentsModified);
      for (const change of added.changes) {
        const set = this.#changeSet(mutation, change.typeName, change.fields, change.documents);
        for (const source of set ? change.sample : []) set!.sample.add(source.id, source.changes);
      }
    }
    this.#timedOperations += counts.commands.operations;
    for (const kind of COMMAND_KINDS) {
      const timed = this.#commands[kind];
      timed.commands += counts.commands[kind].commands;
      timed.ms += counts.commands[kind].ms;
      timed.documents += counts.commands[kind].documents;
    }
  }

  /** The set of `mutation`'s changes of `fields` of `typeName` documents, `documents` more of them; undefined past the cap (counted in changesOther). */
  #changeSet(mutation: MutationCounters, typeName: string, fields: readonly string[], documents: number): ChangeCounters | undefined {
    const key = `${typeName}:${fields.join(',')}`;
    let set = mutation.changes.get(key);
    if (!set) {
      if (mutation.changes.size >= this.maxMissingSets) {
        mutation.changesOther += documents;
        return undefined;
      }
      mutation.changes.set(key, (set = { typeName, fields: [...fields], documents: 0, sample: new SourceSample() }));
    }
    set.documents += documents;
    return set;
  }

  /** The counts as plain, sorted data. */
  counts(): WorkloadCounts {
    const fields: FieldWorkload[] = [];
    for (const coordinate of [...this.#fields.keys()].sort()) {
      const byStrategy = this.#fields.get(coordinate)!;
      for (const strategy of [...byStrategy.keys()].sort()) {
        const { missing, missingOther, selections, selectionsOther, ...counts } = byStrategy.get(strategy)!;
        fields.push({
          field: coordinate,
          strategy,
          ...counts,
          missing: [...missing.entries()].sort(([a], [b]) => compare(a, b)).map(([, set]) => ({ ...set })),
          missingOther: { ...missingOther },
          selections: [...selections.entries()].sort(([a], [b]) => compare(a, b)).map(([, set]) => ({ ...set })),
          selectionsOther,
        });
      }
    }
    const mutations: MutationWorkload[] = [...this.#mutations.keys()].sort().map((coordinate) => {
      const { fanOut, changes, ...counts } = this.#mutations.get(coordinate)!;
      const collections: CollectionFanOut[] = [...fanOut.keys()].sort().map((collection) => ({ collection, documentsModified: fanOut.get(collection)! }));
      const sets: SourceChangeCounts[] = [...changes.entries()]
        .sort(([a], [b]) => compare(a, b))
        .map(([, { sample, ...set }]) => ({ ...set, fields: [...set.fields], sample: sample.entries() }));
      return { field: coordinate, ...counts, fanOut: collections, changes: sets };
    });
    const timed = (kind: CommandKind): TimedCommands => ({ ...this.#commands[kind], ms: Math.round(this.#commands[kind].ms * 1000) / 1000 });
    const commands: CommandTimes = { operations: this.#timedOperations, reads: timed('reads'), singleWrites: timed('singleWrites'), multiWrites: timed('multiWrites'), others: timed('others') };
    return { operations: { query: { ...this.#operations.query }, mutation: { ...this.#operations.mutation } }, fields, mutations, commands };
  }

  #field(coordinate: string, strategy: ReadStrategy): FieldCounters {
    let byStrategy = this.#fields.get(coordinate);
    if (!byStrategy) this.#fields.set(coordinate, (byStrategy = new Map()));
    let field = byStrategy.get(strategy);
    if (!field) {
      field = { operations: 0, resolves: 0, parentDocuments: 0, roundTrips: 0, soleRoundTrips: 0, documents: 0, delivered: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: new Map(), missingOther: { operations: 0, misses: 0 }, selections: new Map(), selectionsOther: 0 };
      byStrategy.set(strategy, field);
    }
    return field;
  }

  #miss(field: FieldCounters, key: string, names: readonly string[], operations: number, misses: number): void {
    let set = field.missing.get(key);
    if (!set) {
      if (field.missing.size >= this.maxMissingSets) {
        field.missingOther.operations += operations;
        field.missingOther.misses += misses;
        return;
      }
      field.missing.set(key, (set = { fields: [...names], operations: 0, misses: 0 }));
    }
    set.operations += operations;
    set.misses += misses;
  }

  /** Operations that read the field with the set `names` of target fields (sets past the cap counted together). */
  #select(field: FieldCounters, names: readonly string[], operations: number): void {
    const key = names.join(',');
    let set = field.selections.get(key);
    if (!set) {
      if (field.selections.size >= this.maxMissingSets) {
        field.selectionsOther += operations;
        return;
      }
      field.selections.set(key, (set = { fields: [...names], operations: 0 }));
    }
    set.operations += operations;
  }

  #mutation(coordinate: string): MutationCounters {
    let mutation = this.#mutations.get(coordinate);
    if (!mutation) this.#mutations.set(coordinate, (mutation = { runs: 0, failed: 0, attempts: 0, roundTrips: 0, documentsModified: 0, atomicRuns: 0, changesOther: 0, untrackedRuns: 0, fanOut: new Map(), changes: new Map() }));
    return mutation;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type FieldCount = 'operations' | 'resolves' | 'parentDocuments' | 'roundTrips' | 'soleRoundTrips' | 'documents' | 'delivered' | 'bytes' | 'keys' | 'snapshotHits' | 'snapshotMisses' | 'dangling';
const FIELD_COUNTS: readonly FieldCount[] = ['operations', 'resolves', 'parentDocuments', 'roundTrips', 'soleRoundTrips', 'documents', 'delivered', 'bytes', 'keys', 'snapshotHits', 'snapshotMisses', 'dangling'];
type FieldCounters = Mutable<Pick<FieldWorkload, FieldCount>> & {
  readonly missing: Map<string, Mutable<MissingFields>>;
  readonly missingOther: Mutable<MissCounts>;
  readonly selections: Map<string, Mutable<SelectedFields>>;
  selectionsOther: number;
};

type MutationCount = 'runs' | 'failed' | 'attempts' | 'roundTrips' | 'documentsModified' | 'atomicRuns' | 'changesOther' | 'untrackedRuns';
const MUTATION_COUNTS: readonly MutationCount[] = ['runs', 'failed', 'attempts', 'roundTrips', 'documentsModified', 'atomicRuns', 'changesOther', 'untrackedRuns'];
type MutationCounters = Mutable<Pick<MutationWorkload, MutationCount>> & { readonly fanOut: Map<string, number>; readonly changes: Map<string, ChangeCounters> };
type ChangeCounters = Mutable<Omit<SourceChangeCounts, 'sample'>> & { readonly sample: SourceSample };

type CommandKind = Exclude<keyof CommandTimes, 'operations'>;
const COMMAND_KINDS: readonly CommandKind[] = ['reads', 'singleWrites', 'multiWrites', 'others'];
const READ_COMMANDS: ReadonlySet<string> = new Set(['find', 'getMore', 'aggregate', 'count', 'distinct']);
const WRITE_COMMANDS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'findAndModify']);

function commandKind(commandName: string, documentsModified: number | undefined): CommandKind {
  if (READ_COMMANDS.has(commandName)) return 'reads';
  if (!WRITE_COMMANDS.has(commandName)) return 'others';
  return (documentsModified ?? 0) > 1 ? 'multiWrites' : 'singleWrites';
}

function emptyCommandTimes(): Record<CommandKind, Mutable<TimedCommands>> {
  return { reads: emptyTimed(), singleWrites: emptyTimed(), multiWrites: emptyTimed(), others: emptyTimed() };
}

function emptyTimed(): Mutable<TimedCommands> {
  return { commands: 0, ms: 0, documents: 0 };
}

const RECORDED_OPERATIONS: readonly RecordedOperation[] = ['query', 'mutation'];

function emptyTotals(): Mutable<OperationTotals> {
  return { count: 0, roundTrips: 0, documents: 0, bytes: 0 };
}

/** Code-unit order (not the locale's), so that the order is the same on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
