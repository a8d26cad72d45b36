import { READ_STRATEGIES, type ReadStrategy } from '../startup/storage-map/storage-map-types';
import { NO_COMMAND_TIMES, WORKLOAD_FORMAT, type CommandTimes, type SourceChangeCounts, type TimedCommands, type CollectionFanOut, type FieldWorkload, type MissCounts, type MissingFields, type MutationWorkload, type OperationTotals, type SelectedFields, type WorkloadWindow } from './workload-types';

/** A stored flush that is not a workload window of this format; the message says where it is. */
export class WorkloadFormatError extends Error {
  override readonly name = 'WorkloadFormatError';
}

/**
 * A window read back from a file line (dates as ISO strings) or a collection document (dates as
 * dates), checked field by field: `where` (`workload.jsonl:3`) and the path name what is wrong.
 */
export function parseWorkloadWindow(value: unknown, where: string): WorkloadWindow {
  const window = object(value, where, 'the window');
  if (window.docjoinWorkload !== WORKLOAD_FORMAT) throw new WorkloadFormatError(`${where}: not a docjoin workload window of format ${WORKLOAD_FORMAT} (docjoinWorkload is ${JSON.stringify(window.docjoinWorkload)})`);
  const operations = object(window.operations, where, 'operations');
  return {
    docjoinWorkload: WORKLOAD_FORMAT,
    start: date(window.start, where, 'start'),
    end: date(window.end, where, 'end'),
    operations: { query: totals(operations.query, where, 'operations.query'), mutation: totals(operations.mutation, where, 'operations.mutation') },
    fields: list(window.fields, where, 'fields').map((entry, index) => field(entry, where, `fields[${index}]`)),
    mutations: list(window.mutations, where, 'mutations').map((entry, index) => mutation(entry, where, `mutations[${index}]`)),
    // Windows recorded before command times were recorded have none.
    commands: window.commands === undefined ? NO_COMMAND_TIMES : commandTimes(window.commands, where, 'commands'),
  };
}

function commandTimes(value: unknown, where: string, path: string): CommandTimes {
  const times = object(value, where, path);
  const timed = (name: keyof CommandTimes): TimedCommands => {
    const entry = object(times[name], where, `${path}.${name}`);
    const ms = entry.ms;
    if (typeof ms !== 'number' || !(ms >= 0)) throw new WorkloadFormatError(`${where}: ${path}.${name}.ms must be a number of milliseconds, got ${JSON.stringify(ms)}`);
    return { commands: count(entry.commands, where, `${path}.${name}.commands`), ms, documents: count(entry.documents, where, `${path}.${name}.documents`) };
  };
  return { operations: count(times.operations, where, `${path}.operations`), reads: timed('reads'), singleWrites: timed('singleWrites'), multiWrites: timed('multiWrites'), others: timed('others') };
}

function field(value: unknown, where: string, path: string): FieldWorkload {
  const entry = object(value, where, path);
  const strategy = entry.strategy;
  if (!READ_STRATEGIES.includes(strategy as ReadStrategy)) throw new WorkloadFormatError(`${where}: ${path}.strategy must be ${READ_STRATEGIES.join(', ')}, got ${JSON.stringify(strategy)}`);
  const roundTrips = count(entry.roundTrips, where, `${path}.roundTrips`);
  // Windows recorded before soleRoundTrips was have every command the field took part in.
  const soleRoundTrips = count(entry.soleRoundTrips ?? roundTrips, where, `${path}.soleRoundTrips`);
  if (soleRoundTrips > roundTrips) throw new WorkloadFormatError(`${where}: ${path}.soleRoundTrips must be at most its roundTrips (${roundTrips}), got ${soleRoundTrips}`);
  return {
    field: string(entry.field, where, `${path}.field`),
    strategy: strategy as ReadStrategy,
    operations: count(entry.operations, where, `${path}.operations`),
    resolves: count(entry.resolves, where, `${path}.resolves`),
    // Windows recorded before parentDocuments was count each resolve's parent apart, as a naive lookup would.
    parentDocuments: count(entry.parentDocuments ?? entry.resolves, where, `${path}.parentDocuments`),
    roundTrips,
    soleRoundTrips,
    documents: count(entry.documents, where, `${path}.documents`),
    // Windows recorded before delivered was have the documents read, the nearest figure.
    delivered: count(entry.delivered ?? entry.documents, where, `${path}.delivered`),
    bytes: count(entry.bytes, where, `${path}.bytes`),
    keys: count(entry.keys, where, `${path}.keys`),
    snapshotHits: count(entry.snapshotHits, where, `${path}.snapshotHits`),
    snapshotMisses: count(entry.snapshotMisses, where, `${path}.snapshotMisses`),
    dangling: count(entry.dangling, where, `${path}.dangling`),
    missing: list(entry.missing, where, `${path}.missing`).map((set, index) => missingFields(set, where, `${path}.missing[${index}]`)),
    missingOther: missCounts(entry.missingOther, where, `${path}.missingOther`),
    // Windows recorded before selections were recorded have none.
    selections: entry.selections === undefined ? [] : list(entry.selections, where, `${path}.selections`).map((set, index) => selectedFields(set, where, `${path}.selections[${index}]`)),
    selectionsOther: entry.selectionsOther === undefined ? 0 : count(entry.selectionsOther, where, `${path}.selectionsOther`),
  };
}

