import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * User.ssn is stored inside User.profile ("profile.ssn") and hidden from role "member". A document
 * holding it shows it however it is reached: read whole, ordered or grouped by (MongoDB compares a
 * document by its fields), directly or through a snapshot copy of User kept in Post.
 */
const typeDefs = /* GraphQL */ `
  scalar JSON
  type Query {
    users(first: Int = 20): [User!]! @list(sort: "name")
    usersAggregate: UserAggregate! @aggregate(of: "users", groupBy: ["name", "profile"])
    posts(first: Int = 20): [Post!]! @list(sort: "title")
    postsByAuthorProfile(first: Int = 20): [Post!]! @list(sort: "author.profile")
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ], hide: ["ssn"]) {
    id: ID!
    name: String!
    profile: JSON
    ssn: String @path(path: "profile.ssn")
  }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    title: String!
    author: User @snapshot(path: "author", fields: ["id", "name", "profile"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    authorProfile: JSON @path(path: "author.profile")
    authorName: String @path(path: "author.name")
  }
`;

const member: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'u1', claims: { sub: 'u1' } } as Viewer;
const alice = new ObjectId('0000000000000000000000a1');
const ssn = '123-45-6789';

let served: SdlGateway;
beforeAll(async () => {
  served = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_hidden_inside_documents',
    prepare: async (db) => {
      const profile = { bio: 'hi', ssn };
      await db.collection('users').insertOne({ _id: alice, name: 'Alice', profile });
      await db.collection('posts').insertOne({ _id: new ObjectId('0000000000000000000000b1'), title: 'On copies', author: { id: alice, name: 'Alice', profile } });
      await db.collection('users').createIndex({ name: 1, _id: 1 });
      await db.collection('posts').createIndex({ title: 1, _id: 1 });
      await db.collection('posts').createIndex({ 'author.profile': 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined } as never,
  });
}, 120_000);
afterAll(async () => served?.stop());

async function refused(query: string): Promise<string> {
  const result = await served.gateway.execute({ query }, { viewer: member });
  expect(JSON.stringify(result)).not.toContain(ssn);
  expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
  return result.errors![0]!.message;
}

it('a field laid over the part of a snapshot copy holding the hidden field is refused, as the relation is', async () => {
  expect(await refused('{ posts { author { profile } } }')).toContain('ssn');
  expect(await refused('{ posts { authorProfile } }')).toContain('User.ssn (stored at "profile.ssn")');
});

it('an order by that part of the copy is refused', async () => {
  expect(await refused('{ postsByAuthorProfile { title } }')).toContain('sorts by');
});

it('grouping by the document holding the hidden field is refused; grouping by another key still answers', async () => {
  expect(await refused('{ usersAggregate { groupBy(by: [PROFILE]) { key { profile } count } } }')).toContain('groups by');
  const byName = await served.gateway.execute({ query: '{ usersAggregate { groupBy(by: [NAME]) { key { name } count } } }' }, { viewer: member });
  expect(byName).toMatchObject({ data: { usersAggregate: { groupBy: [{ key: { name: 'Alice' }, count: 1 }] } } });
  expect(byName.errors).toBeUndefined();
});

it('the copy\'s other fields still answer', async () => {
  const result = await served.gateway.execute({ query: '{ posts { title authorName author { name } } }' }, { viewer: member });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ posts: [{ title: 'On copies', authorName: 'Alice', author: { name: 'Alice' } }] });
});
