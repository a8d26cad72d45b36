import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A create rule whose `where` field is stored inside a snapshot copy (`authorOrg` at `author.orgId`):
 * the claim presets it, then the copy is filled from the author the input names. A member may create a
 * post only when that author's organisation is its own; another is FORBIDDEN and nothing is written.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    posts(first: Int = 20): [Post!]! @list(sort: "title")
  }
  type Mutation {
    createPost(input: PostInput!): Post! @create
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    orgId: ID!
  }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ, CREATE], where: [{ field: "authorOrg", claim: "org" }]) {
    id: ID!
    title: String!
    authorOrg: ID @path(path: "author.orgId")
    author: User @snapshot(path: "author", fields: ["id", "name", "orgId"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
  }
  input PostInput {
    title: String!
    author: ID
  }
`;

const [orgA, orgB] = ['00000000000000000000aaaa', '00000000000000000000bbbb'].map((hex) => new ObjectId(hex)) as [ObjectId, ObjectId];
const [ann, bob] = ['0000000000000000000000a1', '0000000000000000000000b1'].map((hex) => new ObjectId(hex)) as [ObjectId, ObjectId];
const member = (user: ObjectId, org: ObjectId): Viewer => ({ role: 'member', roles: ['member'], anonymous: false, subject: user.toHexString(), claims: { sub: user.toHexString(), org: org.toHexString() } });

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_preset_copy',
    prepare: async (db) => {
      await db.collection('users').insertMany([
        { _id: ann, name: 'Ann', orgId: orgA },
        { _id: bob, name: 'Bob', orgId: orgB },
      ]);
      await db.collection('posts').createIndex({ title: 1, _id: 1 });
      await db.collection('posts').createIndex({ 'author.id': 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

const create = (title: string, author: ObjectId, viewer: Viewer) =>
  subject.gateway.execute({ query: `mutation { createPost(input: { title: "${title}", author: "${author.toHexString()}" }) { title authorOrg author { name } } }` }, { viewer });

it('refuses a create whose copied author is of another organisation than the claim, writing nothing', async () => {
  const planted = await create('Planted', bob, member(ann, orgA));
  expect(planted.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    ['FORBIDDEN', 'role "member" may not create Post with another authorOrg than its own: the document it refers to sets it'],
  ]);
  expect(await subject.db.collection('posts').countDocuments({ title: 'Planted' })).toBe(0);
  const bobSees = await subject.gateway.execute({ query: '{ posts { title } }' }, { viewer: member(bob, orgB) });
  expect(bobSees.data).toEqual({ posts: [] });
});

it('creates a post whose author is of the claim\'s organisation, seen by that organisation only', async () => {
  const own = await create('Own', ann, member(ann, orgA));
  expect(own.errors).toBeUndefined();
  expect(own.data).toEqual({ createPost: { title: 'Own', authorOrg: orgA.toHexString(), author: { name: 'Ann' } } });
  expect((await subject.gateway.execute({ query: '{ posts { title } }' }, { viewer: member(bob, orgB) })).data).toEqual({ posts: [] });
  expect((await subject.gateway.execute({ query: '{ posts { title } }' }, { viewer: member(ann, orgA) })).data).toEqual({ posts: [{ title: 'Own' }] });
});
