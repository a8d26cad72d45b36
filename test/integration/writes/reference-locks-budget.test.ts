import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Lock commands stay within each write plan's budget where several lock rules meet: a post is a child
 * a bounded array copies whole (Author.recentPosts, refilled when a post is deleted, and updated by
 * updatePost, so updates of posts and deletes refilling them lock), and a counter beside that array
 * (Author.postCount) that no snapshot copies moves with it, locking nothing. (A counter of the post
 * itself would be refused at startup: its copies in recentPosts would never move.) A unit sending more
 * than its estimate fails with an internal error, as these did once.
 */
const typeDefs = /* GraphQL */ `
  type Query { post(id: ID!): Post @find }
  type Mutation {
    createPost(input: PostInput!): Post! @create
    updatePost(id: ID!, input: PostPatch!): Post! @update
    deletePost(id: ID!): ID! @delete(type: "Post")
    createComment(input: CommentInput!): Comment! @create
    deleteComment(id: ID!): ID! @delete(type: "Comment")
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    recentPosts: [Post!]! @embedded @join(collection: "posts", localField: "_id", foreignField: "authorId", sort: "-_id", limit: 2) @read(strategy: EMBEDDED)
    posts: [Post!]! @join(localField: "_id", foreignField: "authorId", sort: "-_id")
    postCount: Int! @counter(of: "Author.posts")
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    author: Author! @join(localField: "authorId")
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "_id")
  }
  type Comment @collection(name: "comments") { id: ID! text: String! post: Post! @join(localField: "postId") }
  input PostInput { author: ID! title: String! }
  input PostPatch { title: String }
  input CommentInput { post: ID! text: String! }
`;

let s: SdlGateway;
const author = new ObjectId();
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'reference_locks_budget',
    prepare: async (db) => {
      for (const name of ['authors', 'posts', 'comments']) await db.createCollection(name);
      await db.collection('posts').createIndex({ authorId: 1, _id: -1 });
      await db.collection('comments').createIndex({ postId: 1, _id: 1 });
      await db.collection('authors').insertOne({ _id: author, name: 'A', recentPosts: [], postCount: 0 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

/** Runs `query`: no error, and no more round trips than its estimate. */
async function run(query: string): Promise<Record<string, { id?: string } | string>> {
  const result = await s.gateway.execute({ query });
  expect([query, result.errors]).toEqual([query, undefined]);
  expect(result.cost!.roundTrips).toBeLessThanOrEqual(result.cost!.estimatedRoundTrips);
  return result.data as Record<string, { id?: string } | string>;
}

it('creates, comments, uncomments, renames and deletes posts within every unit budget', async () => {
  const first = (await run(`mutation { createPost(input: { author: "${author.toHexString()}", title: "one" }) { id } }`)).createPost as { id: string };
  const second = (await run(`mutation { createPost(input: { author: "${author.toHexString()}", title: "two" }) { id } }`)).createPost as { id: string };
  const comment = (await run(`mutation { createComment(input: { post: "${first.id}", text: "hi" }) { id } }`)).createComment as { id: string };
  await run(`mutation { deleteComment(id: "${comment.id}") }`);
  await run(`mutation { updatePost(id: "${first.id}", input: { title: "one, renamed" }) { id } }`);
  await run(`mutation { deletePost(id: "${second.id}") }`);
  const stored = await s.db.collection('authors').findOne({ _id: author });
  expect({ titles: stored!.recentPosts.map((post: { title: string }) => post.title), postCount: stored!.postCount }).toEqual({ titles: ['one, renamed'], postCount: 1 });
});
