import type { StorageMap } from '../gateway';
import type { ShardKeys } from './shard-targeting';

/**
 * Why `mongodb.shardKeys` cannot be what the project means: a key naming no collection of the schema
 * (a type's name, a typo) would leave every command of that collection "unsharded". Undefined when each
 * names one.
 */
export function shardKeysProblem(shardKeys: ShardKeys, storageMap: StorageMap): string | undefined {
  const collections = new Set([...storageMap.types.values()].flatMap((type) => (type.collection === undefined ? [] : [type.collection])));
  const stranger = Object.keys(shardKeys).find((name) => !collections.has(name));
  if (stranger === undefined) return undefined;
  const storedAs = storageMap.types.get(stranger)?.collection;
  const hint = storedAs !== undefined ? `type ${stranger} is stored in "${storedAs}"` : `its collections are ${[...collections].sort().join(', ')}`;
  return `mongodb.shardKeys.${stranger}: the schema has no collection "${stranger}" (${hint}); name each shard key by its collection`;
}
