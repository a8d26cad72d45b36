import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcileChecks } from '../../../src/reconcile/reconcile';
import { scanInBatches } from '../../../src/reconcile/scan-batches';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A write that lands between reconcile's read of a batch and its repair (a comment and its post's count,
 * written together) makes the repair's guard match nothing. Read again, the post is right: that was a
 * race, not drift, and the run does not report it as drift it failed to fix.
 */
const SDL = /* GraphQL */ `type Query { posts: [Post!]! @list }
type Post @collection(name: "posts") {
  id: ID!
  comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "_id")
  commentCount: Int! @counter(of: "Post.comments")
}
type Comment @collection(name: "comments") { id: ID! postId: ID! }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('reads a document again when its guarded repair matched nothing, and counts as drift only what is still wrong', async () => {
  const db = file.mongo.freshDb('reconcile_race');
  const [consistent, stale] = [new ObjectId('6955b90000000000000000a1'), new ObjectId('6955b90000000000000000a2')];
  await db.collection('posts').insertMany([
    { _id: consistent, commentCount: 0 },
    { _id: stale, commentCount: 5 },
  ]);
  const check = reconcileChecks(db, model).find((candidate) => candidate.coordinate === 'Post.commentCount')!;
  let raced = false;
  const report = await scanInBatches(db, check, { batchSize: 10, fix: true }, async (batch, tally) => {
    if (!raced) {
      // As a gateway would, after the batch was read and before its children are counted: a comment and its count, together.
      raced = true;
      await db.collection('comments').insertOne({ postId: consistent });
      await db.collection('posts').updateOne({ _id: consistent }, { $inc: { commentCount: 1 } });
    }
    return check.check(batch, tally);
  });
  // The stale count was drift, and fixed; the raced post was right when read and right after.
  expect([report.drifted, report.fixed]).toEqual([1, 1]);
  expect((await db.collection('posts').find({}, { sort: { _id: 1 } }).toArray()).map((post) => post.commentCount)).toEqual([1, 0]);
});
