import type { CostLedger } from '../request/cost/cost-ledger';
import type { ReadStrategy } from '../startup/storage-map/storage-map-types';
import type { CollectionFanOut, FieldWorkload, MissCounts, MissingFields, MutationWorkload, OperationCounts, OperationTotals, SelectedFields } from './workload-types';

export type RecordedOperation = keyof OperationCounts;

/** A stored window or a summary: what addCounts sums. */
export interface WorkloadCounts {
  readonly operations: OperationCounts;
  readonly fields: readonly FieldWorkload[];
  readonly mutations: readonly MutationWorkload[];
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

  constructor(private readonly maxMissingSets: number) {}

  get isEmpty(): boolean {
    return this.#operations.query.count === 0 && this.#operations.mutation.count === 0;
  }

  /** One executed operation: its totals, its relation fields' entries, its write units. */
  addOperation(type: RecordedOperation, ledger: CostLedger): void {
    const totals = this.#operations[type];
    totals.count += 1;
    for (const command of ledger.commands) {
      totals.roundTrips += 1;
      totals.documents += command.documents;
      totals.bytes += command.bytes;
    }
    for (const read of ledger.fieldReads()) {
      const { cost } = read;
      const field = this.#field(read.coordinate, cost.strategy);
      field.operations += 1;
      field.resolves += read.resolves;
      field.roundTrips += cost.roundTrips;
      field.documents += cost.documents;
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
      for (const [collection, documents] of Object.entries(unit.writes.fanOut)) mutation.fanOut.set(collection, (mutation.fanOut.get(collection) ?? 0) + documents);
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
    }
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
      const { fanOut, ...counts } = this.#mutations.get(coordinate)!;
      const collections: CollectionFanOut[] = [...fanOut.keys()].sort().map((collection) => ({ collection, documentsModified: fanOut.get(collection)! }));
      return { field: coordinate, ...counts, fanOut: collections };
    });
    return { operations: { query: { ...this.#operations.query }, mutation: { ...this.#operations.mutation } }, fields, mutations };
  }

  #field(coordinate: string, strategy: ReadStrategy): FieldCounters {
    let byStrategy = this.#fields.get(coordinate);
    if (!byStrategy) this.#fields.set(coordinate, (byStrategy = new Map()));
    let field = byStrategy.get(strategy);
    if (!field) {
      field = { operations: 0, resolves: 0, roundTrips: 0, documents: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: new Map(), missingOther: { operations: 0, misses: 0 }, selections: new Map(), selectionsOther: 0 };
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
    if (!mutation) this.#mutations.set(coordinate, (mutation = { runs: 0, failed: 0, attempts: 0, roundTrips: 0, documentsModified: 0, fanOut: new Map() }));
    return mutation;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type FieldCount = 'operations' | 'resolves' | 'roundTrips' | 'documents' | 'bytes' | 'keys' | 'snapshotHits' | 'snapshotMisses' | 'dangling';
const FIELD_COUNTS: readonly FieldCount[] = ['operations', 'resolves', 'roundTrips', 'documents', 'bytes', 'keys', 'snapshotHits', 'snapshotMisses', 'dangling'];
type FieldCounters = Mutable<Pick<FieldWorkload, FieldCount>> & {
  readonly missing: Map<string, Mutable<MissingFields>>;
  readonly missingOther: Mutable<MissCounts>;
  readonly selections: Map<string, Mutable<SelectedFields>>;
  selectionsOther: number;
};

type MutationCount = 'runs' | 'failed' | 'attempts' | 'roundTrips' | 'documentsModified';
const MUTATION_COUNTS: readonly MutationCount[] = ['runs', 'failed', 'attempts', 'roundTrips', 'documentsModified'];
type MutationCounters = Mutable<Pick<MutationWorkload, MutationCount>> & { readonly fanOut: Map<string, number> };

const RECORDED_OPERATIONS: readonly RecordedOperation[] = ['query', 'mutation'];

function emptyTotals(): Mutable<OperationTotals> {
  return { count: 0, roundTrips: 0, documents: 0, bytes: 0 };
}

/** Code-unit order (not the locale's), so that the order is the same on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
