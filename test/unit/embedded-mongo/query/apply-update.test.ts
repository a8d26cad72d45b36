import { Decimal128, Double, Long, ObjectId, Timestamp } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { applyUpdate } from '../../../../src/embedded-mongo/query';

function codeOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof CommandError ? error.code : -1;
  }
  return undefined;
}

describe('applyUpdate', () => {
  it('returns a new document and never mutates the input', () => {
    const doc = { _id: 1, a: { b: [1] } };
    const out = applyUpdate(doc, { $push: { 'a.b': 2 }, $set: { c: 1 } });
    expect(out).toEqual({ _id: 1, a: { b: [1, 2] }, c: 1 });
    expect(doc).toEqual({ _id: 1, a: { b: [1] } });
  });

  // MongoDB docs: "$set", "$unset" — dotted paths create embedded documents
  it('applies $set and $unset on dotted paths, creating documents as needed', () => {
    expect(applyUpdate({ _id: 1 }, { $set: { 'a.b.c': 1 } })).toEqual({ _id: 1, a: { b: { c: 1 } } });
    expect(applyUpdate({ _id: 1, a: [1, 2] }, { $set: { 'a.3': 9 } })).toEqual({ _id: 1, a: [1, 2, null, 9] });
    expect(applyUpdate({ _id: 1, a: { b: 1, c: 2 } }, { $unset: { 'a.b': '' } })).toEqual({ _id: 1, a: { c: 2 } });
    expect(applyUpdate({ _id: 1, a: [1, 2] }, { $unset: { 'a.0': '' } })).toEqual({ _id: 1, a: [null, 2] });
    expect(applyUpdate({ _id: 1 }, { $unset: { 'x.y': '' } })).toEqual({ _id: 1 });
  });

  // MongoDB docs: "$inc" — Long stays Long, Decimal128 stays Decimal128
  it('increments exactly, keeping Long and Decimal128 types', () => {
    const big = applyUpdate({ _id: 1, n: Long.fromString('9007199254740993') }, { $inc: { n: 1 } });
    expect(big.n).toBeInstanceOf(Long);
    expect(String(big.n)).toBe('9007199254740994');
    const dec = applyUpdate({ _id: 1, n: new Decimal128('0.1') }, { $inc: { n: new Decimal128('0.2') } });
    expect(dec.n).toBeInstanceOf(Decimal128);
    expect(String(dec.n)).toBe('0.3');
    const mixed = applyUpdate({ _id: 1, n: 5 }, { $inc: { n: Long.fromNumber(2) } });
    expect(mixed.n).toBeInstanceOf(Long);
    expect(String(mixed.n)).toBe('7');
    expect(applyUpdate({ _id: 1, n: 5 }, { $inc: { n: 2, m: -1 } })).toEqual({ _id: 1, n: 7, m: -1 });
    const decFromInt = applyUpdate({ _id: 1, n: 1 }, { $inc: { n: new Decimal128('0.5') } });
    expect(String(decFromInt.n)).toBe('1.5');
  });

  it('rejects $inc on non-numbers (14 TypeMismatch) and Long overflow (2 BadValue)', () => {
    expect(codeOf(() => applyUpdate({ _id: 1, n: 'x' }, { $inc: { n: 1 } }))).toBe(14);
    expect(codeOf(() => applyUpdate({ _id: 1, n: 1 }, { $inc: { n: 'x' } }))).toBe(14);
    expect(codeOf(() => applyUpdate({ _id: 1, n: Long.MAX_VALUE }, { $inc: { n: Long.fromNumber(1) } }))).toBe(2);
  });

  // MongoDB docs: "$mul" — a missing field becomes zero of the multiplier's type
  it('applies $mul, $min and $max with BSON comparison', () => {
    // 2.5 × 4 is the double 10: kept as a Double wrapper so it is not written back as an Int32
    expect(applyUpdate({ _id: 1, p: 2.5 }, { $mul: { p: 4 } })).toEqual({ _id: 1, p: new Double(10) });
    expect(applyUpdate({ _id: 1, p: 2.5 }, { $mul: { p: 3 } })).toEqual({ _id: 1, p: 7.5 });
    expect(applyUpdate({ _id: 1, p: new Double(2) }, { $inc: { p: 1 } })).toEqual({ _id: 1, p: new Double(3) });
    expect(applyUpdate({ _id: 1 }, { $mul: { p: 4 } })).toEqual({ _id: 1, p: 0 });
    expect(String(applyUpdate({ _id: 1, p: new Decimal128('1.1') }, { $mul: { p: new Decimal128('3') } }).p)).toBe('3.3');
    expect(applyUpdate({ _id: 1, lo: 5, hi: 5 }, { $min: { lo: 3 }, $max: { hi: 3 } })).toEqual({ _id: 1, lo: 3, hi: 5 });
    expect(applyUpdate({ _id: 1, lo: Long.fromNumber(5) }, { $min: { lo: 6 } }).lo).toEqual(Long.fromNumber(5));
    expect(applyUpdate({ _id: 1, d: new Date(5) }, { $max: { d: new Date(9) } })).toEqual({ _id: 1, d: new Date(9) });
  });

  it('applies $rename, $currentDate and $setOnInsert (only on insert)', () => {
    expect(applyUpdate({ _id: 1, a: { b: 1 } }, { $rename: { 'a.b': 'c' } })).toEqual({ _id: 1, a: {}, c: 1 });
    expect(applyUpdate({ _id: 1 }, { $rename: { x: 'y' } })).toEqual({ _id: 1 });
    const dated = applyUpdate({ _id: 1 }, { $currentDate: { d: true, t: { $type: 'timestamp' } } });
    expect(dated.d).toBeInstanceOf(Date);
    expect(dated.t).toBeInstanceOf(Timestamp);
    expect(applyUpdate({ _id: 1 }, { $set: { a: 1 }, $setOnInsert: { b: 2 } })).toEqual({ _id: 1, a: 1 });
    expect(applyUpdate({ _id: 1 }, { $set: { a: 1 }, $setOnInsert: { b: 2 } }, { isInsert: true })).toEqual({ _id: 1, a: 1, b: 2 });
  });

  // MongoDB docs: "$push" — $each, $position, $sort, $slice (applied in that order)
  it('applies $push with $each, $position, $sort and $slice', () => {
    expect(applyUpdate({ _id: 1, a: [1] }, { $push: { a: 2 } })).toEqual({ _id: 1, a: [1, 2] });
    expect(applyUpdate({ _id: 1, a: [1, 2] }, { $push: { a: { $each: [8, 9], $position: 1 } } })).toEqual({ _id: 1, a: [1, 8, 9, 2] });
    expect(applyUpdate({ _id: 1, a: [1, 2] }, { $push: { a: { $each: [9], $position: -1 } } })).toEqual({ _id: 1, a: [1, 9, 2] });
    expect(applyUpdate({ _id: 1, a: [5, 1] }, { $push: { a: { $each: [3], $sort: -1, $slice: 2 } } })).toEqual({ _id: 1, a: [5, 3] });
    expect(applyUpdate({ _id: 1, a: [5, 1] }, { $push: { a: { $each: [3], $slice: -2 } } })).toEqual({ _id: 1, a: [1, 3] });
    const quizzes = { _id: 1, quizzes: [{ wk: 1, score: 10 }, { wk: 2, score: 8 }] };
    const sorted = applyUpdate(quizzes, { $push: { quizzes: { $each: [{ wk: 5, score: 8 }, { wk: 6, score: 7 }], $sort: { score: -1 }, $slice: 3 } } });
    expect(sorted.quizzes).toEqual([{ wk: 1, score: 10 }, { wk: 2, score: 8 }, { wk: 5, score: 8 }]);
    expect(applyUpdate({ _id: 1, a: [Long.fromNumber(3), 1] }, { $push: { a: { $each: [], $sort: 1 } } }).a).toEqual([1, Long.fromNumber(3)]);
    expect(codeOf(() => applyUpdate({ _id: 1, a: 5 }, { $push: { a: 1 } }))).toBe(2);
  });

  it('applies $addToSet with BSON equality, $pop, $pull with conditions and $pullAll', () => {
    expect(applyUpdate({ _id: 1, a: [1, 'x'] }, { $addToSet: { a: { $each: [Long.fromNumber(1), 2, 2] } } })).toEqual({ _id: 1, a: [1, 'x', 2] });
    expect(applyUpdate({ _id: 1, a: [1, 2, 3] }, { $pop: { a: 1 } })).toEqual({ _id: 1, a: [1, 2] });
    expect(applyUpdate({ _id: 1, a: [1, 2, 3] }, { $pop: { a: -1 } })).toEqual({ _id: 1, a: [2, 3] });
    expect(applyUpdate({ _id: 1, a: [1, 6, 7, 2] }, { $pull: { a: { $gte: 6 } } })).toEqual({ _id: 1, a: [1, 2] });
    expect(applyUpdate({ _id: 1, a: ['x', 'y'] }, { $pull: { a: 'x' } })).toEqual({ _id: 1, a: ['y'] });
    const results = { _id: 1, results: [{ item: 'A', score: 5 }, { item: 'B', score: 8, extra: true }] };
    expect(applyUpdate(results, { $pull: { results: { score: 8, item: 'B' } } })).toEqual({ _id: 1, results: [{ item: 'A', score: 5 }] });
    expect(applyUpdate({ _id: 1, a: [0, 5, 5, 1] }, { $pullAll: { a: [5, Long.fromNumber(1)] } })).toEqual({ _id: 1, a: [0] });
  });

  // MongoDB docs: "$ (update)" — the first element matched by the query
  it('resolves the positional $ from the filter', () => {
    const doc = { _id: 1, grades: [80, 85, 90] };
    expect(applyUpdate(doc, { $set: { 'grades.$': 82 } }, { filter: { _id: 1, grades: 85 } })).toEqual({ _id: 1, grades: [80, 82, 90] });
    const people = { _id: 1, items: [{ id: 'a', qty: 1 }, { id: 'b', qty: 1 }] };
    expect(applyUpdate(people, { $inc: { 'items.$.qty': 2 } }, { filter: { 'items.id': 'b' } }).items).toEqual([{ id: 'a', qty: 1 }, { id: 'b', qty: 3 }]);
    expect(applyUpdate(people, { $set: { 'items.$.qty': 0 } }, { filter: { items: { $elemMatch: { id: 'a' } } } }).items).toEqual([{ id: 'a', qty: 0 }, { id: 'b', qty: 1 }]);
    expect(codeOf(() => applyUpdate(people, { $set: { 'items.$.qty': 0 } }, { filter: { _id: 1 } }))).toBe(2);
  });

  // MongoDB docs: "$[] (update)", "$[<identifier>] (update)"
  it('applies $[] and $[identifier] with arrayFilters, nested and on subdocument fields', () => {
    expect(applyUpdate({ _id: 1, a: [1, 2] }, { $inc: { 'a.$[]': 10 } })).toEqual({ _id: 1, a: [11, 12] });
    expect(applyUpdate({ _id: 1, a: [1, 5, 9] }, { $set: { 'a.$[big]': 0 } }, { arrayFilters: [{ big: { $gte: 5 } }] })).toEqual({ _id: 1, a: [1, 0, 0] });
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    const doc = { _id: 1, a: [{ id, n: 1 }, { id: new ObjectId(), n: 1 }] };
    const out = applyUpdate(doc, { $set: { 'a.$[el].n': 2 } }, { arrayFilters: [{ 'el.id': new ObjectId(id.toHexString()) }] });
    expect((out.a as { n: number }[]).map((e) => e.n)).toEqual([2, 1]);
    const nested = { _id: 1, rows: [{ k: 1, cells: [1, 2, 3] }, { k: 2, cells: [1, 2, 3] }] };
    const nestedOut = applyUpdate(nested, { $set: { 'rows.$[r].cells.$[c]': 0 } }, { arrayFilters: [{ 'r.k': 2 }, { c: { $gt: 1 } }] });
    expect(nestedOut.rows).toEqual([{ k: 1, cells: [1, 2, 3] }, { k: 2, cells: [1, 0, 0] }]);
    expect(codeOf(() => applyUpdate({ _id: 1, a: [1] }, { $set: { 'a.$[x]': 0 } }))).toBe(2);
    expect(codeOf(() => applyUpdate({ _id: 1, a: [1] }, { $set: { a: [] } }, { arrayFilters: [{ x: 1 }] }))).toBe(9);
  });

  // MongoDB docs: "Replace a Document" — the replacement keeps the original _id
  it('replaces documents, keeping _id first', () => {
    expect(applyUpdate({ _id: 7, a: 1 }, { b: 2 })).toEqual({ _id: 7, b: 2 });
    expect(Object.keys(applyUpdate({ _id: 7, a: 1 }, { b: 2, _id: 7 }))).toEqual(['_id', 'b']);
    expect(codeOf(() => applyUpdate({ _id: 7 }, { _id: 8, b: 2 }))).toBe(66);
  });

  // MongoDB docs: "Updates with Aggregation Pipeline"
  it('applies pipeline updates', () => {
    const out = applyUpdate({ _id: 1, a: 2, b: 3, c: 4 }, [{ $set: { sum: { $add: ['$a', '$b'] } } }, { $unset: 'c' }]);
    expect(out).toEqual({ _id: 1, a: 2, b: 3, sum: 5 });
    expect(applyUpdate({ _id: 1, a: { x: 1 } }, [{ $replaceWith: '$a' }])).toEqual({ _id: 1, x: 1 });
    expect(codeOf(() => applyUpdate({ _id: 1 }, [{ $match: {} }]))).toBe(2);
  });

  it('raises MongoDB error codes: 66 ImmutableField, 40 Conflicting, 9 FailedToParse', () => {
    expect(codeOf(() => applyUpdate({ _id: 1 }, { $set: { _id: 2 } }))).toBe(66);
    expect(applyUpdate({ _id: 1 }, { $set: { _id: 1, a: 1 } })).toEqual({ _id: 1, a: 1 });
    expect(codeOf(() => applyUpdate({ _id: 1 }, { $set: { a: 1 }, $inc: { a: 1 } }))).toBe(40);
    expect(codeOf(() => applyUpdate({ _id: 1 }, { $set: { 'a.b': 1 }, $unset: { a: '' } }))).toBe(40);
    expect(codeOf(() => applyUpdate({ _id: 1 }, { $foo: { a: 1 } }))).toBe(9);
    expect(codeOf(() => applyUpdate({ _id: 1, a: 5 }, { $set: { 'a.b': 1 } }))).toBe(28);
  });

  // MongoDB docs: "Behavior" (update operators) — fields are updated in lexicographic order since 5.0
  it('adds new fields in lexicographic order', () => {
    expect(Object.keys(applyUpdate({ _id: 1 }, { $set: { b: 1, a: 1 } }))).toEqual(['_id', 'a', 'b']);
  });

  it('puts an upserted _id first', () => {
    expect(Object.keys(applyUpdate({ name: 'x' }, { $set: { _id: 5 } }, { isInsert: true }))).toEqual(['_id', 'name']);
  });
});
