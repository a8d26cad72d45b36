import type { CollationOptions, Db, Document } from 'mongodb';

/**
 * An index for every index of `collection` that reads `from`, with the moved key in its place: the
 * reverse joins now read `to` (`publisher.id`). The old ones stay for a gateway on the old schema.
 * Returns the keys of the indexes missing, created unless `create` is false (a dry run).
 */
export async function indexMovedKey(db: Db, collection: string, from: string, to: string, { create }: { create: boolean }): Promise<Document[]> {
  const missing: Document[] = [];
  const indexes = await db.collection(collection).listIndexes().toArray();
  for (const index of indexes) {
    const key = index.key as Document;
    if (!Object.hasOwn(key, from)) continue;
    const moved = Object.fromEntries(Object.entries(key).map(([path, direction]) => [path === from ? to : path, direction]));
    // Key order matters in an index, so compare the entries in order.
    const sameKey = (candidate: Document) => JSON.stringify(Object.entries(candidate)) === JSON.stringify(Object.entries(moved));
    if (indexes.some((candidate) => sameKey(candidate.key as Document)) || missing.some(sameKey)) continue;
    if (create) {
      await db.collection(collection).createIndex(moved, {
        ...(index.unique === true && { unique: true }),
        ...(index.sparse === true && { sparse: true }),
        // A unique index over some documents only must stay partial: over every one, each parent without the key would collide on null.
        ...(index.partialFilterExpression !== undefined && { partialFilterExpression: withPathMoved(index.partialFilterExpression, from, to) as Document }),
        ...(index.collation !== undefined && { collation: index.collation as CollationOptions }),
      });
    }
    missing.push(moved);
  }
  return missing;
}

/** `filter` with the field `from` (and the paths inside it) named `to`, at any depth of `$and`/`$or`. */
function withPathMoved(filter: unknown, from: string, to: string): unknown {
  if (Array.isArray(filter)) return filter.map((inner) => withPathMoved(inner, from, to));
  if (typeof filter !== 'object' || filter === null) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => {
      if (key.startsWith('$')) return [key, withPathMoved(value, from, to)];
      return [key === from || key.startsWith(`${from}.`) ? `${to}${key.slice(from.length)}` : key, value];
    }),
  );
}
