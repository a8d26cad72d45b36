import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A snapshot copy holding its key and none of the fields it copies (what migrate's backfill writes for a
 * key naming no document, or a writer that copied nothing) tells nothing of the target: the join answers
 * it, as it answers the reference under the JOIN strategy, whatever the selection (`{ id }` and
 * `{ __typename }` too): one batched join for the level, the complete copy served from the parent.
 */
const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    publisher: Publisher @snapshot(path: "publisher", fields: ["id", "name"]) @join(localField: "publisher.id") @read(strategy: SNAPSHOT)
  }
  type Publisher @collection(name: "publishers") { id: ID! name: String }
`;
const [known, gone] = [new ObjectId('6955b90000000000000000f1'), new ObjectId('6955b90000000000000000ff')];

let fixture: SdlGateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'key_only_copies',
    prepare: async (db) => {
      await db.collection('publishers').insertOne({ _id: known, name: 'Known' });
      await db.collection('books').insertMany([
        { title: 'complete', publisher: { id: known, name: 'Known' } },
        { title: 'key only, known', publisher: { id: known } },
        { title: 'key only, gone', publisher: { id: gone } },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => fixture?.stop());

it.each([
  ['{ id }', { id: known.toHexString() }],
  ['{ __typename }', { __typename: 'Publisher' }],
  ['{ id name }', { id: known.toHexString(), name: 'Known' }],
])('answers %s as the join does: a key-only copy is joined, one naming nothing is null', async (selection, knownPublisher) => {
  const answer = async (strategy: 'SNAPSHOT' | 'JOIN') => {
    const result = await fixture.gateway.execute({ query: `{ books { title publisher ${selection} } }`, extensions: { docjoin: { strategies: { 'Book.publisher': strategy } } } });
    expect(result.errors).toBeUndefined();
    return { data: result.data, roundTrips: result.cost?.roundTrips };
  };
  const expected = { books: [{ title: 'complete', publisher: knownPublisher }, { title: 'key only, known', publisher: knownPublisher }, { title: 'key only, gone', publisher: null }] };
  expect(await answer('SNAPSHOT')).toEqual({ data: expected, roundTrips: 2 });
  const snapshot = await fixture.gateway.execute({ query: `{ books { publisher ${selection} } }` });
  expect(snapshot.cost?.fields['Book.publisher']).toMatchObject({ strategy: 'snapshot', snapshotHits: 1 });
  expect(await answer('JOIN')).toEqual({ data: expected, roundTrips: 2 });
});

