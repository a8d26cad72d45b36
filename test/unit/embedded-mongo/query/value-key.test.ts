import { Binary, Decimal128, Double, Int32, Long, ObjectId } from 'bson';
import { valueKey } from '../../../../src/embedded-mongo/query';

describe('valueKey', () => {
  // MongoDB docs: "Comparison/Sort Order" — numbers of different types with equal values are equal
  it('gives equal numbers of every numeric type the same key', () => {
    const keys = [1, 1.0, new Int32(1), new Double(1), Long.fromNumber(1), new Decimal128('1'), new Decimal128('1.000'), new Decimal128('0.1E+1')].map(valueKey);
    expect(new Set(keys).size).toBe(1);
    expect(valueKey(-0)).toBe(valueKey(0));
    expect(valueKey(new Decimal128('-0'))).toBe(valueKey(0));
  });

  it('keeps numbers that differ apart, exactly', () => {
    expect(valueKey(Long.fromString('9007199254740993'))).not.toBe(valueKey(9007199254740992));
    expect(valueKey(new Decimal128('0.1'))).not.toBe(valueKey(0.1));
    expect(valueKey(new Decimal128('0.5'))).toBe(valueKey(0.5));
    expect(valueKey(new Decimal128('1152921504606847000'))).not.toBe(valueKey(2 ** 60));
    expect(valueKey(Long.fromString('1152921504606846976'))).toBe(valueKey(2 ** 60));
    expect(valueKey(1)).not.toBe(valueKey('1'));
    expect(valueKey(Number.NaN)).toBe(valueKey(new Decimal128('NaN')));
  });

  it('keys ObjectIds by bytes and dates by time', () => {
    expect(valueKey(new ObjectId('65a1b2c3d4e5f60718293a4b'))).toBe(valueKey(new ObjectId('65a1b2c3d4e5f60718293a4b')));
    expect(valueKey(new ObjectId('65a1b2c3d4e5f60718293a4b'))).not.toBe(valueKey('65a1b2c3d4e5f60718293a4b'));
    expect(valueKey(new Date(1000))).toBe(valueKey(new Date(1000)));
    expect(valueKey(new Date(1000))).not.toBe(valueKey(1000));
  });

  // MongoDB docs: "Query on Embedded/Nested Documents" — equality on a document requires the same field order
  it('is field-order-sensitive for documents and order-sensitive for arrays', () => {
    expect(valueKey({ a: 1, b: Long.fromNumber(2) })).toBe(valueKey({ a: 1.0, b: 2 }));
    expect(valueKey({ a: 1, b: 2 })).not.toBe(valueKey({ b: 2, a: 1 }));
    expect(valueKey([1, 2])).not.toBe(valueKey([2, 1]));
    expect(valueKey(['a,b'])).not.toBe(valueKey(['a', 'b']));
  });

  // MongoDB docs: "Query for Null or Missing Fields"
  it('gives null and missing the same key', () => {
    expect(valueKey(null)).toBe(valueKey(undefined));
  });

  it('keys Binary by subtype and bytes', () => {
    expect(valueKey(new Binary(Buffer.from('ab'), 0))).toBe(valueKey(new Binary(Buffer.from('ab'), 0)));
    expect(valueKey(new Binary(Buffer.from('ab'), 0))).not.toBe(valueKey(new Binary(Buffer.from('ab'), 4)));
  });
});

describe('valueKey of ObjectIds', () => {
  it('is equal exactly for equal bytes, also inside documents and arrays', () => {
    const a = new ObjectId('65a1b2c3d4e5f60718293a4b');
    expect(valueKey(new ObjectId(a.toHexString()))).toBe(valueKey(a));
    expect(valueKey(new ObjectId('65a1b2c3d4e5f60718293a4c'))).not.toBe(valueKey(a));
    expect(valueKey([a, 1])).toBe(valueKey([new ObjectId(a.toHexString()), 1]));
    expect(valueKey({ x: a })).not.toBe(valueKey({ x: a.toHexString() }));
  });

  // the key holds the raw bytes, so bytes that look like separators must not make two values collide
  it('stays unambiguous inside composite keys whatever the bytes are', () => {
    const comma = new ObjectId('2c2c2c2c2c2c2c2c2c2c2c2c'); // twelve ',' bytes
    const bracket = new ObjectId('5d2c5b5d2c5b5d2c5b5d2c5b'); // "],[" repeated
    const keys = [valueKey([comma]), valueKey([comma, comma]), valueKey([bracket]), valueKey([bracket, 1]), valueKey([[bracket], 1])];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
