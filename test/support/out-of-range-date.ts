import { BSON, ObjectId } from 'bson';
import type { StoredDocument } from '../../src/gateway/documents/stored-document';

/**
 * A document `{ _id, at }` as the driver hands it over when MongoDB stores `at` as `milliseconds` since
 * 1970: past JavaScript's range (±8.64e15, such as Java's `new Date(Long.MAX_VALUE)`), an Invalid Date.
 * Built from raw BSON: neither the driver nor the embedded server can write such a date.
 */
export function storedWithDateAt(id: string, milliseconds: bigint, fields: Record<string, unknown> = {}): StoredDocument {
  const raw = Buffer.from(BSON.serialize({ _id: new ObjectId(id), at: new Date(0), ...fields }));
  raw.writeBigInt64LE(milliseconds, raw.indexOf(Buffer.from('at\0')) + 3);
  return BSON.deserialize(raw) as StoredDocument;
}
