import type { DocumentWrite } from '../storage/collection';
import { documentKey } from '../storage/document-key';
import type { Store } from '../storage/store';
import type { JournaledWrite, StoreChange } from '../storage/store-change';

/**
 * Applies a change read back from the snapshot or the journal, through the same Store methods that
 * made it (the store has no journal yet, so nothing is journaled again). Applying a change twice
 * leaves the store as applying it once: creates skip what exists, drops what is gone, and document
 * writes set or delete by `_id`.
 */
export function replayChange(store: Store, change: StoreChange): void {
  switch (change.kind) {
    case 'createCollection':
      if (store.collection(change.database, change.name) === undefined) store.createCollection(change.database, change.name, change.options);
      return;
    case 'dropCollection':
      store.dropCollection(change.database, change.name);
      return;
    case 'createView':
      if (store.viewCatalog.get(change.database, change.view.name) === undefined) store.createView(change.database, change.view);
      return;
    case 'dropView':
      store.dropView(change.database, change.name);
      return;
    case 'dropDatabase':
      store.dropDatabase(change.database);
      return;
    case 'createIndexes': {
      const collection = store.ensureCollection(change.database, change.collection);
      store.createIndexes(collection, change.indexes.filter((index) => !collection.hasIndex(index.name)));
      return;
    }
    case 'dropIndexes': {
      const collection = store.collection(change.database, change.collection);
      if (collection !== undefined) store.dropIndexes(collection, change.names.filter((name) => collection.hasIndex(name)));
      return;
    }
    case 'writeDocuments':
      store.commitWrites(
        change.batches.map((batch) => ({ collection: store.ensureCollection(batch.database, batch.collection), writes: batch.writes.map(documentWrite) })),
      );
      if (change.committed) store.sessions.restoreCommitted(change.committed);
      return;
    case 'replaceCollection':
      store.replaceCollection(change.database, change.name, change.documents);
      return;
    default: {
      const unknown: never = change;
      throw new Error(`replayChange: unknown change ${String(unknown)}`);
    }
  }
}

function documentWrite(write: JournaledWrite): DocumentWrite {
  return 'doc' in write ? { id: documentKey(write.doc._id), doc: write.doc } : { id: documentKey(write.deletedId), doc: null };
}