function selectedFields(value: unknown, where: string, path: string): SelectedFields {
  const set = object(value, where, path);
  return { fields: list(set.fields, where, `${path}.fields`).map((name, index) => string(name, where, `${path}.fields[${index}]`)), operations: count(set.operations, where, `${path}.operations`) };
}

function missingFields(value: unknown, where: string, path: string): MissingFields {
  const set = object(value, where, path);
  return { fields: list(set.fields, where, `${path}.fields`).map((name, index) => string(name, where, `${path}.fields[${index}]`)), ...missCounts(set, where, path) };
}

function missCounts(value: unknown, where: string, path: string): MissCounts {
  const counts = object(value, where, path);
  return { operations: count(counts.operations, where, `${path}.operations`), misses: count(counts.misses, where, `${path}.misses`) };
}

function mutation(value: unknown, where: string, path: string): MutationWorkload {
  const entry = object(value, where, path);
  return {
    field: string(entry.field, where, `${path}.field`),
    runs: count(entry.runs, where, `${path}.runs`),
    failed: count(entry.failed, where, `${path}.failed`),
    attempts: count(entry.attempts, where, `${path}.attempts`),
    roundTrips: count(entry.roundTrips, where, `${path}.roundTrips`),
    documentsModified: count(entry.documentsModified, where, `${path}.documentsModified`),
    fanOut: list(entry.fanOut, where, `${path}.fanOut`).map((value, index): CollectionFanOut => {
      const collection = object(value, where, `${path}.fanOut[${index}]`);
      return { collection: string(collection.collection, where, `${path}.fanOut[${index}].collection`), documentsModified: count(collection.documentsModified, where, `${path}.fanOut[${index}].documentsModified`) };
    }),
    // Windows recorded before source changes were: every run untracked (and counted as atomic).
    atomicRuns: entry.atomicRuns === undefined ? count(entry.runs, where, `${path}.runs`) : count(entry.atomicRuns, where, `${path}.atomicRuns`),
    changes: entry.changes === undefined ? [] : list(entry.changes, where, `${path}.changes`).map((set, index) => sourceChanges(set, where, `${path}.changes[${index}]`)),
    changesOther: entry.changesOther === undefined ? 0 : count(entry.changesOther, where, `${path}.changesOther`),
    untrackedRuns: entry.changes === undefined ? count(entry.runs, where, `${path}.runs`) : entry.untrackedRuns === undefined ? 0 : count(entry.untrackedRuns, where, `${path}.untrackedRuns`),
  };
}

function sourceChanges(value: unknown, where: string, path: string): SourceChangeCounts {
  const set = object(value, where, path);
  return {
    typeName: string(set.typeName, where, `${path}.typeName`),
    fields: list(set.fields, where, `${path}.fields`).map((name, index) => string(name, where, `${path}.fields[${index}]`)),
    documents: count(set.documents, where, `${path}.documents`),
    sample: list(set.sample, where, `${path}.sample`).map((entry, index) => {
      const source = object(entry, where, `${path}.sample[${index}]`);
      return { id: string(source.id, where, `${path}.sample[${index}].id`), changes: count(source.changes, where, `${path}.sample[${index}].changes`) };
    }),
  };
}

function totals(value: unknown, where: string, path: string): OperationTotals {
  const entry = object(value, where, path);
  return {
    count: count(entry.count, where, `${path}.count`),
    roundTrips: count(entry.roundTrips, where, `${path}.roundTrips`),
    documents: count(entry.documents, where, `${path}.documents`),
    bytes: count(entry.bytes, where, `${path}.bytes`),
  };
}

function object(value: unknown, where: string, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WorkloadFormatError(`${where}: ${path} must be an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function list(value: unknown, where: string, path: string): unknown[] {
  if (!Array.isArray(value)) throw new WorkloadFormatError(`${where}: ${path} must be a list, got ${JSON.stringify(value)}`);
  return value;
}

function string(value: unknown, where: string, path: string): string {
  if (typeof value !== 'string') throw new WorkloadFormatError(`${where}: ${path} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function count(value: unknown, where: string, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new WorkloadFormatError(`${where}: ${path} must be a whole number, got ${JSON.stringify(value)}`);
  return value;
}

function date(value: unknown, where: string, path: string): Date {
  const parsed = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  if (parsed === undefined || Number.isNaN(parsed.getTime())) throw new WorkloadFormatError(`${where}: ${path} must be a date, got ${JSON.stringify(value)}`);
  return parsed;
}
