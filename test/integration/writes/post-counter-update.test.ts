import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type Db } from 'mongodb';
import type { ExecutedOperation, Gateway, GatewayContext } from 'docjoin';
import { serverSupportsTransactions } from './support/expected-writes';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A comment's insert updates its post (counter, by `_id`), and that update does more than write:
 * - it proves the post exists: in a transaction the post is not read first (WriteUnit.insert,
 *   provedByDerivedUpdate); `thread` is a second relation on the same local field, proved by the same
 *   statement. Without transactions the post is read.
 * - it returns the post to a join under the mutation field: a findAndModify with the join's paths, so
 *   the join reads nothing (WriteUnit `returning`, joinsById). The estimate still counts the join's read.
 */
const SDL = /* GraphQL */ `
  type Query { post(id: ID!): Post @find }
  type Mutation {
    createPost(input: PostInput!): Post! @create
    createComment(input: CommentInput!): Comment! @create
    commentTwice(post: ID!, text: String!): Comment!
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    body: String
    comments(first: Int = 20): [Comment!]! @join(collection: "comments", localField: "_id", foreignField: "postId")
    commentCount: Int! @counter(of: "Post.comments")
  }
  type Comment @collection(name: "comments") {
    id: ID!
    text: String!
    post: Post @join(localField: "postId")
    thread: Post @join(localField: "postId")
  }
  input PostInput { title: String! body: String }
  input CommentInput { text: String! post: ID }
`;

interface NewComment {
  readonly _id: ObjectId;
  readonly text: string;
  readonly postId: ObjectId;
}

/** Two comments on one post in ONE write unit; returns the second. */
async function commentTwice(_parent: unknown, args: { post: string; text: string }, context: GatewayContext, info: GraphQLResolveInfo): Promise<NewComment> {
  const postId = new ObjectId(args.post);
  const first = { _id: new ObjectId(), text: args.text, postId };
  const second = { _id: new ObjectId(), text: `${args.text} again`, postId };
  await context.writes.run(info, async (unit) => {
    await unit.insert('Comment', first);
    await unit.insert('Comment', second);
  });
  return second;
}

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
let transactions: boolean;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'post_counter_update',
    async prepare(fresh) {
      await fresh.createCollection('posts');
      await fresh.createCollection('comments');
      await fresh.collection('comments').createIndex({ postId: 1 });
    },
    gateway: {
      resolvers: { Mutation: { commentTwice } },
      writePlans: { commentTwice: [{ kind: 'insert', typeName: 'Comment' }, { kind: 'insert', typeName: 'Comment' }] },
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

async function execute(query: string): Promise<ExecutedOperation> {
  const result = await gateway.execute({ query }, { costHeader: 'commands' });
  expect(result.errors).toBeUndefined();
  return result;
}

function returningCommand(result: ExecutedOperation) {
  return result.cost!.commands!.find((command) => command.command === 'findAndModify');
}

describe('the post returned to the join under the mutation', () => {
  let post: string;
  beforeAll(async () => {
    const created = await gateway.execute({ query: 'mutation { createPost(input: { title: "R", body: "long" }) { id } }' });
    post = (created.data as { createPost: { id: string } }).createPost.id;
  });

  it('a created comment answers `post` with the document its counter update returned: no read, data as stored', async () => {
    const result = await execute(`mutation { createComment(input: { text: "hi", post: "${post}" }) { text post { title commentCount } } }`);
    const stored = (await db.collection('posts').findOne({ _id: new ObjectId(post) }))!;
    expect(result.data).toEqual({ createComment: { text: 'hi', post: { title: 'R', commentCount: stored.commentCount } } });
    expect(returningCommand(result)).toMatchObject({ collection: 'posts', fields: ['Mutation.createComment'], documents: 1 });
    expect(result.cost!.fields['Comment.post']).toMatchObject({ strategy: 'join', roundTrips: 0, documents: 0 });
    // The read back of the comment, and no read of its post: one below the estimate, which counts it.
    expect(result.cost!.commands!.filter((command) => command.command === 'find').map((command) => command.collection)).toEqual(['comments']);
    expect(result.cost!.roundTrips).toBe(result.cost!.estimatedRoundTrips - 1);
    expect(result.cost!.writes).toMatchObject({ documentsModified: 2, fanOut: { comments: 1, posts: 1 } });
  });

  it('aliases of the join are answered together: the update returns the paths of both', async () => {
    const result = await execute(`mutation { createComment(input: { text: "two", post: "${post}" }) { a: post { title } b: post { body commentCount } } }`);
    const stored = (await db.collection('posts').findOne({ _id: new ObjectId(post) }))!;
    expect(result.data).toEqual({ createComment: { a: { title: 'R' }, b: { body: 'long', commentCount: stored.commentCount } } });
    expect(result.cost!.fields['Comment.post']).toMatchObject({ roundTrips: 0 });
  });

  it('a post whose selection looks up its comments is not returned by the update (a findAndModify has no $lookup): the join reads it, lookups included', async () => {
    const result = await gateway.execute(
      { query: `mutation { createComment(input: { text: "looked up", post: "${post}" }) { text post { title comments { text } } } }` },
      { costHeader: 'commands', strategyHeader: 'Post.comments=lookup' },
    );
    expect(result.errors).toBeUndefined();
    const texts = (await db.collection('comments').find({ postId: new ObjectId(post) }).toArray()).map((comment) => ({ text: comment.text }));
    expect(result.data).toEqual({ createComment: { text: 'looked up', post: { title: 'R', comments: texts } } });
    expect(returningCommand(result)).toBeUndefined();
    expect(result.cost!.commands!.filter((command) => command.command === 'aggregate').map((command) => command.collection)).toEqual(['posts']);
    expect(result.cost!.fields['Post.comments']).toMatchObject({ strategy: 'lookup', roundTrips: 0, documents: texts.length });
  });

  it('a selection without the join sends a plain update', async () => {
    const result = await execute(`mutation { createComment(input: { text: "plain", post: "${post}" }) { text } }`);
    expect(returningCommand(result)).toBeUndefined();
    expect(result.cost!.commands!.map((command) => command.command)).toContain('update');
  });

  it('a later write to the same document in the unit replaces what an earlier one returned', async () => {
    const before = (await db.collection('posts').findOne({ _id: new ObjectId(post) }))!.commentCount as number;
    const result = await execute(`mutation { commentTwice(post: "${post}", text: "twice") { text post { commentCount } } }`);
    expect(result.data).toEqual({ commentTwice: { text: 'twice again', post: { commentCount: before + 2 } } });
    expect(result.cost!.commands!.filter((command) => command.command === 'findAndModify')).toHaveLength(2);
    expect(result.cost!.fields['Comment.post']).toMatchObject({ roundTrips: 0 });
  });
});
