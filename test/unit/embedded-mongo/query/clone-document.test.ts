import { Binary, BSONRegExp, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID } from 'bson';
import { cloneDocument } from '../../../../src/embedded-mongo/query';
import { deepFrozen, unsharedValue } from '../../../../src/embedded-mongo/query/clone-document';

describe('cloneDocument', () => {
  it('copies documents, arrays, dates, regexes and binaries, keeping their classes', () => {
    const original = {
      _id: new ObjectId('65a1b2c3d4e5f60718293a4b'),
      nested: { list: [1, { deep: 'x' }] },
      when: new Date(42),
      re: /ab+c/gi,
      bin: new Binary(Buffer.from([1, 2, 3]), 0),
      uuid: new UUID('0123456789abcdef0123456789abcdef'),
      long: Long.fromString('9007199254740993'),
      dec: new Decimal128('1.10'),
      int: new Int32(7),
      dbl: new Double(2),
      ts: new Timestamp({ t: 5, i: 6 }),
      min: new MinKey(),
      max: new MaxKey(),
      bre: new BSONRegExp('x', 'i'),
      nil: null,
    };
    const copy = cloneDocument(original);
    expect(copy).toEqual(original);
    expect(copy.nested).not.toBe(original.nested);
    expect(copy.nested.list[1]).not.toBe(original.nested.list[1]);
    expect(copy.when).not.toBe(original.when);
    expect(copy.when.getTime()).toBe(42);
    expect(copy.re).not.toBe(original.re);
    expect(copy.re.flags).toBe('gi');
    expect(copy.bin).toBeInstanceOf(Binary);
    expect(copy.bin.buffer).not.toBe(original.bin.buffer);
    expect([...copy.bin.buffer]).toEqual([1, 2, 3]);
    expect(copy.uuid).toBeInstanceOf(UUID);
    expect(copy.uuid.toHexString()).toBe('01234567-89ab-cdef-0123-456789abcdef');
    expect(copy.long).toBeInstanceOf(Long);
    expect(copy.long.toString()).toBe('9007199254740993');
    expect(copy.dec).toBeInstanceOf(Decimal128);
    expect(copy.dec.toString()).toBe('1.10');
    expect(copy.ts).toBeInstanceOf(Timestamp);
    expect(copy.min).toBeInstanceOf(MinKey);
    expect(copy.bre).toBeInstanceOf(BSONRegExp);
  });

  it('never shares mutable state: changing the copy leaves the original alone', () => {
    const original = { a: { b: [1, 2] } };
    const copy = cloneDocument(original);
    copy.a.b.push(3);
    expect(original.a.b).toEqual([1, 2]);
  });

  it('keeps a field named __proto__ as data', () => {
    const original = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const copy = cloneDocument(original);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});

describe('unsharedValue and deepFrozen', () => {
  it('copies the unfrozen parts and shares the frozen ones', () => {
    const stored = Object.freeze({ _id: 1, tags: Object.freeze(['a']) });
    const built = { list: [stored, { n: 1 }], when: new Date(0), id: new ObjectId() };
    const copy = unsharedValue(built);
    expect(copy).toEqual(built);
    expect(copy).not.toBe(built);
    expect(copy.list).not.toBe(built.list);
    expect(copy.list[0]).toBe(stored);
    expect(copy.list[1]).not.toBe(built.list[1]);
    expect(copy.when).not.toBe(built.when);
    expect(copy.id).toBe(built.id);
    const proto = unsharedValue(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('freezes documents and arrays all the way down, leaving dates and BSON values as stored documents do', () => {
    const value = { a: [{ b: 1 }], when: new Date(0), id: new ObjectId() };
    expect(deepFrozen(value)).toBe(value);
    expect([Object.isFrozen(value), Object.isFrozen(value.a), Object.isFrozen(value.a[0])]).toEqual([true, true, true]);
    expect([Object.isFrozen(value.when), Object.isFrozen(value.id)]).toEqual([false, false]);
  });
});
