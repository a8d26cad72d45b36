import type { StorageMap } from './storage-map-types';

/**
 * Where documents of `typeName` are stored: its own collection (prefix ""), and each collection that
 * embeds it, with the path there (`orders`, "lines."); its own collection first.
 */
export function embeddingPlaces(storageMap: StorageMap, typeName: string): Array<{ collection: string; prefix: string }> {
  const places: Array<{ collection: string; prefix: string }> = [];
  const walk = (current: string, collection: string, prefix: string, seen: ReadonlySet<string>) => {
    if (current === typeName) places.push({ collection, prefix });
    for (const field of storageMap.types.get(current)?.fields.values() ?? []) {
      const embedded = field.kind === 'relation' ? field.shapes.embedded : undefined;
      if (field.kind === 'relation' && embedded && !seen.has(field.targetType)) walk(field.targetType, collection, `${prefix}${embedded.path}.`, new Set([...seen, field.targetType]));
    }
  };
  for (const type of storageMap.types.values()) {
    if (type.collection !== undefined) walk(type.typeName, type.collection, '', new Set([type.typeName]));
  }
  // The type's own collection first.
  return places.sort((a, b) => Number(b.prefix === '') - Number(a.prefix === ''));
}
