import type { Db, Document } from 'mongodb';
import { indexesThroughViews } from '../../gateway';

/**
 * Which paths of each collection an index can look up by equality, read once per collection
 * (`listIndexes`). Counts per key are sent only where one can, so none of them scans the collection.
 */
export class IndexCatalog {
  readonly #leading = new Map<string, Promise<ReadonlySet<string>>>();

  constructor(private readonly db: Db) {}

  /** Whether an ascending, descending or hashed index on `collection` leads with `path` and indexes every document (not partial). */
  async servesEquality(collection: string, path: string): Promise<boolean> {
    let leading = this.#leading.get(collection);
    if (!leading) this.#leading.set(collection, (leading = this.#read(collection)));
    return (await leading).has(path);
  }

  async #read(collection: string): Promise<ReadonlySet<string>> {
    // A collection not made yet has none; a view reads through its collection's.
    const { indexes } = await indexesThroughViews(this.db, collection);
    const paths = new Set<string>();
    for (const index of indexes) {
      const [first] = Object.entries(index.key as Document);
      // 1 / -1 and hashed look keys up by value; text, 2d and 2dsphere do not.
      if (first && index.partialFilterExpression === undefined && (typeof first[1] === 'number' || first[1] === 'hashed')) paths.add(first[0]);
    }
    return paths;
  }
}
