import { Decimal128, Long, ObjectId } from 'bson';
import { sortDocuments } from '../../../../src/embedded-mongo/query';

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
