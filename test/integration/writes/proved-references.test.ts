import type { Db } from 'mongodb';
import type { Gateway } from 'docjoin';
import { serverSupportsTransactions } from './support/expected-writes';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A created comment's post is proved by the counter update in the same transaction, not read first
 * (WriteUnit.insert, provedByDerivedUpdate); `thread` is a second relation on the same local field,
 * proved by the same statement. Without transactions the post is read.
 */
const SDL = /* GraphQL */ `
  type Query { post(id: ID!): Post @find }
  type Mutation {
    createPost(input: PostInput!): Post! @create
    createComment(input: CommentInput!): Comment! @create
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    comments: [Comment!]! @join(collection: "comments", localField: "_id", foreignField: "postId")
    commentCount: Int! @counter(of: "Post.comments")
  }
  type Comment @collection(name: "comments") {
    id: ID!
    text: String!
    post: Post @join(localField: "postId")
    thread: Post @join(localField: "postId")
  }
  input PostInput { title: String! }
  input CommentInput { text: String! post: ID }
`;

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
let transactions: boolean;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'proved_references',
    async prepare(fresh) {
      await fresh.createCollection('posts');
      await fresh.createCollection('comments');
      await fresh.collection('comments').createIndex({ postId: 1 });
    },
  });
  ({ db, gateway } = fixture);
  transactions = await serverSupportsTransactions(fixture.mongo.client);
}, 60_000);
afterAll(() => fixture?.stop());

it('a comment on an existing post: insert, the post counter update, commit; no read, the estimate exact', async () => {
  const created = await gateway.execute({ query: 'mutation { createPost(input: { title: "T" }) { id } }' });
  const { id: post } = (created.data as { createPost: { id: string } }).createPost;
  const comment = await gateway.execute({ query: `mutation { createComment(input: { text: "hi", post: "${post}" }) { id } }` });
  expect(comment.errors).toBeUndefined();
  // With transactions: insert comments, update posts (its matched count proves the post), commit.
  // Without: find posts, insert, update.
  expect(comment.cost?.writes).toMatchObject({ roundTrips: 3, documentsModified: 2, fanOut: { comments: 1, posts: 1 } });
  expect(comment.cost?.estimatedRoundTrips).toBe(comment.cost?.roundTrips);
  expect(await db.collection('posts').findOne({ title: 'T' })).toMatchObject({ commentCount: 1 });
});

it('a comment on a missing post: NOT_FOUND naming the relation, nothing written', async () => {
  const missing = '0000000000000000000000aa';
  const before = await db.collection('comments').countDocuments();
  const result = await gateway.execute({ query: `mutation { createComment(input: { text: "lost", post: "${missing}" }) { id } }` });
  expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect(result.errors?.[0]?.message).toMatch(/^Comment\.(post|thread): .*not found/);
  expect(result.cost?.writes).toMatchObject(transactions ? { roundTrips: 3, documentsModified: 0 } : { roundTrips: 1, documentsModified: 0 });
  expect(await db.collection('comments').countDocuments()).toBe(before);
});
