import type { Decimal128, Double, Int32, Long, ObjectId } from 'bson';

/**
 * BSON values are told apart by the tag the bson library puts on them (`_bsontype`), not by
 * `instanceof`: a project's resolvers can hold another copy of bson than docjoin's (a dependency of
 * their own, or the ES module build that a TypeScript config loaded through jiti imports), and its
 * ObjectIds are not instances of docjoin's class.
 */
export function bsonType(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

export function isObjectId(value: unknown): value is ObjectId {
  return bsonType(value) === 'ObjectId';
}

const BSON_NUMBERS: ReadonlySet<string> = new Set(['Long', 'Int32', 'Double', 'Decimal128']);

/** A number the bson library wraps (a Long the driver did not promote, a Decimal128, an Int32 or Double read without promoteValues). */
export function isBsonNumber(value: unknown): value is Long | Decimal128 | Int32 | Double {
  const type = bsonType(value);
  return type !== undefined && BSON_NUMBERS.has(type);
}
