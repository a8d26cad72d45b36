import { BSON, Binary, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, serialize } from 'bson';
import { decodeBsonDocument, encodeBsonDocument } from '../../../../src/embedded-mongo/wire/bson-document';
import { CursorStore } from '../../../../src/embedded-mongo/storage/cursor-store';
import { encodedBatch } from '../../../../src/embedded-mongo/protocol/encoded-batches';

/** The BSON element type byte written for field `name` in `bytes`. */
function elementType(bytes: Uint8Array, name: string): number {
  const buffer = Buffer.from(bytes);
  const at = buffer.indexOf(Buffer.from(`${name}\0`, 'utf8'));
  if (at < 1) throw new Error(`field ${name} not found`);
  return buffer[at - 1]!;
}

const INT32 = 0x10;
const DOUBLE = 0x01;
const INT64 = 0x12;
const DECIMAL = 0x13;

describe('decodeBsonDocument', () => {
  const original = {
    int: new Int32(7),
    intMin: new Int32(-2147483648),
    doubleIntegral: new Double(1),
    doubleNegZero: new Double(-0),
    doubleFraction: new Double(2.5),
    doubleBig: new Double(1e20),
    doubleOutsideInt32: new Double(2147483648),
    longSmall: Long.fromNumber(5),
    longBig: Long.fromString('9223372036854775807'),
    decimal: Decimal128.fromString('1.10'),
    nested: { list: [new Int32(1), new Double(3), { deep: new Double(4.5) }] },
  };

  it('turns Int32 and non-integral-looking Doubles into numbers, keeps Long, Decimal128 and Int32-looking Doubles', () => {
    const decoded = decodeBsonDocument(serialize(original));
    expect(decoded.int).toBe(7);
    expect(decoded.intMin).toBe(-2147483648);
    expect(decoded.doubleIntegral).toBeInstanceOf(Double);
    expect(decoded.doubleIntegral.value).toBe(1);
    expect(Object.is(decoded.doubleNegZero, -0)).toBe(true);
    expect(decoded.doubleFraction).toBe(2.5);
    expect(decoded.doubleBig).toBe(1e20);
    expect(decoded.doubleOutsideInt32).toBe(2147483648);
    expect(decoded.longSmall).toBeInstanceOf(Long);
    expect(decoded.longSmall.toString()).toBe('5');
    expect(decoded.longBig.toString()).toBe('9223372036854775807');
    expect(decoded.decimal.toString()).toBe('1.10');
    expect(decoded.nested.list[0]).toBe(1);
    expect(decoded.nested.list[1]).toBeInstanceOf(Double);
    expect(decoded.nested.list[2].deep).toBe(4.5);
  });

  it('round-trips every numeric element type exactly', () => {
    const encoded = encodeBsonDocument(decodeBsonDocument(serialize(original)));
    const types: Record<string, number> = {
      int: INT32,
      intMin: INT32,
      doubleIntegral: DOUBLE,
      doubleNegZero: DOUBLE,
      doubleFraction: DOUBLE,
      doubleBig: DOUBLE,
      doubleOutsideInt32: DOUBLE,
      longSmall: INT64,
      longBig: INT64,
      decimal: DECIMAL,
    };
    for (const [name, type] of Object.entries(types)) expect([name, elementType(encoded, name)]).toEqual([name, type]);
    expect(Buffer.from(encoded).equals(Buffer.from(serialize(original)))).toBe(true);
  });

  it('keeps the other BSON classes', () => {
    const id = new ObjectId();
    const source = {
      id,
      when: new Date(0),
      bin: new Binary(Buffer.from([1, 2]), 4),
      ts: new Timestamp({ t: 5, i: 6 }),
      min: new MinKey(),
      max: new MaxKey(),
      re: /ab+c/i,
      ref: new DBRef('people', new Int32(3) as unknown as ObjectId),
      nothing: null,
      text: 'héllo',
      yes: true,
    };
    const decoded = decodeBsonDocument(BSON.serialize(source));
    expect(decoded.id.equals(id)).toBe(true);
    expect(decoded.when).toEqual(new Date(0));
    expect(decoded.bin).toBeInstanceOf(Binary);
    expect(decoded.ts).toBeInstanceOf(Timestamp);
    expect(decoded.min).toBeInstanceOf(MinKey);
    expect(decoded.max).toBeInstanceOf(MaxKey);
    expect(decoded.re).toEqual(/ab+c/i);
    expect(decoded.ref).toBeInstanceOf(DBRef);
    expect(decoded.ref.oid).toBe(3);
    expect(decoded.nothing).toBeNull();
    expect(decoded.text).toBe('héllo');
    expect(decoded.yes).toBe(true);
  });

  it('keeps a field named __proto__ as an own field without touching the prototype', () => {
    const bytes = serialize(JSON.parse('{"__proto__": 5, "a": 1}'));
    const decoded = decodeBsonDocument(bytes);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toBe(5);
  });
});

describe('encodeBsonDocument', () => {
  it('leaves out undefined fields', () => {
    expect(decodeBsonDocument(encodeBsonDocument({ a: 1, b: undefined }))).toEqual({ a: 1 });
  });
});

describe('encodeBsonDocument of a cursor reply', () => {
  const documents = [{ _id: 1, n: new Int32(2), d: new Double(3), nested: { list: [1, 'two', null] } }, { _id: Long.fromNumber(7), text: 'é' }, { _id: 3, skipped: undefined }];

  it.each(['firstBatch', 'nextBatch'])('writes a batch the cursor store encoded as bson writes the whole reply (%s)', (field) => {
    const batch = new CursorStore().open('db.c', documents);
    expect(encodedBatch(batch.documents)).toBeDefined();
    const reply = { cursor: { id: batch.id, ns: batch.ns, [field]: batch.documents, absent: undefined }, ok: 1, $clusterTime: { clusterTime: new Timestamp({ t: 1, i: 2 }) } };
    const expected = serialize(reply, { checkKeys: false, ignoreUndefined: true });
    expect(Buffer.from(encodeBsonDocument(reply)).equals(Buffer.from(expected))).toBe(true);
  });

  it('writes a batch changed after it was taken from the documents it now holds', () => {
    const shortened = new CursorStore().open('db.c', documents);
    shortened.documents.pop();
    const ids = (batch: { documents: unknown[] }) =>
      decodeBsonDocument(encodeBsonDocument({ cursor: { id: Long.ZERO, ns: 'db.c', firstBatch: batch.documents }, ok: 1 })).cursor.firstBatch.map((doc: { _id: unknown }) => doc._id);
    expect(ids(shortened)).toEqual([1, Long.fromNumber(7)]);
    const replaced = new CursorStore().open('db.c', documents);
    replaced.documents[0] = { _id: 'new' };
    expect(encodedBatch(replaced.documents)).toBeUndefined();
    expect(ids(replaced)).toEqual(['new', Long.fromNumber(7), 3]);
  });
});
