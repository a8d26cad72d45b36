import { allStoredPathsOf, pathsOverlap, type StorageMap } from '../gateway';
import type { ShardKeys } from './shard-targeting';

/**
 * Why `mongodb.shardKeys` cannot be what the project means: a key naming no collection of the schema
 * (a type's name, a typo) would leave every command of that collection "unsharded". Undefined when each
 * names one.
 */
export function shardKeysProblem(shardKeys: ShardKeys, storageMap: StorageMap): string | undefined {
  const collections = new Set([...storageMap.types.values()].flatMap((type) => (type.collection === undefined ? [] : [type.collection])));
  const stranger = Object.keys(shardKeys).find((name) => !collections.has(name));
  if (stranger !== undefined) {
    const storedAs = storageMap.types.get(stranger)?.collection;
    const hint = storedAs !== undefined ? `type ${stranger} is stored in "${storedAs}"` : `its collections are ${[...collections].sort().join(', ')}`;
    return `mongodb.shardKeys.${stranger}: the schema has no collection "${stranger}" (${hint}); name each shard key by its collection`;
  }
  for (const [collection, key] of Object.entries(shardKeys)) {
    const problem = Object.keys(key).map((path) => keyPathProblem(storageMap, collection, path)).find((found) => found !== undefined);
    if (problem !== undefined) return `mongodb.shardKeys.${collection}: ${problem}`;
  }
  return undefined;
}

/**
 * Why a shard key's field cannot be one the collection's documents hold: a path MongoDB refuses (empty,
 * an empty or `$` part), or one no type over the collection stores data at, around or inside (a field's
 * GraphQL name instead of its stored path, a typo), which would show every command as "broadcast".
 */
function keyPathProblem(storageMap: StorageMap, collection: string, path: string): string | undefined {
  if (path.split('.').some((part) => part === '' || part.startsWith('$'))) return `"${path}" is no field path (a part is empty or starts with $); name the stored path of each shard key field`;
  if (path === '_id') return undefined;
  // What the collection's own types store, and the keys joins from elsewhere read its documents by (a reverse join's foreignField).
  const stored = [
    ...[...storageMap.types.values()].filter((type) => type.collection === collection).flatMap((type) => allStoredPathsOf(type)),
    ...[...storageMap.relations.values()].flatMap((relation) => (relation.shapes.join?.collection === collection ? [relation.shapes.join.foreignField] : [])),
  ];
  if (stored.some((storedPath) => pathsOverlap(storedPath, path))) return undefined;
  return `"${path}" is no path the schema stores in ${collection} (its documents hold ${[...new Set(stored)].sort().join(', ')}); name the stored path of each shard key field, as in the database`;
}
