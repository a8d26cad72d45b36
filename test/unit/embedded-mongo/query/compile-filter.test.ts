import { BSONSymbol, Decimal128, Long, ObjectId } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { compileFilter } from '../../../../src/embedded-mongo/query';

const matches = (filter: Record<string, unknown>, doc: Record<string, unknown>): boolean => compileFilter(filter)(doc);

describe('compileFilter', () => {
  // MongoDB docs: "$eq" — equality across numeric types; arrays match when any element or the whole array equals
  it('matches equality by BSON value across numeric types', () => {
    expect(matches({ n: 1 }, { n: Long.fromNumber(1) })).toBe(true);
    expect(matches({ n: Long.fromNumber(2) }, { n: 2.0 })).toBe(true);
    expect(matches({ n: new Decimal128('1.50') }, { n: 1.5 })).toBe(true);
    expect(matches({ n: new Decimal128('0.1') }, { n: 0.1 })).toBe(false);
    expect(matches({ n: Long.fromString('9007199254740993') }, { n: Long.fromString('9007199254740992') })).toBe(false);
    expect(matches({ n: 1 }, { n: '1' })).toBe(false);
  });

  it('matches ObjectIds by value and dates by time, never a date against a number', () => {
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    expect(matches({ _id: new ObjectId(id.toHexString()) }, { _id: id })).toBe(true);
    expect(matches({ _id: id.toHexString() }, { _id: id })).toBe(false);
    expect(matches({ at: new Date(5) }, { at: new Date(5) })).toBe(true);
    expect(matches({ at: { $gt: 4 } }, { at: new Date(5) })).toBe(false);
  });

  // MongoDB docs: "Query an Array" — `{ a: [1, 2] }` matches the exact array; `{ a: 1 }` matches an element
  it('applies array semantics to equality', () => {
    expect(matches({ a: 1 }, { a: [3, 1] })).toBe(true);
    expect(matches({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(matches({ a: [1, 2] }, { a: [[1, 2], 3] })).toBe(true);
    expect(matches({ a: 1 }, { a: [[1]] })).toBe(false);
  });

  // MongoDB docs: "Query an Array of Embedded Documents"
  it('traverses arrays of subdocuments on dotted paths and supports numeric indexes', () => {
    const doc = { items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 5 }], tags: ['x', 'y'] };
    expect(matches({ 'items.sku': 'b' }, doc)).toBe(true);
    expect(matches({ 'items.qty': { $gt: 4 } }, doc)).toBe(true);
    expect(matches({ 'items.qty': { $gt: 5 } }, doc)).toBe(false);
    expect(matches({ 'items.1.sku': 'b' }, doc)).toBe(true);
    expect(matches({ 'items.0.sku': 'b' }, doc)).toBe(false);
    expect(matches({ 'tags.1': 'y' }, doc)).toBe(true);
  });

  // MongoDB docs: "Comparison Query Operators" — comparisons only match within the same type bracket
  it('compares only values of the same type bracket', () => {
    expect(matches({ a: { $gt: 5 } }, { a: 'zzz' })).toBe(false);
    expect(matches({ a: { $lt: 'b' } }, { a: 'a' })).toBe(true);
    expect(matches({ a: { $gte: Long.fromNumber(3) } }, { a: 3 })).toBe(true);
    expect(matches({ a: { $lt: new Decimal128('2.5') } }, { a: Long.fromNumber(2) })).toBe(true);
    expect(matches({ a: { $gt: 9007199254740992 } }, { a: Long.fromString('9007199254740993') })).toBe(true);
    expect(matches({ a: { $gt: 1, $lt: 3 } }, { a: [0, 5] })).toBe(true); // different elements may satisfy each bound
    expect(matches({ a: { $gte: null } }, {})).toBe(true);
  });

  // MongoDB docs: "Query for Null or Missing Fields"
  it('matches null against null and missing, and $ne null only when present', () => {
    expect(matches({ a: null }, {})).toBe(true);
    expect(matches({ a: null }, { a: null })).toBe(true);
    expect(matches({ a: null }, { a: 0 })).toBe(false);
    expect(matches({ a: { $ne: null } }, { a: 0 })).toBe(true);
    expect(matches({ a: { $ne: null } }, {})).toBe(false);
    expect(matches({ 'a.b': null }, { a: [{ b: 1 }, { c: 1 }] })).toBe(true);
  });

  it('supports $in and $nin with numbers, nulls, regexes and arrays', () => {
    expect(matches({ a: { $in: [Long.fromNumber(5), 'x'] } }, { a: [3, 5] })).toBe(true);
    expect(matches({ a: { $in: [null] } }, {})).toBe(true);
    expect(matches({ a: { $in: [/^ab/] } }, { a: 'abc' })).toBe(true);
    expect(matches({ a: { $in: [[1, 2]] } }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: { $nin: [1, 2] } }, { a: [3, 2] })).toBe(false);
    expect(matches({ a: { $nin: [1, 2] } }, {})).toBe(true);
  });

  it('matches $in against a large list of ObjectIds (a hash set: an O(n·m) scan would be 4e8 comparisons)', () => {
    const ids = Array.from({ length: 20000 }, (_, i) => new ObjectId(i.toString(16).padStart(24, '0')));
    const predicate = compileFilter({ _id: { $in: ids } });
    const docs = Array.from({ length: 20000 }, (_, i) => ({ _id: new ObjectId((i * 2).toString(16).padStart(24, '0')) }));
    expect(docs.filter(predicate).length).toBe(10000);
  });

  it('supports $exists, $type and $size', () => {
    expect(matches({ a: { $exists: true } }, { a: null })).toBe(true);
    expect(matches({ a: { $exists: false } }, { b: 1 })).toBe(true);
    expect(matches({ 'a.b': { $exists: true } }, { a: [{ c: 1 }, { b: 2 }] })).toBe(true);
    expect(matches({ a: { $type: 'long' } }, { a: Long.fromNumber(1) })).toBe(true);
    expect(matches({ a: { $type: 'number' } }, { a: new Decimal128('1') })).toBe(true);
    expect(matches({ a: { $type: 'int' } }, { a: 5 })).toBe(true);
    expect(matches({ a: { $type: 'double' } }, { a: 5.5 })).toBe(true);
    expect(matches({ a: { $type: 'array' } }, { a: [] })).toBe(true);
    expect(matches({ a: { $type: 'string' } }, { a: ['x', 1] })).toBe(true);
    expect(matches({ a: { $type: 'objectId' } }, { a: new ObjectId() })).toBe(true);
    expect(matches({ a: { $type: 10 } }, {})).toBe(false);
    expect(matches({ a: { $size: 2 } }, { a: [1, [2, 3]] })).toBe(true);
    expect(matches({ a: { $size: 1 } }, { a: 'x' })).toBe(false);
  });

  it('supports $regex with $options, implicit regex equality and $not', () => {
    expect(matches({ a: { $regex: '^AB', $options: 'i' } }, { a: 'abc' })).toBe(true);
    expect(matches({ a: /^b/ }, { a: ['abc', 'bcd'] })).toBe(true);
    expect(matches({ a: { $not: /^a/ } }, { a: 'abc' })).toBe(false);
    expect(matches({ a: { $not: { $gt: 5 } } }, { a: 3 })).toBe(true);
    expect(matches({ a: { $not: { $gt: 5 } } }, {})).toBe(true);
  });

  // MongoDB docs: "$elemMatch (query)"
  it('supports $elemMatch on scalars and documents', () => {
    expect(matches({ a: { $elemMatch: { $gte: 80, $lt: 85 } } }, { a: [79, 86, 82] })).toBe(true);
    expect(matches({ a: { $elemMatch: { $gte: 80, $lt: 85 } } }, { a: [79, 86] })).toBe(false);
    const doc = { results: [{ product: 'abc', score: 10 }, { product: 'xyz', score: 5 }] };
    expect(matches({ results: { $elemMatch: { product: 'xyz', score: { $gte: 8 } } } }, doc)).toBe(false);
    expect(matches({ results: { $elemMatch: { product: 'abc', score: { $gte: 8 } } } }, doc)).toBe(true);
  });

  it('supports $all, $mod, $and, $or, $nor and $expr', () => {
    expect(matches({ a: { $all: [1, 3] } }, { a: [3, 2, 1] })).toBe(true);
    expect(matches({ a: { $all: [1, 4] } }, { a: [3, 2, 1] })).toBe(false);
    expect(matches({ a: { $all: [{ $elemMatch: { x: 1 } }] } }, { a: [{ x: 1 }] })).toBe(true);
    expect(matches({ a: { $all: [] } }, { a: [] })).toBe(false);
    expect(matches({ a: { $mod: [4, 1] } }, { a: -7 })).toBe(false);
    expect(matches({ a: { $mod: [4, -3] } }, { a: -7 })).toBe(true);
    expect(matches({ a: { $mod: [4, 1] } }, { a: Long.fromString('9007199254740993') })).toBe(true);
    expect(matches({ $and: [{ a: 1 }, { b: 2 }] }, { a: 1, b: 2 })).toBe(true);
    expect(matches({ $or: [{ a: 2 }, { b: 2 }] }, { a: 1, b: 2 })).toBe(true);
    expect(matches({ $nor: [{ a: 1 }] }, { a: 1 })).toBe(false);
    expect(matches({ $expr: { $gt: ['$spent', '$budget'] } }, { spent: 5, budget: 3 })).toBe(true);
    expect(matches({ $expr: { $eq: ['$a', 1] } }, { a: Long.fromNumber(1) })).toBe(true);
  });

  it('rejects unknown operators and malformed arguments with BadValue', () => {
    expect(() => compileFilter({ a: { $foo: 1 } })).toThrow(CommandError);
    expect(() => compileFilter({ $foo: 1 })).toThrow(/unknown top level operator/);
    expect(() => compileFilter({ $or: [] })).toThrow(/nonempty array/);
    expect(() => compileFilter({ a: { $in: 5 } })).toThrow(/needs an array/);
    try {
      compileFilter({ a: { $foo: 1 } });
    } catch (error) {
      expect((error as CommandError).code).toBe(2);
    }
  });
});

describe('compileFilter $in lookups', () => {
  it('matches strings, BSON symbols and ObjectIds of an $in list by value, including array elements', () => {
    const a = new ObjectId('65a1b2c3d4e5f60718293a4b');
    const b = new ObjectId('65a1b2c3d4e5f60718293a4c');
    const filter = { v: { $in: ['x', new BSONSymbol('y'), new ObjectId(a.toHexString()), 3] } };
    expect(matches(filter, { v: 'x' })).toBe(true);
    expect(matches(filter, { v: 'y' })).toBe(true);
    expect(matches(filter, { v: new BSONSymbol('x') })).toBe(true);
    expect(matches(filter, { v: a })).toBe(true);
    expect(matches(filter, { v: [b, a] })).toBe(true);
    expect(matches(filter, { v: b })).toBe(false);
    expect(matches(filter, { v: 'z' })).toBe(false);
    expect(matches(filter, { v: a.toHexString() })).toBe(false);
    expect(matches(filter, { v: Long.fromNumber(3) })).toBe(true);
    expect(matches({ v: { $nin: [a] } }, { v: b })).toBe(true);
    expect(matches({ v: { $nin: [a] } }, { v: a })).toBe(false);
  });
});
