import type { Document, Long } from 'bson';
import { applyProjection, distinctValues, runPipeline, valueComparator, valueKey, type QueryScope } from '../../query';
import type { CursorBatch } from '../../storage/cursor-store';
import { valuesAtPath } from '../../storage/path-values';
import type { Store } from '../../storage/store';
import type { Transaction } from '../../storage/transaction';
import type { CommandContext } from '../../protocol/command-types';
import { splitOutputStage, writeOutput } from './aggregate-output';
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
import { collectionScope, requestedScope, viewScope, type RequestedScope } from './operation-scope';
import { cursorSession, type DataCommandHandler } from './transaction-scope';

/**
 * find: `{ find, filter, sort, projection, skip, limit, batchSize, singleBatch, collation, let }` →
 * `{ cursor: { id, ns, firstBatch } }`. The first batch holds batchSize (default 101) documents.
 * On a view, the find runs as the view's pipeline followed by `$match`, `$sort`, `$skip`, `$limit`.
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
    const requested = requestedScope(command);

    const resolved = store.viewCatalog.resolve(context.db, name);
    let documents: Document[] = [];
    if (resolved !== undefined) {
      const stages = findStages(filter, sort, skip, limit);
      documents = runPipelineOn(store, context, transaction, name, stages, viewScope(requested, resolved));
    } else {
      const collection = store.collection(context.db, name);
      if (collection !== undefined) {
        const scope = collectionScope(requested, collection.defaultCollation);
        documents = store.view(collection, transaction).find(filter, { sort, skip, limit, scope });
      }
    }
    const project = hasFields(projection) ? (doc: Document) => applyProjection(doc, projection, filter) : undefined;
    return cursorReply(store.cursors.open(ns, documents, { batchSize, singleBatch, project, session: cursorSession(command) }), 'firstBatch');
  };
}

/** getMore: `{ getMore: cursorId, collection, batchSize }` → `{ cursor: { id, ns, nextBatch } }`; 43 CursorNotFound for unknown ids. */
export function getMoreCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const id = int64Value(command.getMore, 'getMore');
    const name = requiredString(command, 'collection');
    const batch = store.cursors.getMore(id, `${context.db}.${name}`, nonNegative(command, 'batchSize'), cursorSession(command));
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

/**
 * count: `{ count, query, skip, limit, collation }` → `{ n }`. On a view it counts the view's
 * results (what estimatedDocumentCount reports for a view).
 */
export function countCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'count');
    const query = optionalDocument(command, 'query') ?? {};
    const skip = nonNegative(command, 'skip') ?? 0;
    const limit = Math.abs(optionalInteger(command, 'limit') ?? 0);
    const requested = requestedScope(command);
    const resolved = store.viewCatalog.resolve(context.db, name);
    if (resolved !== undefined) {
      const stages = findStages(query, undefined, skip, limit);
      return { n: runPipelineOn(store, context, transaction, name, stages, viewScope(requested, resolved)).length };
    }
    const collection = store.collection(context.db, name);
    if (collection === undefined) return { n: 0 };
    const view = store.view(collection, transaction);
    const scope = collectionScope(requested, collection.defaultCollation);
    const total = Object.keys(query).length === 0 ? view.count() : view.match(query, limit > 0 ? skip + limit : undefined, scope).length;
    const afterSkip = Math.max(0, total - skip);
    return { n: limit > 0 ? Math.min(limit, afterSkip) : afterSkip };
  };
}

/**
 * distinct: `{ distinct, key, query, collation }` → `{ values }`, array values contributing their
 * elements, in BSON order. Under a collation, values equal under it count once (the first found).
 */
export function distinctCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'distinct');
    const key = requiredString(command, 'key');
    const query = optionalDocument(command, 'query') ?? {};
    const requested = requestedScope(command);
    let scope: QueryScope = {};
    let documents: Document[] = [];
    const resolved = store.viewCatalog.resolve(context.db, name);
    if (resolved !== undefined) {
      scope = viewScope(requested, resolved);
      documents = runPipelineOn(store, context, transaction, name, findStages(query, undefined, 0, 0), scope);
    } else {
      const collection = store.collection(context.db, name);
      if (collection === undefined) return { values: [] };
      scope = collectionScope(requested, collection.defaultCollation);
      documents = store.view(collection, transaction).match(query, undefined, scope);
    }
    const path = key.split('.');
    const found: unknown[] = [];
    for (const doc of documents) found.push(...valuesAtPath(doc, path).values);
    const compare = valueComparator(scope.collation);
    if (scope.collation !== undefined) return { values: distinctValues(found, compare).sort(compare) };
    const values = new Map<string, unknown>();
    for (const value of found) {
      const identity = valueKey(value);
      if (!values.has(identity)) values.set(identity, value);
    }
    return { values: [...values.values()].sort(compare) };
  };
}

/**
 * aggregate: `{ aggregate: collection | 1, pipeline, cursor: { batchSize }, collation, let }` → a
 * cursor reply. A leading `$match` goes through the index planner; `$lookup` and `$unionWith` read
 * collections (and views) of the same database through the same transaction, a `$lookup` only the
 * foreign documents its local values name when an index on its foreign field serves them. On a view, the view's
 * pipeline runs first. A last `$out`/`$merge` writes the results (aggregate-output.ts) and the
 * cursor is empty.
 */
