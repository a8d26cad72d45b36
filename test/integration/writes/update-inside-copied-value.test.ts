import { ObjectId } from 'mongodb';
import { startSdlGateway, startupOutcome } from '../../support/sdl-gateway';

/**
 * A snapshot copies `User.address`, a JSON value, and `User.city` is stored inside it (at
 * `address.city`). The fan-out follows a change of a copied field, so an update setting `city` alone
 * would change the source's address and leave every copy of it as it was: such an update is refused at
 * startup, and an update of `address` whole keeps the copies true.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query { post(id: ID!): Post @find }
  type Mutation {
    updateUser(id: ID!, input: UserPatch!): User! @update
  }
  type User @collection(name: "users") {
    id: ID!
    name: String!
    address: JSON
    city: String @path(path: "address.city")
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    author: User! @snapshot(path: "author", fields: ["id", "name", "address"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
  }
  input UserPatch { name: String address: JSON }
`;

it('refuses at startup an update setting a field stored inside a value a snapshot copies', async () => {
  expect(await startupOutcome(TYPE_DEFS.replace('input UserPatch { name: String address: JSON }', 'input UserPatch { name: String city: String }'), 'update_inside_copy_refused', ['users', 'posts'])).toBe(
    'Invalid storage directives:\n  - Mutation.updateUser: write plan updateSource(User): User.city is stored at address.city, inside address that Post.author is derived from, and an update setting address.city would leave Post.author as it was; update the field stored at address whole, and leave User.city out of the update',
  );
});

it('keeps the copies true when the value they copy is updated whole', async () => {
  const user = new ObjectId();
  const post = new ObjectId();
  const s = await startSdlGateway({
    dbPrefix: 'update_whole_copied_value',
    typeDefs: TYPE_DEFS,
    prepare: async (db) => {
      await db.collection('users').insertOne({ _id: user, name: 'Ada', address: { city: 'London', zip: 'N1' } });
      await db.collection('posts').insertOne({ _id: post, title: 'P', author: { id: user, name: 'Ada', address: { city: 'London', zip: 'N1' } } });
    },
  });
  try {
    const updated = await s.gateway.execute({ query: `mutation { updateUser(id: "${user}", input: { address: { city: "Paris", zip: "75001" } }) { city } }` });
    expect(updated).toMatchObject({ data: { updateUser: { city: 'Paris' } } });
    expect(updated.errors).toBeUndefined();
    expect((await s.gateway.execute({ query: `{ post(id: "${post}") { author { city address } } }` })).data).toEqual({
      post: { author: { city: 'Paris', address: { city: 'Paris', zip: '75001' } } },
    });
  } finally {
    await s.stop();
  }
});
