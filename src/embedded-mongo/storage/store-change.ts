import type { Document } from 'bson';
import type { CommittedTransaction } from './collection';
import type { IndexDefinition } from './equality-index';
import type { ViewDefinition } from './view-catalog';

/** One document change as the journal keeps it: the new version of a document, or the `_id` of a deleted one. */
export type JournaledWrite = { readonly doc: Document } | { readonly deletedId: unknown };

/** The document changes of one commit to one collection, in the order they were applied. */
export interface JournaledBatch {
  readonly database: string;
  readonly collection: string;
  readonly writes: readonly JournaledWrite[];
}

/**
 * A change to a Store's committed state, as plain data: what a durable store writes to its journal
 * before applying it, and replays after a restart. Open transactions, cursors and sessions are not
 * state that survives a restart (as in MongoDB), so they have no changes here; only which transaction
 * each session last committed does, with that commit's writes.
 */
export type StoreChange =
  | { readonly kind: 'createCollection'; readonly database: string; readonly name: string; readonly options: Document }
  | { readonly kind: 'dropCollection'; readonly database: string; readonly name: string }
  | { readonly kind: 'createView'; readonly database: string; readonly view: ViewDefinition }
  | { readonly kind: 'dropView'; readonly database: string; readonly name: string }
  | { readonly kind: 'dropDatabase'; readonly database: string }
  | { readonly kind: 'createIndexes'; readonly database: string; readonly collection: string; readonly indexes: readonly IndexDefinition[] }
  | { readonly kind: 'dropIndexes'; readonly database: string; readonly collection: string; readonly names: readonly string[] }
  /**
   * One commit: a single write, or every write of a transaction (all collections), applied at one
   * version; `committed` names the transaction. A snapshot keeps each session's last one as a record
   * without batches.
   */
  | { readonly kind: 'writeDocuments'; readonly batches: readonly JournaledBatch[]; readonly committed?: CommittedTransaction }
  /** `$out`: the collection's documents replaced by exactly these (its options and indexes are kept). */
  | { readonly kind: 'replaceCollection'; readonly database: string; readonly name: string; readonly documents: readonly Document[] };

/**
 * Where a durable Store sends each change before applying it. `append` returns once the change
 * would survive the process being killed, or throws, and then the change is not applied.
 */
export interface ChangeJournal {
  append(change: StoreChange): void;
  /** Makes every appended change survive a machine crash too, when the journal is set to (fsync). */
  sync(): void;
}
