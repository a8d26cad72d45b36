import type { StorageMap } from './storage-map-types';

/**
 * Where documents of `typeName` are stored: its own collection, or (for a type that only lives
 * embedded, such as Holding) the embedding paths inside its owners' collections.
 */
export function documentLocations(storageMap: StorageMap, typeName: string, seen: ReadonlySet<string> = new Set()): Array<{ collection: string; prefix: string }> {
  const own = storageMap.types.get(typeName)?.collection;
  if (own !== undefined) return [{ collection: own, prefix: '' }];
  if (seen.has(typeName)) return [];
  const locations: Array<{ collection: string; prefix: string }> = [];
  for (const owner of storageMap.relations.values()) {
    const embedded = owner.shapes.embedded;
    if (!embedded || owner.targetType !== typeName) continue;
    for (const location of documentLocations(storageMap, owner.typeName, new Set([...seen, typeName]))) {
      locations.push({ collection: location.collection, prefix: location.prefix === '' ? embedded.path : `${location.prefix}.${embedded.path}` });
    }
  }
  return locations;
}
