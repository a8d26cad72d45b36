import { Binary, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { compareValues } from '../../../../src/embedded-mongo/query';

describe('compareValues', () => {
  // MongoDB docs: "Comparison/Sort Order" — MinKey < Null < Numbers < Symbol/String < Object < Array
  // < BinData < ObjectId < Boolean < Date < Timestamp < Regular Expression < MaxKey, and JavaScript code
  // (left out there) after regular expressions, as the server's canonical type order puts it
  it('orders values of different BSON types by the documented type order', () => {
    const ascending: unknown[] = [
      new MinKey(),
      null,
      -5,
      'a',
      { a: 1 },
      [1],
      new Binary(Buffer.from('x')),
      new ObjectId('000000000000000000000001'),
      false,
      new Date(0),
      new Timestamp({ t: 1, i: 0 }),
      /a/,
      new Code('a'),
      new Code('b'),
      new Code('b', { x: 1 }),
      new MaxKey(),
    ];
    for (let i = 0; i < ascending.length - 1; i++) {
      expect(compareValues(ascending[i], ascending[i + 1])).toBe(-1);
      expect(compareValues(ascending[i + 1], ascending[i])).toBe(1);
    }
  });

  it('treats null and missing as equal', () => {
    expect(compareValues(null, undefined)).toBe(0);
  });

  // MongoDB docs: "Comparison/Sort Order" — numeric types are converted before comparison
  it('compares numbers by value across Int32, Double, Long and Decimal128', () => {
    expect(compareValues(1, Long.fromNumber(1))).toBe(0);
    expect(compareValues(new Int32(1), new Decimal128('1.0'))).toBe(0);
    expect(compareValues(new Double(1.5), Long.fromNumber(1))).toBe(1);
    expect(compareValues(new Decimal128('0.1'), 0.1)).toBe(-1); // the double 0.1 is 0.1000000000000000055…
    expect(compareValues(new Decimal128('-1E+400'), -Number.MAX_VALUE)).toBe(-1);
  });

  it('compares Longs beyond 2^53 exactly, also against doubles', () => {
    const big = Long.fromString('9007199254740993');
    expect(compareValues(big, Long.fromString('9007199254740992'))).toBe(1);
    expect(compareValues(big, 9007199254740992)).toBe(1);
    expect(compareValues(9007199254740994, big)).toBe(1);
    expect(compareValues(Long.fromString('-9223372036854775808'), Long.fromString('9223372036854775807'))).toBe(-1);
  });

  // MongoDB docs: "Comparison/Sort Order" — NaN sorts below all other numbers and equals NaN
  it('orders NaN below every other number and equal to NaN of any type', () => {
    expect(compareValues(Number.NaN, -Infinity)).toBe(-1);
    expect(compareValues(new Decimal128('NaN'), Number.NaN)).toBe(0);
    expect(compareValues(Number.NaN, null)).toBe(1);
  });

  it('compares strings by code point (binary) order', () => {
    expect(compareValues('B', 'a')).toBe(-1);
    expect(compareValues('\uffff', '\u{1F600}')).toBe(-1);
    expect(compareValues('ab', 'abc')).toBe(-1);
  });

  // MongoDB docs: "Comparison/Sort Order" — objects compare field by field: type, then name, then value
  it('compares documents field by field and arrays element by element', () => {
    expect(compareValues({ a: 1 }, { a: 2 })).toBe(-1);
    expect(compareValues({ a: 1 }, { b: 0 })).toBe(-1);
    expect(compareValues({ a: 'x' }, { a: 5 })).toBe(1);
    expect(compareValues({ a: 1 }, { a: 1, b: 1 })).toBe(-1);
    expect(compareValues([1, 2], [1, 3])).toBe(-1);
    expect(compareValues([1, 2], [1])).toBe(1);
  });

  it('compares ObjectIds by bytes, dates by time, booleans false < true, timestamps by (t, i)', () => {
    expect(compareValues(new ObjectId('000000000000000000000002'), new ObjectId('00000000000000000000000a'))).toBe(-1);
    expect(compareValues(new ObjectId('65a000000000000000000000'), new ObjectId('65a000000000000000000000'))).toBe(0);
    expect(compareValues(new Date(5), new Date(4))).toBe(1);
    expect(compareValues(false, true)).toBe(-1);
    expect(compareValues(new Timestamp({ t: 2, i: 0 }), new Timestamp({ t: 1, i: 9 }))).toBe(1);
  });

  it('compares BinData by length, then subtype, then bytes', () => {
    expect(compareValues(new Binary(Buffer.from([9])), new Binary(Buffer.from([0, 0])))).toBe(-1);
    expect(compareValues(new Binary(Buffer.from([9]), 0), new Binary(Buffer.from([1]), 4))).toBe(-1);
    expect(compareValues(new Binary(Buffer.from([1])), new Binary(Buffer.from([2])))).toBe(-1);
  });
});
