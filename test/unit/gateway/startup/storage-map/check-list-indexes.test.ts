import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { checkRelationListIndexes } from '../../../../../src/gateway/startup/storage-map/check-list-indexes';
import { schemaOf } from '../../support/demo-schema';
import type { IndexDescription } from '../../../../../src/gateway/documents/index-description';

/** The warnings for a shelf's reverse-joined books, given the books collection's indexes. */
async function warningsFor(booksField: string, bookIndexes: ReadonlyArray<Record<string, number>>): Promise<string[]> {
  const map = buildStorageMap(schemaOf(/* GraphQL */ `
    type Query { shelves: [Shelf!]! @list }
    type Shelf @collection(name: "shelves") { id: ID! ${booksField} }
    type Book @collection(name: "books") { id: ID! title: String! year: Int! }
  `));
  const indexes: IndexDescription[] = [{ key: { _id: 1 }, unique: true }, ...bookIndexes.map((key) => ({ key, unique: false }))];
  return checkRelationListIndexes(map, new Set(['shelves', 'books']), async () => indexes);
}

describe('a reverse join\'s order against the indexes', () => {
  it('warns about a declared order no index serves, though the relation declares no filter or orderBy argument', async () => {
    expect(await warningsFor('books: [Book!]! @join(localField: "_id", foreignField: "shelfId", sort: "-year")', [{ shelfId: 1 }])).toEqual([
      'Shelf.books: no index serves its order { year: -1, _id: -1 } for each parent; create one with db.books.createIndex({ shelfId: 1, year: -1, _id: -1 })',
    ]);
  });

  it('is quiet when an index serves the order, either way round, or when the order is the default _id', async () => {
    const field = 'books: [Book!]! @join(localField: "_id", foreignField: "shelfId", sort: "-year")';
    expect(await warningsFor(field, [{ shelfId: 1, year: -1, _id: -1 }])).toEqual([]);
    expect(await warningsFor(field, [{ shelfId: 1, year: 1, _id: 1 }])).toEqual([]);
    expect(await warningsFor('books: [Book!]! @join(localField: "_id", foreignField: "shelfId")', [{ shelfId: 1 }])).toEqual([]);
  });
});
