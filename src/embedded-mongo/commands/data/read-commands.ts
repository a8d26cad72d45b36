import type { Document, Long } from 'bson';
import { applyProjection, compareValues, runPipeline, valueKey } from '../../query';
import type { CursorBatch } from '../../storage/cursor-store';
import { valuesAtPath } from '../../storage/path-values';
import type { Store } from '../../storage/store';
import type { Transaction } from '../../storage/transaction';
import type { CommandContext } from '../command-types';
import {
  badValue,
  documentArray,
  int64Value,
  isDocument,
  numericValue,
  optionalBoolean,
  optionalDocument,
  optionalInteger,
  requiredString,
  targetCollection,
} from './command-fields';
import type { DataCommandHandler } from './transaction-scope';

/**
 * find: `{ find, filter, sort, projection, skip, limit, batchSize, singleBatch }` →
 * `{ cursor: { id, ns, firstBatch } }`. The first batch holds batchSize (default 101) documents.
 */
export function findCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'find');
    const filter = optionalDocument(command, 'filter') ?? {};
    const sort = optionalDocument(command, 'sort');
    const projection = optionalDocument(command, 'projection');
    const skip = nonNegative(command, 'skip') ?? 0;
    const rawLimit = optionalInteger(command, 'limit') ?? 0;
    const batchSize = nonNegative(command, 'batchSize');
    // a negative limit is the legacy "single batch of |limit| documents"
    const limit = Math.abs(rawLimit);
    const singleBatch = (optionalBoolean(command, 'singleBatch') ?? false) || rawLimit < 0;
    const ns = `${context.db}.${name}`;

    const collection = store.collection(context.db, name);
    let documents: Document[] = [];
    if (collection !== undefined) {
      documents = store.view(collection, transaction).find(filter, { sort, skip, limit });
    }
    const project = hasFields(projection) ? (doc: Document) => applyProjection(doc, projection, filter) : undefined;
    return cursorReply(store.cursors.open(ns, documents, { batchSize, singleBatch, project }), 'firstBatch');
  };
}

/** getMore: `{ getMore: cursorId, collection, batchSize }` → `{ cursor: { id, ns, nextBatch } }`; 43 CursorNotFound for unknown ids. */
export function getMoreCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const id = int64Value(command.getMore, 'getMore');
    const name = requiredString(command, 'collection');
    const batch = store.cursors.getMore(id, `${context.db}.${name}`, nonNegative(command, 'batchSize'));
    return cursorReply(batch, 'nextBatch');
  };
}

/** killCursors: `{ killCursors: collection, cursors: [ids] }` → `{ cursorsKilled, cursorsNotFound, cursorsAlive, cursorsUnknown }`. */
export function killCursorsCommand(store: Store): DataCommandHandler {
  return (command) => {
    targetCollection(command, 'killCursors');
    const ids: unknown = command.cursors;
    if (!Array.isArray(ids)) throw badValue(`'cursors' must be an array of cursor ids`);
    const cursorsKilled: unknown[] = [];
    const cursorsNotFound: unknown[] = [];
    for (const id of ids) (store.cursors.kill(int64Value(id, 'cursors')) ? cursorsKilled : cursorsNotFound).push(id);
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  };
}

/** count: `{ count, query, skip, limit }` → `{ n }`. */
export function countCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'count');
    const query = optionalDocument(command, 'query') ?? {};
    const skip = nonNegative(command, 'skip') ?? 0;
    const limit = Math.abs(optionalInteger(command, 'limit') ?? 0);
    const collection = store.collection(context.db, name);
    if (collection === undefined) return { n: 0 };
    const view = store.view(collection, transaction);
    const total = Object.keys(query).length === 0 ? view.count() : view.match(query, limit > 0 ? skip + limit : undefined).length;
    const afterSkip = Math.max(0, total - skip);
    return { n: limit > 0 ? Math.min(limit, afterSkip) : afterSkip };
  };
}

/** distinct: `{ distinct, key, query }` → `{ values }`, array values contributing their elements, in BSON order. */
export function distinctCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'distinct');
    const key = requiredString(command, 'key');
    const query = optionalDocument(command, 'query') ?? {};
    const collection = store.collection(context.db, name);
    if (collection === undefined) return { values: [] };
    const path = key.split('.');
    const values = new Map<string, unknown>();
    for (const doc of store.view(collection, transaction).match(query)) {
      for (const value of valuesAtPath(doc, path).values) {
        const identity = valueKey(value);
        if (!values.has(identity)) values.set(identity, value);
      }
    }
    return { values: [...values.values()].sort(compareValues) };
  };
}

/**
 * aggregate: `{ aggregate: collection | 1, pipeline, cursor: { batchSize } }` → a cursor reply.
 * A leading `$match` goes through the index planner; `$lookup` and `$unionWith` read collections of
 * the same database through the same transaction.
 */