export function aggregateCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const target: unknown = command.aggregate;
    const { pipeline, output } = splitOutputStage(documentArray(command, 'pipeline'), context.db);
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    const batchSize = nonNegative(cursorOptions, 'batchSize');
    const name = typeof target === 'string' ? target : undefined;
    if (name === undefined && numericValue(target) !== 1) {
      throw badValue(`'aggregate' must be a collection name or 1`);
    }
    const ns = name === undefined ? `${context.db}.$cmd.aggregate` : `${context.db}.${name}`;
    const scope = aggregateScope(store, context, name, requestedScope(command));
    const results = runPipelineOn(store, context, transaction, name, pipeline, scope);
    if (output === undefined) return cursorReply(store.cursors.open(ns, results, { batchSize, session: cursorSession(command) }), 'firstBatch');
    // only a writing aggregate answers with a promise (its writes may wait for a transaction to end)
    return writeOutput(store, output, results, scope, transaction !== undefined).then(() => cursorReply(store.cursors.open(ns, [], { batchSize }), 'firstBatch'));
  };
}

/** An aggregate's collation: the view's, the requested one, or the collection's default. */
function aggregateScope(store: Store, context: CommandContext, name: string | undefined, requested: RequestedScope): QueryScope {
  const resolved = name === undefined ? undefined : store.viewCatalog.resolve(context.db, name);
  if (resolved !== undefined) return viewScope(requested, resolved);
  const collection = name === undefined ? undefined : store.collection(context.db, name);
  return collectionScope(requested, collection?.defaultCollation);
}

/** A find's filter, sort, skip and limit as pipeline stages, for a find or count on a view. */
function findStages(filter: Document, sort: Document | undefined, skip: number, limit: number): Document[] {
  const stages: Document[] = [];
  if (Object.keys(filter).length > 0) stages.push({ $match: filter });
  if (sort !== undefined && Object.keys(sort).length > 0) stages.push({ $sort: sort });
  if (skip > 0) stages.push({ $skip: skip });
  if (limit > 0) stages.push({ $limit: limit });
  return stages;
}

/**
 * Runs `pipeline` over the collection `name` (none: no input), its leading stages in storage; each
 * `$unionWith` branch is run the same way over its own collection, so `{ $match: { fk: k } },
 * { $sort }, { $limit: n }` in a branch is an index lookup and a top-k, like a find. A view name
 * runs the view's pipeline first, over the collection underneath it. `scope`: the operation's
 * collation and `let` variables, for every stage and branch.
 */
function runPipelineOn(
  store: Store,
  context: CommandContext,
  transaction: Transaction | undefined,
  name: string | undefined,
  pipeline: Document[],
  scope: QueryScope,
): Document[] {
  const resolved = name === undefined ? undefined : store.viewCatalog.resolve(context.db, name);
  if (resolved !== undefined) return runPipelineOn(store, context, transaction, resolved.collection, [...resolved.pipeline, ...pipeline], scope);
  const input = pipelineInput(store, context, transaction, name, pipeline, scope);
  return runPipeline(input.documents, input.pipeline, {
    inputOrder: input.order,
    collection: (other) => {
      if (store.viewCatalog.get(context.db, other) !== undefined) return runPipelineOn(store, context, transaction, other, [], scope);
      const collection = store.collection(context.db, other);
      return collection === undefined ? [] : store.view(collection, transaction).all();
    },
    unionWith: (other, branch) => runPipelineOn(store, context, transaction, other, branch, scope),
    lookup: (other, filter) => {
      if (store.viewCatalog.get(context.db, other) !== undefined) return undefined;
      const collection = store.collection(context.db, other);
      if (collection === undefined) return [];
      // Only where an index serves it: a scan per $lookup reads the whole collection as the hash join does.
      if (collection.plan(filter, scope.collation !== undefined).kind === 'scan') return undefined;
      return runPipelineOn(store, context, transaction, other, [{ $match: filter }], scope);
    },
    ...scope,
  });
}

function pipelineInput(
  store: Store,
  context: CommandContext,
  transaction: Transaction | undefined,
  name: string | undefined,
  pipeline: Document[],
  scope: QueryScope,
): { documents: Iterable<Document>; pipeline: Document[]; order?: Document } {
  const collection = name === undefined ? undefined : store.collection(context.db, name);
  if (collection === undefined) return { documents: [], pipeline };
  const view = store.view(collection, transaction);
  const leading = leadingQuery(pipeline);
  if (leading.stages === 0) return { documents: view.all(), pipeline };
  const rest = pipeline.slice(leading.stages);
  // `$limit: 5, $skip: 10` leaves nothing (a find limit of 0 would mean "no limit")
  if (leading.limit === 0) return { documents: [], pipeline: rest };
  return { documents: view.find(leading.filter, { ...leading, scope }), pipeline: rest, order: leading.sort };
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
