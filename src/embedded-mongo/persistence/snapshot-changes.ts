import { ID_INDEX } from '../storage/collection';
import type { Store } from '../storage/store';
import type { JournaledWrite, StoreChange } from '../storage/store-change';

/** Documents per snapshot record: records stay around a megabyte for documents of a kilobyte. */
const DOCUMENTS_PER_RECORD = 1_000;

/**
 * The store's committed state as the changes that rebuild it in an empty store: per collection its
 * creation (with options), its indexes, then its documents in natural order; then the views; then
 * the transaction each session last committed.
 * Read it in one synchronous pass: it walks the live collections.
 */
export function* snapshotChanges(store: Store): Generator<StoreChange> {
  for (const database of store.databaseNames()) {
    for (const collection of store.collections(database)) {
      yield { kind: 'createCollection', database, name: collection.name, options: collection.options };
      const indexes = collection.indexDefinitions().filter((definition) => definition.name !== ID_INDEX.name);
      if (indexes.length > 0) yield { kind: 'createIndexes', database, collection: collection.name, indexes };
      let writes: JournaledWrite[] = [];
      for (const doc of collection.currentDocuments()) {
        writes.push({ doc });
        if (writes.length < DOCUMENTS_PER_RECORD) continue;
        yield { kind: 'writeDocuments', batches: [{ database, collection: collection.name, writes }] };
        writes = [];
      }
      if (writes.length > 0) yield { kind: 'writeDocuments', batches: [{ database, collection: collection.name, writes }] };
    }
    // a view may be defined on another view: creating them in any order works (only cycles are checked)
    for (const view of store.viewCatalog.list(database)) yield { kind: 'createView', database, view };
  }
  for (const committed of store.sessions.committedTransactions()) yield { kind: 'writeDocuments', batches: [], committed };
}
