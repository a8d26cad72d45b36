import { Decimal128, Int32, Long, MaxKey, MinKey, ObjectId } from 'bson';
import { firstSorted, lastSorted, sortDocuments } from '../../../../src/embedded-mongo/query';

describe('sortDocuments', () => {
  // MongoDB docs: "Comparison/Sort Order" — mixed types sort by type order; numbers by value
  it('sorts mixed BSON types by MongoDB order and numbers exactly', () => {
    const docs = [{ v: 'a' }, { v: Long.fromString('9007199254740993') }, { v: null }, { v: 9007199254740992 }, {}, { v: new Decimal128('-1.5') }, { v: new ObjectId('000000000000000000000001') }];
    const sorted = sortDocuments(docs, { v: 1 }).map((d) => (d.v === undefined ? 'missing' : String(d.v)));
    expect(sorted).toEqual(['null', 'missing', '-1.5', '9007199254740992', '9007199254740993', 'a', '000000000000000000000001']);
  });

  it('is stable and supports multiple keys and descending order', () => {
    const docs = [
      { id: 1, a: 1, b: 2 },
      { id: 2, a: 2, b: 1 },
      { id: 3, a: 1, b: 2 },
      { id: 4, a: 1, b: 3 },
    ];
    expect(sortDocuments(docs, { a: 1, b: -1 }).map((d) => d.id)).toEqual([4, 1, 3, 2]);
    expect(sortDocuments(docs, { a: -1 }).map((d) => d.id)).toEqual([2, 1, 3, 4]);
  });

  // MongoDB docs: "cursor.sort()" — arrays sort by their smallest element ascending, largest descending;
  // an empty array sorts before null/missing
  it('sorts array fields by min (ascending) or max (descending) element', () => {
    const docs = [
      { id: 'a', v: [1, 9] },
      { id: 'b', v: [5] },
      { id: 'c', v: 3 },
      { id: 'd', v: [] },
      { id: 'e' },
    ];
    expect(sortDocuments(docs, { v: 1 }).map((d) => d.id)).toEqual(['d', 'e', 'a', 'c', 'b']);
    expect(sortDocuments(docs, { v: -1 }).map((d) => d.id)).toEqual(['a', 'b', 'c', 'e', 'd']);
  });

  it('sorts on dotted paths through arrays of documents', () => {
    const docs = [
      { id: 1, items: [{ p: 5 }, { p: 1 }] },
      { id: 2, items: [{ p: 3 }] },
    ];
    expect(sortDocuments(docs, { 'items.p': 1 }).map((d) => d.id)).toEqual([1, 2]);
    expect(sortDocuments(docs, { 'items.p': -1 }).map((d) => d.id)).toEqual([1, 2]);
    expect(sortDocuments([{ id: 1, s: { x: 2 } }, { id: 2, s: { x: 1 } }], { 's.x': 1 }).map((d) => d.id)).toEqual([2, 1]);
  });

  it('does not reorder the input array and rejects bad directions', () => {
    const docs = [{ v: 2 }, { v: 1 }];
    sortDocuments(docs, { v: 1 });
    expect(docs.map((d) => d.v)).toEqual([2, 1]);
    expect(() => sortDocuments(docs, { v: 2 })).toThrow(/must be 1/);
  });
});

describe('firstSorted / lastSorted (top-k selection)', () => {
  const mixed = (): Record<string, unknown>[] => [
    { id: 1, v: 'b' },
    { id: 2, v: Long.fromString('9007199254740993') },
    { id: 3, v: null },
    { id: 4, v: 9007199254740992 },
    { id: 5 },
    { id: 6, v: new Decimal128('-1.5') },
    { id: 7, v: new ObjectId('000000000000000000000002') },
    { id: 8, v: new Date(5) },
    { id: 9, v: true },
    { id: 10, v: 'b' },
    { id: 11, v: [] },
    { id: 12, v: [3, 'a'] },
    { id: 13, v: new MinKey() },
    { id: 14, v: new MaxKey() },
    { id: 15, v: 2.5 },
    { id: 16, v: new Int32(2) },
    { id: 17, v: new ObjectId('000000000000000000000001') },
    { id: 18, v: '\u{1F600}' },
    { id: 19, v: '\uFFFF' },
    { id: 20, v: false },
    { id: 21, v: null },
  ];

  it('gives the same documents as a full stable sort, for every k, both directions, with ties and mixed types', () => {
    const docs = mixed();
    for (const sort of [{ v: 1 }, { v: -1 }]) {
      const full = sortDocuments(docs, sort).map((d) => d.id);
      for (let k = 1; k <= docs.length + 1; k++) {
        expect(firstSorted(docs, sort, k).map((d) => d.id)).toEqual(full.slice(0, k));
        expect(lastSorted(docs, sort, k).map((d) => d.id)).toEqual(full.slice(Math.max(0, full.length - k)));
      }
    }
  });

  it('orders mixed types as MongoDB does (empty array, MinKey, null/missing, numbers, strings by code point, ObjectIds, booleans, Dates, MaxKey)', () => {
    expect(sortDocuments(mixed(), { v: 1 }).map((d) => d.id)).toEqual([11, 13, 3, 5, 21, 6, 16, 15, 12, 4, 2, 1, 10, 19, 18, 17, 7, 20, 9, 8, 14]);
  });

  it('breaks ties on later keys, which are decorated only when a comparison needs them', () => {
    const docs = [
      { id: 1, a: 2, b: 'x' },
      { id: 2, a: 1, b: 'z' },
      { id: 3, a: 2, b: 'a' },
      { id: 4, a: 1, b: 'y' },
      { id: 5, a: 2, b: 'a' },
    ];
    expect(sortDocuments(docs, { a: -1, b: 1 }).map((d) => d.id)).toEqual([3, 5, 1, 4, 2]);
    expect(firstSorted(docs, { a: -1, b: 1 }, 2).map((d) => d.id)).toEqual([3, 5]);
    expect(lastSorted(docs, { a: -1, b: 1 }, 2).map((d) => d.id)).toEqual([4, 2]);
  });

  it('compares Longs beyond 2^53 and Decimal128 exactly against doubles', () => {
    const docs = [
      { id: 'big+1', v: Long.fromString('9007199254740993') },
      { id: 'double', v: 9007199254740992 },
      { id: 'big', v: Long.fromString('9007199254740992') },
      { id: 'dec', v: new Decimal128('9007199254740992.5') },
    ];
    expect(firstSorted(docs, { v: 1 }, 4).map((d) => d.id)).toEqual(['double', 'big', 'dec', 'big+1']);
  });

  it('returns the first documents in input order for an empty sort and rejects bad directions', () => {
    expect(firstSorted([{ id: 1 }, { id: 2 }, { id: 3 }], {}, 2).map((d) => d.id)).toEqual([1, 2]);
    expect(() => firstSorted([{ v: 1 }], { v: 0 }, 1)).toThrow(/must be 1/);
  });
});
