import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { copiedFieldsRead, copiesServe, requestedList, uncopiedFields } from '../../../../../src/gateway/operation/planning/requested-list';
import { schemaOf } from '../../support/demo-schema';

const storageMap = buildStorageMap(
  schemaOf(/* GraphQL */ `
    type Query { shelves: [Shelf!]! }
    enum Genre { FICTION SCIENCE }
    enum BookOrder { NEWEST @sort(by: "-published.year") TITLE @sort(by: "title") }
    type Shelf @collection(name: "shelves") {
      id: ID!
      picks(genre: Genre, minYear: Int @filter(field: "year", op: GTE), orderBy: BookOrder): [Book!]!
        @snapshot(path: "picks", fields: ["id", "title", "genre"]) @join(localField: "picks.id") @read(strategy: SNAPSHOT)
    }
    type Book @collection(name: "books") { id: ID! title: String! year: Int! @path(path: "published.year") genre: Genre! }
  `),
);
const picks = storageMap.relations.get('Shelf.picks')!;
const shape = picks.shapes.snapshot!;

describe('uncopiedFields', () => {
  it('names the fields a filter or an order reads that the copies lack (what workload capture records of such a miss)', () => {
    const missing = (args: Record<string, unknown>) => uncopiedFields(requestedList(picks, args), shape, storageMap);
    expect(missing({})).toEqual([]);
    expect(missing({ genre: 'FICTION', orderBy: 'TITLE' })).toEqual([]);
    // year is stored at published.year: named by its field, once for the filter and the order.
    expect(missing({ orderBy: 'NEWEST', minYear: 2000 })).toEqual(['year']);
    expect(missing({ minYear: 2000 })).toEqual(['year']);
    expect(copiesServe(requestedList(picks, { orderBy: 'NEWEST' }), shape, storageMap)).toBe(false);
    expect(copiesServe(requestedList(picks, { orderBy: 'TITLE' }), shape, storageMap)).toBe(true);
  });
});

describe('copiedFieldsRead', () => {
  it('names the copied fields a filter or an order reads from each copy (a copy lacking one is joined)', () => {
    const read = (args: Record<string, unknown>) => copiedFieldsRead(requestedList(picks, args), shape, storageMap);
    expect(read({})).toEqual([]);
    expect(read({ orderBy: 'TITLE' })).toEqual(['title']);
    expect(read({ genre: 'FICTION', orderBy: 'TITLE' })).toEqual(['title', 'genre']);
    // year is not copied: uncopiedFields names it, and the join serves the request.
    expect(read({ minYear: 2000 })).toEqual([]);
  });
});
