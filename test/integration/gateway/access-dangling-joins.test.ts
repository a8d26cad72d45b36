import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * What a naive resolver would have sent (`naiveRoundTrips`) leaves out a parent whose keys all name rows
 * the viewer may not read: counting it would tell that the parent points at hidden rows. For a single
 * reference and for a list of them.
 */
const typeDefs = /* GraphQL */ `
  type Query { users: [User!]! @list(sort: "name") }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    notes: [Note!]! @join(localField: "noteIds")
    favourite: Note @join(localField: "favouriteId")
  }
  type Note @collection(name: "notes") @access(roles: ["member"], allow: [READ], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    owner: String!
    text: String!
  }
`;

const [mine, theirs] = [new ObjectId(), new ObjectId()];
const ann: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann' } };

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_dangling_joins',
    prepare: async (db) => {
      await db.collection('notes').insertMany([
        { _id: mine, owner: 'ann', text: 'mine' },
        { _id: theirs, owner: 'bob', text: 'theirs' },
      ]);
      await db.collection('notes').createIndex({ owner: 1 });
      await db.collection('users').createIndex({ name: 1, _id: 1 });
      await db.collection('users').insertMany([
        { name: 'a', noteIds: [mine], favouriteId: theirs },
        { name: 'b', noteIds: [theirs], favouriteId: mine },
        { name: 'c', noteIds: [theirs, mine], favouriteId: theirs },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

it('a list of references all to hidden rows is left out, as a single one is', async () => {
  const notes = await subject.gateway.execute({ query: '{ users { name notes { text } } }' }, { viewer: ann });
  expect(notes.data).toEqual({ users: [{ name: 'a', notes: [{ text: 'mine' }] }, { name: 'b', notes: [] }, { name: 'c', notes: [{ text: 'mine' }] }] });
  // The root list, then a and c: b's only note is bob's.
  expect(notes.cost).toMatchObject({ roundTrips: 2, naiveRoundTrips: 1 + 2 });
  const favourites = await subject.gateway.execute({ query: '{ users { name favourite { text } } }' }, { viewer: ann });
  expect(favourites.data).toEqual({ users: [{ name: 'a', favourite: null }, { name: 'b', favourite: { text: 'mine' } }, { name: 'c', favourite: null }] });
  expect(favourites.cost).toMatchObject({ roundTrips: 2, naiveRoundTrips: 1 + 1 });
});
