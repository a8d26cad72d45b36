import type { Document, Long } from 'bson';
import { applyProjection, compareValues, runPipeline, sortDocuments, valueKey } from '../../query';
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
      const view = store.view(collection, transaction);
      const hasSort = sort !== undefined && Object.keys(sort).length > 0;
      // without a sort, matching can stop once skip + limit documents are found
      const matched = hasSort ? sortDocuments(view.match(filter), sort) : view.match(filter, limit > 0 ? skip + limit : undefined);
      documents = matched.slice(skip, limit > 0 ? skip + limit : undefined);
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
 * A leading `$match` goes through the index planner; `$lookup` reads collections of the same database
 * through the same transaction.
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
    const input = pipelineInput(store, context, transaction, name, pipeline);
    const results = runPipeline(input.documents, input.pipeline, {
      collection: (other) => {
        const collection = store.collection(context.db, other);
        return collection === undefined ? [] : store.view(collection, transaction).all();
      },
    });
    return cursorReply(store.cursors.open(ns, results, { batchSize }), 'firstBatch');
  };
}

function pipelineInput(
  store: Store,
  context: CommandContext,
  transaction: Transaction | undefined,
  name: string | undefined,
  pipeline: Document[],
): { documents: Iterable<Document>; pipeline: Document[] } {
  const collection = name === undefined ? undefined : store.collection(context.db, name);
  if (collection === undefined) return { documents: [], pipeline };
  const view = store.view(collection, transaction);
  const first = pipeline[0];
  if (first !== undefined && Object.keys(first).length === 1 && isDocument(first.$match)) {
    return { documents: view.match(first.$match), pipeline: pipeline.slice(1) };
  }
  return { documents: view.all(), pipeline };
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
