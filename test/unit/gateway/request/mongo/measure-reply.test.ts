import { BSON } from 'mongodb';
import { measureReply } from '../../../../../src/gateway/request/mongo/mongo-funnel';

/** A reply as the driver hands a raw read its event: every top-level subdocument left as its BSON bytes. */
function rawReply(reply: BSON.Document): BSON.Document {
  return Object.fromEntries(Object.entries(reply).map(([key, value]) => [key, typeof value === 'object' && value !== null && !(value instanceof BSON.Timestamp) && !(value instanceof BSON.Long) ? BSON.serialize(value) : value]));
}

describe('measureReply', () => {
  const documents = [{ _id: 1, title: 'a' }, { _id: 2, title: 'bb' }];
  const cursor = { id: BSON.Long.ZERO, ns: 'db.posts', firstBatch: documents };

  it('counts a raw read reply as the bytes that came over the wire', () => {
    const reply = { cursor, ok: 1 };
    expect(measureReply('find', rawReply(reply))).toEqual({ documents: 2, bytes: BSON.calculateObjectSize(reply) });
  });

  it("sizes a replica set's $clusterTime as it came too, not as a binary", () => {
    const reply = { cursor, ok: 1, $clusterTime: { clusterTime: new BSON.Timestamp({ t: 1, i: 1 }), signature: { hash: new BSON.Binary(Buffer.alloc(20)), keyId: BSON.Long.ZERO } }, operationTime: new BSON.Timestamp({ t: 1, i: 1 }) };
    expect(measureReply('aggregate', rawReply(reply))).toEqual({ documents: 2, bytes: BSON.calculateObjectSize(reply) });
  });
});
