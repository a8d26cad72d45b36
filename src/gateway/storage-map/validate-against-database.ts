import { DatabaseMismatchError } from '../errors/internal-errors';
import type { StorageMap } from './storage-map-types';

/** What the check reads from the database (the mongo funnel provides it). */
export interface DatabaseCatalog {
  readonly databaseName: string;
  listCollectionNames(): Promise<string[]>;
  listIndexKeys(collection: string): Promise<Array<Record<string, unknown>>>;
}

/**
 * The database-level half of validation, run at server start: every collection the storage map names
 * exists, and every reverse join's foreignField leads an index (else each parent would scan the collection).
 * Throws DatabaseMismatchError listing every problem with the command that fixes it.
 */
export async function validateAgainstDatabase(storageMap: StorageMap, catalog: DatabaseCatalog): Promise<void> {
  const problems: string[] = [];
  const existing = new Set(await catalog.listCollectionNames());
  const missing = (collection: string) => !existing.has(collection);
  for (const type of storageMap.types.values()) {
    if (type.collection !== undefined && missing(type.collection)) {
      problems.push(`${type.typeName}: @collection(name: "${type.collection}") does not exist in database "${catalog.databaseName}"; load data (npm run seed) or fix the name`);
    }
  }
  const indexes = new Map<string, Array<Record<string, unknown>>>();
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    if (!join) continue;
    if (missing(join.collection)) {
      if (join.collection !== storageMap.types.get(join.targetType)?.collection) {
        problems.push(`${field.coordinate}: @join(collection: "${join.collection}") does not exist in database "${catalog.databaseName}"; load data (npm run seed) or fix the name`);
      }
      continue;
    }
    if (join.foreignField === '_id') continue;
    let keys = indexes.get(join.collection);
    if (!keys) indexes.set(join.collection, (keys = await catalog.listIndexKeys(join.collection)));
    if (!keys.some((key) => Object.keys(key)[0] === join.foreignField)) {
      const suggested = [`${join.foreignField}: 1`, ...join.sort.filter((key) => key.path !== '_id').map((key) => `${key.path}: ${key.direction}`)];
      problems.push(`${field.coordinate}: no index on ${join.collection}.${join.foreignField}; create one with db.${join.collection}.createIndex({ ${suggested.join(', ')} })`);
    }
  }
  if (problems.length > 0) throw new DatabaseMismatchError(problems);
}
