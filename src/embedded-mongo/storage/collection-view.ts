import type { Document } from 'bson';
import { compareValues, compileFilter, compileSort, firstSorted, sortDocuments, type QueryScope } from '../query';
import type { Collection, CommitWrites, DocumentWrite } from './collection';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import { ID_INDEX } from './collection';
import { isExactPlan, type QueryPlan } from './query-planner';
import { checkTimeLimit } from '../protocol/command-time-limit';
import { namedError } from '../protocol/command-error';

/**
 * A collection as one operation sees it: the live committed state, or a transaction's snapshot plus
 * its own pending writes. Commands read and write only through views, so they never care which.
 * Documents passed to writes must come from `storableDocument` (copied and frozen).
 */
export abstract class CollectionView {
  constructor(readonly collection: Collection) {}

  /** The visible document stored under an `_id` key. */
  abstract get(id: string): Document | undefined;
  /**
   * Visible documents that may match `filter`: an index's candidates or everything. `collated`: the
   * operation compares strings under a collation, which binary index keys cannot look up.
   */
  protected abstract candidates(filter: Document, collated?: boolean): Iterable<Document>;
  /** Whether `candidates(filter, collated)` are exactly the matches, so the filter need not run on them. */
  protected abstract candidatesAreExact(filter: Document, collated?: boolean): boolean;
  abstract count(): number;
  /** Inserts a new document; E11000 on `_id_` when its `_id` exists. */
  abstract insert(doc: Document): void;
  abstract replace(id: string, doc: Document): void;
  abstract remove(id: string): void;
  /**
   * What a write of `doc` (null: a delete) under `id` must wait for before it may run: an open
   * transaction holding the document or a unique index entry the write changes (outside
   * transactions only; inside one, such a write is a WriteConflict).
   */
  abstract writeBlocker(id: string, doc: Document | null): Promise<void> | undefined;

  /** All visible documents in natural order; the iterable can be walked more than once. */
  all(): Iterable<Document> {
    return { [Symbol.iterator]: () => this.candidates({})[Symbol.iterator]() };
  }

  /**
   * Visible documents matching `filter`, at most `limit` of them (no limit when undefined or 0);
   * `scope`: the operation's collation and `let` variables.
   */
  match(filter: Document, limit?: number, scope?: QueryScope): Document[] {
    const collated = scope?.collation !== undefined;
    return takeFirst(this.matching(filter, this.candidates(filter, collated), this.candidatesAreExact(filter, collated), scope), limit);
  }

  /**
   * find's read: the documents matching `filter`, in `sort` order, after `skip`, at most `limit`
   * (0 or undefined: all). A sort with a limit keeps only the first skip + limit in a bounded heap
   * instead of sorting every match; a sort led by `_id` over a scan walks the `_id` order and stops early.
   */
  find(filter: Document, options: FindOptions = {}): Document[] {
    const skip = options.skip ?? 0;
    const wanted = options.limit !== undefined && options.limit > 0 ? skip + options.limit : undefined;
    const sort = options.sort !== undefined && Object.keys(options.sort).length > 0 ? options.sort : undefined;
    const scope = options.scope;
    if (sort === undefined) return this.match(filter, wanted, scope).slice(skip);
    const collation = scope?.collation;
    compileSort(sort); // rejects bad directions (15975) even where the `_id` order answers
    // the `_id` order is binary: under a collation, string `_id`s may sort differently
    const direction = collation === undefined ? idSortDirection(sort) : undefined;
    const byId = direction === undefined ? undefined : this.inIdOrder(filter, direction);
    if (byId !== undefined) return takeFirst(this.matching(filter, byId, false, scope), wanted).slice(skip);
    const collated = collation !== undefined;
    // index keys are binary: under a collation, strings may sort differently
    const byIndex = collated ? undefined : this.inIndexOrder(filter, sort);
    if (byIndex !== undefined) return takeFirst(this.matching(filter, byIndex, this.candidatesAreExact(filter), scope), wanted).slice(skip);
    const matches = this.matching(filter, this.candidates(filter, collated), this.candidatesAreExact(filter, collated), scope);
    return (wanted === undefined ? sortDocuments([...matches], sort, collation) : firstSorted(matches, sort, wanted, collation)).slice(skip);
  }

  /**
   * Visible documents in `_id` order when walking that order is the cheapest way to answer `filter`
   * (it needs a scan anyway); undefined when the candidates of an index are fewer, or this view
   * cannot keep the order.
   */
  protected abstract inIdOrder(filter: Document, direction: 1 | -1): Iterable<Document> | undefined;