export function aggregateCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const target: unknown = command.aggregate;
    const pipeline = documentArray(command, 'pipeline');
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    const batchSize = nonNegative(cursorOptions, 'batchSize');
    const name = typeof target === 'string' ? target : undefined;
    if (name === undefined && numericValue(target) !== 1) {
      throw badValue(`'aggregate' must be a collection name or 1`);
    }
    const ns = name === undefined ? `${context.db}.$cmd.aggregate` : `${context.db}.${name}`;
    const results = runPipelineOn(store, context, transaction, name, pipeline);
    return cursorReply(store.cursors.open(ns, results, { batchSize }), 'firstBatch');
  };
}

/**
 * Runs `pipeline` over the collection `name` (none: no input), its leading stages in storage; each
 * `$unionWith` branch is run the same way over its own collection, so `{ $match: { fk: k } },
 * { $sort }, { $limit: n }` in a branch is an index lookup and a top-k, like a find.
 */
function runPipelineOn(
  store: Store,
  context: CommandContext,
  transaction: Transaction | undefined,
  name: string | undefined,
  pipeline: Document[],
): Document[] {
  const input = pipelineInput(store, context, transaction, name, pipeline);
  return runPipeline(input.documents, input.pipeline, {
    inputOrder: input.order,
    collection: (other) => {
      const collection = store.collection(context.db, other);
      return collection === undefined ? [] : store.view(collection, transaction).all();
    },
    unionWith: (other, branch) => runPipelineOn(store, context, transaction, other, branch),
  });
}

function pipelineInput(
  store: Store,
  context: CommandContext,
  transaction: Transaction | undefined,
  name: string | undefined,
  pipeline: Document[],
): { documents: Iterable<Document>; pipeline: Document[]; order?: Document } {
  const collection = name === undefined ? undefined : store.collection(context.db, name);
  if (collection === undefined) return { documents: [], pipeline };
  const view = store.view(collection, transaction);
  const leading = leadingQuery(pipeline);
  if (leading.stages === 0) return { documents: view.all(), pipeline };
  const rest = pipeline.slice(leading.stages);
  // `$limit: 5, $skip: 10` leaves nothing (a find limit of 0 would mean "no limit")
  if (leading.limit === 0) return { documents: [], pipeline: rest };
  return { documents: view.find(leading.filter, leading), pipeline: rest, order: leading.sort };
}

/**
 * The find a pipeline starts with: its leading `$match` stages (combined), a `$sort` right after
 * them, then `$skip`/`$limit` stages; these run in storage like a find (index lookup, bounded
 * top-k for sort + limit). `stages` is how many pipeline stages that covers. Anything unusual
 * (a malformed stage, a non-integer limit) ends the prefix and is left to the pipeline's own checks.
 */
function leadingQuery(pipeline: Document[]): { stages: number; filter: Document; sort?: Document; skip: number; limit?: number } {
  const matches: Document[] = [];
  let at = 0;
  while (at < pipeline.length && isDocument(pipeline[at]!.$match) && Object.keys(pipeline[at]!).length === 1) {
    matches.push(pipeline[at]!.$match as Document);
    at += 1;
  }
  const filter = matches.length === 1 ? matches[0]! : matches.length === 0 ? {} : { $and: matches };
  let sort: Document | undefined;
  const sortStage = pipeline[at];
  if (sortStage !== undefined && Object.keys(sortStage).length === 1 && isDocument(sortStage.$sort) && Object.keys(sortStage.$sort).length > 0) {
    sort = sortStage.$sort;
    at += 1;
  }
  let skip = 0;
  let limit: number | undefined;
  for (; at < pipeline.length; at++) {
    const stage = pipeline[at]!;
    if (Object.keys(stage).length !== 1) break;
    const value: unknown = '$skip' in stage ? stage.$skip : '$limit' in stage ? stage.$limit : undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) break;
    if ('$skip' in stage) {
      skip += value;
      if (limit !== undefined) limit = Math.max(0, limit - value);
    } else {
      if (value === 0) break; // MongoDB rejects $limit 0; leave it to the pipeline's error
      limit = limit === undefined ? value : Math.min(limit, value);
    }
  }
  return { stages: at, filter, sort, skip, limit };
}

export function cursorReply(batch: CursorBatch, batchField: 'firstBatch' | 'nextBatch'): Document {
  const id: Long = batch.id;
  return { cursor: { id, ns: batch.ns, [batchField]: batch.documents } };
}

function nonNegative(command: Document, field: string): number | undefined {
  const value = optionalInteger(command, field);
  if (value !== undefined && value < 0) throw badValue(`${field} value must be non-negative, but received: ${value}`);
  return value;
}

function hasFields(projection: Document | undefined): projection is Document {
  return projection !== undefined && Object.keys(projection).length > 0;
}
