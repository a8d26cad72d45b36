import { BSON, type Document } from 'mongodb';

/**
 * A read's reply as it was sent: the gateway reads raw documents, so the event's reply holds them (an
 * aggregate's whole cursor) as BSON buffers, decoded here keeping every number's BSON type; the
 * driver decoded the cursor id of the other replies into a number, which is an int64 on the wire.
 */
export function asOnTheWire(reply: Document): Document {
  const decoded = (value: unknown) => (value instanceof Uint8Array ? BSON.deserialize(value, { promoteValues: false }) : value);
  const cursor = decoded(reply.cursor) as { id: unknown; firstBatch?: unknown[]; nextBatch?: unknown[] };
  const batchName = cursor.firstBatch ? 'firstBatch' : 'nextBatch';
  return {
    ...reply,
    cursor: { ...cursor, id: typeof cursor.id === 'number' ? BSON.Long.fromNumber(cursor.id) : cursor.id, [batchName]: (cursor[batchName] ?? []).map(decoded) },
  };
}
