import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { ReconcileMismatchError } from '../../../src/reconcile/reconcile-types';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A bounded array, an inverse list, a counter and a total are derived from another collection: with that
 * one missing (a typo in @collection, the wrong --db, data not loaded yet), every parent would look
 * drifted and --fix would empty every array and zero every figure. Reconcile refuses instead, naming the
 * collection and the rule, and writes nothing.
 */
const SDL = /* GraphQL */ `type Query { posts: [Post!]! @list }
type Post @collection(name: "posts") {
  id: ID!
  title: String!
  recentComments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-createdAt", limit: 3) @read(strategy: EMBEDDED)
  comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
  commentCount: Int! @counter(of: "Post.comments")
  ratingTotal: Float! @total(of: "Post.comments", field: "rating")
  tags: [Tag!]! @join(localField: "tagIds") @inverse(of: "Tag.post")
}
type Comment @collection(name: "comments") { id: ID! text: String! rating: Int! createdAt: String! }
type Tag @collection(name: "tags") { id: ID! label: String! post: Post @join(localField: "postId") }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('refuses, writing nothing, when a collection the derived data comes from does not exist', async () => {
  const db = file.mongo.freshDb('reconcile_missing_sources');
  const post = new ObjectId();
  const tag = new ObjectId();
  const comment = { _id: new ObjectId(), postId: post, text: 'hi', rating: 4, createdAt: '2026-01-01' };
  // Loaded under other names than the schema's.
  await db.collection('comment').insertOne(comment);
  await db.collection('tag').insertOne({ _id: tag, label: 'x', postId: post });
  const stored = { _id: post, title: 'P', recentComments: [comment], commentCount: 1, ratingTotal: 4, tagIds: [tag] };
  await db.collection('posts').insertOne(stored);

  const refused = reconcile(db, model, { fix: true });
  await expect(refused).rejects.toBeInstanceOf(ReconcileMismatchError);
  await expect(refused).rejects.toMatchObject({
    problems: [
      `collection "comments" (Post.recentComments) does not exist in database "${db.databaseName}"`,
      `collection "tags" (Post.tags) does not exist in database "${db.databaseName}"`,
    ],
  });
  expect(await db.collection('posts').findOne({ _id: post })).toEqual(stored);
});