  /**
   * The candidates of `filter` already in `sort` order, when its plan is one equality on the first
   * field of a compound index whose later fields give that order; undefined otherwise. The order is
   * the stable sort of the candidates, so the results are those of sorting them.
   */
  protected abstract inIndexOrder(filter: Document, sort: Document): Iterable<Document> | undefined;

  /** The candidates that match; each counts in `docsExamined` (as MongoDB counts documents fetched). */
  private *matching(filter: Document, candidates: Iterable<Document>, exact: boolean, scope: QueryScope | undefined): Iterable<Document> {
    const matches = exact ? undefined : compileFilter(filter, scope);
    for (const doc of candidates) {
      checkTimeLimit();
      this.collection.docsExamined += 1;
      if (matches === undefined || matches(doc)) yield doc;
    }
  }

  /** Refuses a document the collection's validator fails (121), as MongoDB does before it writes. */
  protected validate(next: Document): void {
    if (this.collection.validator?.refuses(next)) throw namedError('DocumentValidationFailure', 'Document failed validation', { errInfo: { failingDocumentId: next._id } });
  }

  protected duplicateIdError(doc: Document): Error {
    return duplicateKeyError(this.collection.ns, ID_INDEX.name, ID_INDEX.key, { _id: doc._id });
  }
}

/** Outside a transaction: reads the committed state and commits each write at once. */
export class LiveView extends CollectionView {
  constructor(
    collection: Collection,
    private readonly commitWrites: CommitWrites,
  ) {
    super(collection);
  }

  get(id: string): Document | undefined {
    return this.collection.current(id);
  }

  count(): number {
    return this.collection.size;
  }

  protected candidates(filter: Document, collated = false): Iterable<Document> {
    const plan = this.collection.plan(filter, collated);
    return plan.kind === 'scan' ? this.collection.currentDocuments() : this.collection.candidates(inKeyOrder(plan));
  }

  protected candidatesAreExact(filter: Document, collated = false): boolean {
    return isExactPlan(filter, this.collection.plan(filter, collated));
  }

  protected inIdOrder(filter: Document, direction: 1 | -1): Iterable<Document> | undefined {
    return this.collection.plan(filter).kind === 'scan' ? this.collection.inIdOrder(direction) : undefined;
  }

  protected inIndexOrder(filter: Document, sort: Document): Iterable<Document> | undefined {
    const plan = this.collection.plan(filter);
    if (plan.kind !== 'index' || plan.values.length !== 1) return undefined;
    return this.collection.inIndexOrder(plan.field, plan.values[0], sort);
  }

  insert(doc: Document): void {
    const id = documentKey(doc._id);
    if (this.collection.current(id) !== undefined) throw this.duplicateIdError(doc);
    this.validate(doc);
    this.commit({ id, doc });
  }

  replace(id: string, doc: Document): void {
    this.validate(doc);
    this.commit({ id, doc });
  }

  remove(id: string): void {
    this.commit({ id, doc: null });
  }

  private commit(write: DocumentWrite): void {
    this.commitWrites([{ collection: this.collection, writes: [write] }]);
  }

  writeBlocker(id: string, doc: Document | null): Promise<void> | undefined {
    return this.collection.writeBlocker(id, doc);
  }
}

export interface FindOptions {
  readonly sort?: Document;
  readonly skip?: number;
  /** 0 or undefined: no limit. */
  readonly limit?: number;
  /** The operation's collation (filter and sort) and `let` variables (`$expr`). */
  readonly scope?: QueryScope;
}

/** The first `limit` items (all when undefined or 0). */
function takeFirst<T>(items: Iterable<T>, limit: number | undefined): T[] {
  const out: T[] = [];
  for (const item of items) {
    out.push(item);
    if (limit !== undefined && limit > 0 && out.length >= limit) break;
  }
  return out;
}

/** 1 or -1 when the sort's first key is `_id`: `_id` is unique, so any later keys never decide. */
function idSortDirection(sort: Document): 1 | -1 | undefined {
  const first = Object.keys(sort)[0];
  if (first !== '_id') return undefined;
  const direction: unknown = sort._id;
  return direction === 1 || direction === -1 ? direction : undefined;
}

/** An index plan with its values in BSON order, so index candidates come back in index order as in MongoDB. */
export function inKeyOrder<P extends Exclude<QueryPlan, { kind: 'scan' }>>(plan: P): P {
  if (plan.values.length < 2) return plan;
  return { ...plan, values: [...plan.values].sort(compareValues) };
}
