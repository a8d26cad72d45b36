import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';
import { serverSupportsTransactions } from './support/expected-writes';

/**
 * A counter stored as null (or as a string, by another writer) cannot take an `$inc`, nor a bounded
 * array stored as null a `$push`: MongoDB refuses the write. That is the stored data's doing, so the
 * mutation answers BAD_USER_INPUT saying what stands and how to repair it, never INTERNAL_SERVER_ERROR;
 * `docjoin reconcile --fix` then computes the values again and the same write goes through.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { posts(first: Int = 20): [Post!]! @list }
  type Mutation { createComment(input: CommentInput!): Comment! @create }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    comments(first: Int = 20): [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-at")
    recentComments: [Comment!]! @embedded @join(localField: "_id", foreignField: "postId", sort: "-at", limit: 2) @read(strategy: EMBEDDED)
    commentCount: Int! @counter(of: "Post.comments")
  }
  type Comment @collection(name: "comments") { id: ID! text: String! at: Int! post: Post @join(localField: "postId") }
  input CommentInput { post: ID! text: String! at: Int! }
`;

let s: SdlGateway;
let transactions: boolean;
beforeAll(async () => {
  s = await startSdlGateway({
    dbPrefix: 'mistyped_derived',
    typeDefs: TYPE_DEFS,
    prepare: async (db) => {
      await db.createCollection('posts');
      await db.collection('comments').createIndex({ postId: 1, at: -1 });
    },
  });
  transactions = await serverSupportsTransactions(s.client);
}, 60_000);
afterAll(() => s?.stop());

const comment = (post: ObjectId, at: number) => s.gateway.execute({ query: `mutation { createComment(input: { post: "${post.toHexString()}", text: "c${at}", at: ${at} }) { id } }` });

it.each([
  ['a null counter', { commentCount: null, recentComments: [] }],
  ['a counter stored as a string', { commentCount: '0', recentComments: [] }],
  ['a null bounded array', { commentCount: 0, recentComments: null }],
])('%s: BAD_USER_INPUT naming the repair, and reconcile --fix lets the write through', async (_case, derived) => {
  const post = new ObjectId();
  await s.db.collection('posts').insertOne({ _id: post, title: 'p', ...derived });
  const refused = await comment(post, 1);
  const outcome = transactions
    ? 'so nothing was written'
    : 'so it was left as it was; without a transaction, what the write changed before it stands (docjoin reconcile reports the drift)';
  expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    [
      'BAD_USER_INPUT',
      `Mutation.createComment: a counter, total or list this write keeps in step is stored as another type (null, or no number or list) in a document it writes, ${outcome}; run docjoin reconcile --fix to compute it again`,
    ],
  ]);
  expect(await s.db.collection('comments').countDocuments({ postId: post })).toBe(transactions ? 0 : 1);

  await reconcile(s.db, buildWriteModelFromSdl(withDirectiveTypeDefs(TYPE_DEFS)), { fix: true, settleMs: 0 });
  expect((await comment(post, 2)).errors).toBeUndefined();
  const stored = await s.db.collection('posts').findOne({ _id: post });
  const texts = transactions ? ['c2'] : ['c2', 'c1'];
  expect({ commentCount: stored?.commentCount, recentComments: stored?.recentComments.map((copy: { text: string }) => copy.text) }).toEqual({ commentCount: texts.length, recentComments: texts });
});
