import type { ObjectId } from 'bson';
import type { StorageMap } from '../../gateway';

/** Field names taken for a creation time when the caller names none (`createdAt`, `created_on`, `time`, …). */
const CREATION_TIME_NAME = /^(?:(?:created|inserted|added)(?:_?(?:at|on|time|date))?|time|timestamp)$/i;

/**
 * The stored path of `typeName`'s creation time: the one the caller named, else the first stored,
 * single-valued field whose name says it is one. Whether its values are times is seen when they are read
 * (`timeMillis`), so a field holding something else only yields no growth.
 */
export function timePathOf(storageMap: StorageMap, typeName: string, named: Readonly<Record<string, string>>): string | undefined {
  const explicit = named[typeName];
  if (explicit !== undefined) return explicit;
  for (const field of storageMap.types.get(typeName)?.fields.values() ?? []) {
    if (field.kind === 'stored' && !field.isId && !field.valueType.isList && !field.valueType.isEnum && CREATION_TIME_NAME.test(field.fieldName)) return field.path;
  }
  return undefined;
}

/** Milliseconds since the epoch of a Date, or of an ObjectId's timestamp; undefined for anything else. */
export function timeMillis(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId') return (value as ObjectId).getTimestamp().getTime();
  return undefined;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
