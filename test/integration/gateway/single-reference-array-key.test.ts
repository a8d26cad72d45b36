import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A single reference whose key the parent holds as an array names the first key's document, by join
 * and by lookup alike; the lookup brings that one document only, so its estimate (one per parent)
 * holds however long the array is.
 */
const SDL = /* GraphQL */ `
  type Query { authors: [Author!]! @list }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    favourite: Book @join(localField: "favouriteIds")
  }
  type Book @collection(name: "books") { id: ID! title: String! }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
const BOOKS = [oid(11), oid(12), oid(13), oid(14)];

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'single_reference_array_key',
    prepare: async (db) => {
      await db.collection('books').insertMany(BOOKS.map((_id, n) => ({ _id, title: `b${n}` })));
      await db.collection('authors').insertMany([
        { _id: oid(1), name: 'array', favouriteIds: [oid(12), oid(11), oid(13), oid(14)] },
        { _id: oid(2), name: 'other array', favouriteIds: [oid(14), oid(12)] },
        { _id: oid(3), name: 'scalar', favouriteIds: oid(13) },
        { _id: oid(4), name: 'empty', favouriteIds: [] },
        { _id: oid(5), name: 'null first', favouriteIds: [null, oid(11)] },
        { _id: oid(6), name: 'none' },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

it('reads the first key by lookup as by join, and the lookup brings one document per parent', async () => {
  const query = '{ authors { name favourite { title } } }';
  const join = await subject.gateway.execute({ query }, { strategyHeader: 'Author.favourite=join' });
  const lookup = await subject.gateway.execute({ query }, { strategyHeader: 'Author.favourite=lookup' });
  expect(join.errors).toBeUndefined();
  expect(join.data).toEqual({
    authors: [
      { name: 'array', favourite: { title: 'b1' } },
      { name: 'other array', favourite: { title: 'b3' } },
      { name: 'scalar', favourite: { title: 'b2' } },
      { name: 'empty', favourite: null },
      { name: 'null first', favourite: null },
      { name: 'none', favourite: null },
    ],
  });
  expect(lookup).toMatchObject({ data: join.data });
  expect(lookup.errors).toBeUndefined();
  expect(lookup.cost).toMatchObject({ roundTrips: 1, documents: 9, estimatedRoundTrips: 1 });
  expect(lookup.cost!.fields['Author.favourite']).toMatchObject({ strategy: 'lookup', documents: 3, keys: 3 });
  expect(lookup.cost!.estimateExceeded).toBeUndefined();
  expect(join.cost).toMatchObject({ roundTrips: 2, documents: 9 });
});
