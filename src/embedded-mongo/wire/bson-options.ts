import type { DeserializeOptions, SerializeOptions } from 'bson';

/**
 * How command documents are decoded. Chosen so that a write/read round trip keeps BSON types:
 * - `promoteLongs: false` keeps every Int64 a `Long` (the default would turn small ones into numbers,
 *   which would come back as Int32 or Double).
 * - `promoteValues: true` (default) turns Int32 and Double into JS numbers, which storage and mingo
 *   understand; on the way out `bson` writes an integral number in int32 range as Int32 and anything
 *   else as Double. The one loss: a Double with an integral int32-range value (e.g. 1.0) comes back
 *   as Int32 1, exactly as the Node driver itself would write a JS `1`.
 * - Decimal128, ObjectId, Date, Binary (`promoteBuffers: false`), Timestamp, MinKey/MaxKey keep their classes.
 */
export const DESERIALIZE_OPTIONS: DeserializeOptions = {
  promoteLongs: false,
  promoteValues: true,
  promoteBuffers: false,
  useBigInt64: false,
  bsonRegExp: false,
};

/** `ignoreUndefined` so handlers can leave optional reply fields undefined instead of sending null. */
export const SERIALIZE_OPTIONS: SerializeOptions = {
  checkKeys: false,
  ignoreUndefined: true,
};
