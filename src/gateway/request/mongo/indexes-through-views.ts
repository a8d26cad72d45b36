import { MongoServerError, type Db, type Document } from 'mongodb';

/** MongoDB's error for a command a view cannot run (listIndexes on one). */
const COMMAND_NOT_SUPPORTED_ON_VIEW = 166;
/** MongoDB's error for a collection that does not exist (listIndexes on one). */
const NAMESPACE_NOT_FOUND = 26;
/** Views on views MongoDB allows at most (its maximum view depth). */
const MAX_VIEW_DEPTH = 20;

/**
 * The index documents `listIndexes` gives for `collection`; for a view, those of the collection it is a
 * view on (MongoDB reads a view through it, the view's pipeline first), with that collection's name as
 * `source`. None for a collection that does not exist yet (MongoDB makes one on its first write) or a
 * view on no collection.
 */
export async function indexesThroughViews(db: Db, collection: string): Promise<{ readonly indexes: Document[]; readonly source?: string }> {
  for (let name = collection, depth = 0; depth < MAX_VIEW_DEPTH; depth++) {
    try {
      const indexes = await db.collection(name).listIndexes().toArray();
      return name === collection ? { indexes } : { indexes, source: name };
    } catch (error) {
      if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return { indexes: [] };
      const viewOn = error instanceof MongoServerError && error.code === COMMAND_NOT_SUPPORTED_ON_VIEW ? await viewSource(db, name) : undefined;
      if (viewOn === undefined) throw error;
      name = viewOn;
    }
  }
  return { indexes: [] };
}

async function viewSource(db: Db, view: string): Promise<string | undefined> {
  const [info] = await db.listCollections({ name: view }).toArray();
  const viewOn = (info as { options?: { viewOn?: unknown } } | undefined)?.options?.viewOn;
  return typeof viewOn === 'string' ? viewOn : undefined;
}
