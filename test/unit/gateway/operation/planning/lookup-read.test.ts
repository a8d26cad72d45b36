import { planLookup } from '../../../../../src/gateway/operation/planning/lookup-read';
import { VALUE_TYPES } from '../../../../../src/bson/type-rank';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { schemaOf } from '../../support/demo-schema';

const map = buildStorageMap(
  schemaOf(/* GraphQL */ `
    type Query { a: Author }
    type Author @collection(name: "authors") {
      id: ID!
      books(first: Int = 20, after: ID): [Book!]! @join(localField: "_id", foreignField: "authorId", sort: "-year")
      everyBook: [Book!]! @join(localField: "_id", foreignField: "authorId")
      favourite: Book @join(localField: "favouriteId")
      favouriteAgain: Book @join(localField: "favouriteId")
    }
    type Editor @collection(name: "authors") { id: ID! favourite: Book @join(localField: "pickId") }
    type Book @collection(name: "books") { id: ID! year: Int! }
  `),
);
const field = (coordinate: string) => map.relations.get(coordinate)!;
const plan = (coordinate: string, args: Record<string, unknown> = {}) => planLookup(field(coordinate), field(coordinate).shapes.join!, args);

describe('planLookup', () => {
  it('a reverse join carries its page: no parent key matches no child, its order, its per-parent limit', () => {
    expect(plan('Author.books', { first: 3 })).toEqual({
      as: expect.stringMatching(/^_dj_books_[0-9a-f]{10}$/),
      read: { from: 'books', direction: 'byReference', localField: '_id', foreignField: 'authorId', page: [{ $match: { authorId: { $type: [...VALUE_TYPES] } } }, { $sort: { year: -1, _id: -1 } }, { $limit: 3 }] },
    });
    // Another page, another name; the same page, the same one.
    expect(plan('Author.books', { first: 3 })!.as).toBe(plan('Author.books', { first: 3 })!.as);
    expect(plan('Author.books', { first: 4 })!.as).not.toBe(plan('Author.books', { first: 3 })!.as);
  });

  it('names a lookup in at most 20 characters (js-bson reads longer keys through Buffer), apart for fields that share a prefix and a read', () => {
    expect(plan('Author.favouriteAgain')!.read).toEqual(plan('Author.favourite')!.read);
    expect(plan('Author.favouriteAgain')!.as).not.toBe(plan('Author.favourite')!.as);
    for (const planned of [plan('Author.books', { first: 3 }), plan('Author.favourite'), plan('Author.favouriteAgain')]) expect(planned!.as).toMatch(/^_dj_\w{1,5}_[0-9a-f]{10}$/);
  });

  it('a join by key matches the keys; two types of one collection with a field of one name get two names', () => {
    expect(plan('Author.favourite')!.read).toEqual({ from: 'books', direction: 'byKey', localField: 'favouriteId', foreignField: '_id', page: [], firstKeyOnly: true });
    expect(plan('Editor.favourite')!.as).not.toBe(plan('Author.favourite')!.as);
  });

  it('is none (the resolver joins) after an item, for first: 0, and for a reverse join with no bound', () => {
    expect(plan('Author.books', { first: 2, after: '65b000000000000000000001' })).toBeUndefined();
    expect(plan('Author.books', { first: 0 })).toBeUndefined();
    expect(plan('Author.everyBook')).toBeUndefined();
  });
});
