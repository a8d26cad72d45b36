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

export const TYPES_AFTER_DATES = ['timestamp', 'regex', 'javascript', 'maxKey'];

/** After a date descending: the earlier ones, the types sorted before dates, null and a path reaching nothing, and an empty array (which sorts last). */
export function datesBefore(date: Date, path = 'createdAt'): Record<string, unknown> {
  return { $or: [{ [path]: { $lt: date } }, { [path]: { $type: TYPES_BEFORE_DATES } }, { [path]: null }, { [path]: { $exists: false } }, { [path]: { $eq: [] } }] };
}

/**
 * What afterFilter puts under `$nor` for a key that may hold an array, descending from a date: an
 * element sorting before it (`orLevel`: or level with it), which would place the document there.
 */
export function elementsFromDate(date: Date, orLevel: boolean, path = 'createdAt'): Record<string, unknown>[] {
  return [{ [path]: { $type: TYPES_AFTER_DATES } }, { [path]: orLevel ? { $gte: date } : { $gt: date } }];
}

/** afterFilter on `-createdAt` (then `_id`, descending) from a date and an id. */
export function afterDateAndId(date: Date, id: unknown): Record<string, unknown> {
  return {
    $or: [
      { ...datesBefore(date), $nor: elementsFromDate(date, true) },
      { createdAt: { $eq: date }, ...idsBefore(id), $nor: elementsFromDate(date, false) },
    ],
  };
}
