import type { FieldWorkload, MissingFields, WorkloadSummary } from '../../gateway';

/**
 * The recorded workload as the advice reads it: per field and per 1,000 queries or mutations. Without
 * a recorded workload every count is 0 and every rate undefined.
 */
export class WorkloadView {
  readonly queries: number;
  readonly mutations: number;

  constructor(private readonly workload: WorkloadSummary | undefined) {
    this.queries = workload?.operations.query.count ?? 0;
    this.mutations = workload?.operations.mutation.count ?? 0;
  }

  /** Every round trip of the recorded operations, queries and mutations. */
  totalRoundTrips(): number {
    return (this.workload?.operations.query.roundTrips ?? 0) + (this.workload?.operations.mutation.roundTrips ?? 0);
  }

  /** Round trips per 1,000 operations, queries and mutations together. */
  roundTripsPer1000Operations(): number {
    const operations = this.queries + this.mutations;
    return operations === 0 ? 0 : round((this.totalRoundTrips() / operations) * 1000);
  }

  /** Every round trip of the recorded mutations (their checks, writes, commits and read-backs), per 1,000 mutations. */
  mutationRoundTripsPer1000Mutations(): number | undefined {
    return this.perMutations(this.workload?.operations.mutation.roundTrips ?? 0);
  }

  /** The field's entries, one per strategy it was read with. */
  entries(coordinate: string): readonly FieldWorkload[] {
    return this.workload?.fields.filter((entry) => entry.field === coordinate) ?? [];
  }

  entry(coordinate: string, strategy: FieldWorkload['strategy']): FieldWorkload | undefined {
    return this.entries(coordinate).find((entry) => entry.strategy === strategy);
  }

  /** The field's round trips, all strategies, per 1,000 queries. */
  roundTripsPer1000Queries(coordinate: string): number | undefined {
    return this.perQueries(this.entries(coordinate).reduce((sum, entry) => sum + entry.roundTrips, 0));
  }

  perQueries(count: number): number | undefined {
    return this.queries === 0 ? undefined : round((count / this.queries) * 1000);
  }

  /** Documents every recorded mutation modified, per 1,000 mutations. */
  documentsWrittenPer1000Mutations(): number | undefined {
    return this.perMutations(this.workload?.mutations.reduce((sum, mutation) => sum + mutation.documentsModified, 0) ?? 0);
  }

  perMutations(count: number): number | undefined {
    return this.mutations === 0 ? undefined : round((count / this.mutations) * 1000);
  }

  /**
   * Documents of `collection` the recorded mutations modified, and the runs that did; with
   * `alsoWriting`, only by the mutations that also wrote that collection (the source of a snapshot in
   * `collection`: what keeping its copies true cost, counting a mutation that wrote both for another
   * reason too).
   */
  documentsWritten(collection: string, alsoWriting: string = collection): { documents: number; runs: number } {
    let documents = 0;
    let runs = 0;
    for (const mutation of this.#mutationsWriting(collection)) {
      if (mutation.modified(alsoWriting) === 0) continue;
      documents += mutation.modified(collection);
      runs += mutation.runs;
    }
    return { documents, runs };
  }

  /** The recorded mutations that modified documents of `collection`: their runs that stand, and what they modified per collection. */
  #mutationsWriting(collection: string): Array<{ readonly runs: number; modified(collection: string): number }> {
    return (this.workload?.mutations ?? []).flatMap((mutation) => {
      const modified = (name: string) => mutation.fanOut.find((entry) => entry.collection === name)?.documentsModified ?? 0;
      return modified(collection) > 0 ? [{ runs: mutation.runs - mutation.failed, modified }] : [];
    });
  }
}

/** Operations in which the field missed its snapshot, over all sets of missing fields (an operation may count under several). */
export function missOperations(entry: FieldWorkload): number {
  return entry.missing.reduce((sum, set) => sum + set.operations, entry.missingOther.operations);
}

export function coveredBy(set: MissingFields, copyable: (field: string) => boolean): boolean {
  return set.fields.every(copyable);
}

/** A count as the advice prints it: 10,000. */
export function count(value: number): string {
  return value.toLocaleString('en');
}

export function round(value: number): number {
  return Math.round(value * 10) / 10;
}
