import type { FieldWorkload, WorkloadSummary } from '../../../../../src/gateway/workload/workload-types';

/** 100 queries reading the aggregate field `field` in one round trip each, with `selections` as recorded. */
export function aggregateWorkload(field: string, selections: FieldWorkload['selections']): WorkloadSummary {
  const aggregate: FieldWorkload = {
    field, strategy: 'join', operations: 100, resolves: 1000, parentDocuments: 1000, roundTrips: 100, soleRoundTrips: 100, documents: 1000, delivered: 1000, bytes: 0, keys: 1000,
    snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: [], missingOther: { operations: 0, misses: 0 }, selections, selectionsOther: 0,
  };
  const none = { commands: 0, ms: 0, documents: 0 };
  return {
    windows: 1,
    start: new Date(0),
    end: new Date(1000),
    fields: [aggregate],
    mutations: [],
    commands: { operations: 100, reads: { commands: 200, ms: 400, documents: 2000 }, singleWrites: none, multiWrites: none, others: none },
    operations: { query: { count: 100, roundTrips: 200, documents: 2000, bytes: 0 }, mutation: { count: 0, roundTrips: 0, documents: 0, bytes: 0 } },
  };
}
