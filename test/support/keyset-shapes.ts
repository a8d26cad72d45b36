/**
 * The keyset conditions afterFilter writes for the common keys: within the type by `$gt`/`$lt`, the BSON
 * types MongoDB sorts beyond it by `$type`, and null (which sorts first) after a descending value.
 */
export const TYPES_BEFORE_IDS = ['minKey', 'int', 'long', 'double', 'decimal', 'string', 'symbol', 'object', 'binData'];
export const TYPES_AFTER_IDS = ['bool', 'date', 'timestamp', 'regex', 'javascript', 'maxKey'];
export const TYPES_BEFORE_DATES = [...TYPES_BEFORE_IDS, 'objectId', 'bool'];

export function idsAfter(id: unknown): Record<string, unknown> {
  return { $or: [{ _id: { $gt: id } }, { _id: { $type: TYPES_AFTER_IDS } }] };
}

export function idsBefore(id: unknown): Record<string, unknown> {
  return { $or: [{ _id: { $lt: id } }, { _id: { $type: TYPES_BEFORE_IDS } }, { _id: null }] };
}

export function datesBefore(date: Date, path = 'createdAt'): Record<string, unknown> {
  return { $or: [{ [path]: { $lt: date } }, { [path]: { $type: TYPES_BEFORE_DATES } }, { [path]: null }] };
}
