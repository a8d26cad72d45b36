import type { Document } from 'bson';
import { compareValues, compileFilter } from '../query';
import type { Collection } from './collection';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import { ID_INDEX } from './collection';
import type { QueryPlan } from './query-planner';

/**
 * A collection as one operation sees it: the live committed state, or a transaction's snapshot plus
 * its own pending writes. Commands read and write only through views, so they never care which.
 * Documents passed to writes must come from `storableDocument` (copied and frozen).
 */
export abstract class CollectionView {
  constructor(readonly collection: Collection) {}

  /** The visible document stored under an `_id` key. */
  abstract get(id: string): Document | undefined;
  /** Visible documents that may match `filter`: an index's candidates or everything. */
  protected abstract candidates(filter: Document): Iterable<Document>;
  abstract count(): number;
  /** Inserts a new document; E11000 on `_id_` when its `_id` exists. */
  abstract insert(doc: Document): void;
  abstract replace(id: string, doc: Document): void;
  abstract remove(id: string): void;

  /** All visible documents in natural order; the iterable can be walked more than once. */
  all(): Iterable<Document> {
    return { [Symbol.iterator]: () => this.candidates({})[Symbol.iterator]() };
  }

  /** Visible documents matching `filter`, at most `limit` of them (no limit when undefined or 0). */
  match(filter: Document, limit?: number): Document[] {
    const matches = compileFilter(filter);
    const found: Document[] = [];
    for (const doc of this.candidates(filter)) {
      this.collection.docsExamined += 1;
      if (!matches(doc)) continue;
      found.push(doc);
      if (limit !== undefined && limit > 0 && found.length >= limit) break;
    }
    return found;
  }

  protected duplicateIdError(doc: Document): Error {
    return duplicateKeyError(this.collection.ns, ID_INDEX.name, ID_INDEX.key, { _id: doc._id });
  }
}

/** Outside a transaction: reads the committed state and commits each write at once. */
export class LiveView extends CollectionView {
  get(id: string): Document | undefined {
    return this.collection.current(id);
  }

  count(): number {
    return this.collection.size;
  }

  protected *candidates(filter: Document): Iterable<Document> {
    const plan = this.collection.plan(filter);
    if (plan.kind === 'scan') {
      yield* this.collection.currentDocuments();
      return;
    }
    for (const id of this.collection.candidateIds(inKeyOrder(plan))) {
      const doc = this.collection.current(id);
      if (doc !== undefined) yield doc;
    }
  }

  insert(doc: Document): void {
    const id = documentKey(doc._id);
    if (this.collection.current(id) !== undefined) throw this.duplicateIdError(doc);
    this.collection.write([{ id, doc }]);
  }

  replace(id: string, doc: Document): void {
    this.collection.write([{ id, doc }]);
  }

  remove(id: string): void {
    this.collection.write([{ id, doc: null }]);
  }
}

/** An index plan with its values in BSON order, so index candidates come back in index order as in MongoDB. */
export function inKeyOrder<P extends Exclude<QueryPlan, { kind: 'scan' }>>(plan: P): P {
  if (plan.values.length < 2) return plan;
  return { ...plan, values: [...plan.values].sort(compareValues) };
}
