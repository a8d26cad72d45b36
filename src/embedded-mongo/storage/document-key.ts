import type { ObjectId } from 'bson';
import { packedObjectId, valueKey } from '../query';

/**
 * The key of a value in the `_id` map and in equality indexes: values MongoDB treats as equal share
 * one. An ObjectId (the usual `_id` and join key) is keyed by its 12 bytes as 12 one-byte characters
 * after an "O" no valueKey starts with: a 13-character string takes 32 bytes of heap, the 25-character
 * hex valueKey 48. Other values use `valueKey`, flattened before it is kept: keys built by
 * concatenation are V8 rope strings, and a rope weighs several times its flat form.
 */
export function indexKey(value: unknown): string {
  if (typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId') {
    return objectIdKey(value as ObjectId);
  }
  const key = valueKey(value);
  // Number() reads the whole string, which makes V8 flatten the rope in place
  Number(key);
  return key;
}

/** The `_id` map key of a document id. */
export function documentKey(id: unknown): string {
  return indexKey(id);
}

function objectIdKey(id: ObjectId): string {
  const packed = packedObjectId(id);
  if (packed === undefined) {
    const b = id.id;
    return String.fromCharCode(0x4f, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, b[8]!, b[9]!, b[10]!, b[11]!);
  }
  const { i0, i1, i2, i3 } = packed;
  // prettier-ignore
  return String.fromCharCode(
    0x4f,
    i0 >>> 16, (i0 >>> 8) & 0xff, i0 & 0xff,
    i1 >>> 16, (i1 >>> 8) & 0xff, i1 & 0xff,
    i2 >>> 16, (i2 >>> 8) & 0xff, i2 & 0xff,
    i3 >>> 16, (i3 >>> 8) & 0xff, i3 & 0xff,
  );
}
