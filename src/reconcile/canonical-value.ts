import { EJSON } from 'bson';

/**
 * A string equal for equal BSON values, whatever the key order or the class instances:
 * `{id: ObjectId(x), name: "A"}` and `{name: "A", id: new ObjectId(x)}` give the same string.
 */
export function canonicalValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(sortKeys(EJSON.serialize({ v: value }, { relaxed: false })));
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Two different primitives (or a primitive and an object) can't be equal; skip the serialization.
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return canonicalValue(a) === canonicalValue(b);
}

/** Deep copy through BSON, so ObjectIds and Dates stay what they are. */
export function cloneValue<T>(value: T): T {
  return (EJSON.deserialize(EJSON.serialize({ v: value }, { relaxed: false }), { relaxed: false }) as { v: T }).v;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
