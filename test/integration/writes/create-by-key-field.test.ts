import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A generated create whose input names a reference by the stored key its by-key join reads (`postId`),
 * not by the relation (`post`). The write unit checks that reference as it does one named by the
 * relation (through the viewer's read filter), so its write plan holds it and its estimate counts that
 * read: the create runs within its bound (the estimate self-check is on) instead of failing as one that
 * sends more commands than planned.
 */
const typeDefs = /* GraphQL */ `
  type Query { posts(first: Int = 20): [Post!]! @list(sort: "title") }
  type Mutation { createComment(input: CommentInput!): Comment! @create }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ], where: [{ field: "tenant", claim: "tenant" }]) {
    id: ID!
    title: String!
    tenant: String!
    commentCount: Int! @counter(of: "Post.comments")
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId")
  }
  type Comment @collection(name: "comments") @access(roles: ["member"], allow: [READ, CREATE]) {
    id: ID!
    text: String!
    postId: ID
    post: Post @join(localField: "postId")
  }
  input CommentInput {
    text: String!
    postId: ID
  }
`;
const own = new ObjectId('0000000000000000000000a3');
const others = new ObjectId('0000000000000000000000b3');
const member: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann', tenant: 't1' } };

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'create_by_key_field',
    prepare: async (db) => {
      await db.collection('posts').insertMany([
        { _id: own, title: 'own', tenant: 't1', commentCount: 0 },
        { _id: others, title: 'others', tenant: 't2', commentCount: 0 },
      ]);
      await db.collection('posts').createIndex({ tenant: 1 });
      await db.collection('comments').createIndex({ postId: 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

const create = (postId: ObjectId, text: string) =>
  s.gateway.execute({ query: `mutation { createComment(input: { text: "${text}", postId: "${postId.toHexString()}" }) { text post { title commentCount } } }` }, { viewer: member });

it("creates a comment on a post the viewer reads, counted on the post, within the create's estimate", async () => {
  const created = await create(own, 'on mine');
  expect({ data: created.data, errors: created.errors }).toEqual({ data: { createComment: { text: 'on mine', post: { title: 'own', commentCount: 1 } } }, errors: undefined });
  // The reference is read through the viewer's filter (it reads posts in part, so the counter's update
  // cannot prove it): that read, the insert, the counter's update and the commit; posts are withheld
  // from the fan-out, as the role reads them in part. Then the selection's post, by its join.
  expect(created.cost?.writes).toMatchObject({ roundTrips: 4, fanOut: { comments: 1 }, withheld: ['posts'], atomic: true });
  expect(created.cost).toMatchObject({ roundTrips: 6, estimatedRoundTrips: 6 });
});

it("refuses a post of another tenant, or none, as NOT_FOUND, and writes nothing", async () => {
  for (const [postId, text] of [[others, 'on theirs'], [new ObjectId('0000000000000000000000c3'), 'on nothing']] as const) {
    const refused = await create(postId, text);
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(await s.db.collection('comments').countDocuments({ text })).toBe(0);
  }
  expect((await s.db.collection('posts').findOne({ _id: others }))?.commentCount).toBe(0);
});
