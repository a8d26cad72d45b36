import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcileChecks } from '../../../src/reconcile/reconcile';
import { scanInBatches } from '../../../src/reconcile/scan-batches';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A write that lands between reconcile's read of a batch and its repair (a comment and its post's count,
 * written together) makes the repair's guard match nothing. Read again, the post is right: that was a
 * race, not drift: a --fix run does not report it as drift it failed to fix, nor a check as drift.
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

it.each([true, false])('reads a flagged document again (fix: %s), and counts as drift only what is still wrong', async (fix) => {
  const db = file.mongo.freshDb(`reconcile_race_${fix}`);
  const [consistent, stale] = [new ObjectId('6955b90000000000000000a1'), new ObjectId('6955b90000000000000000a2')];
  await db.collection('posts').insertMany([
    { _id: consistent, commentCount: 0 },
    { _id: stale, commentCount: 5 },
  ]);
  const check = reconcileChecks(db, model).find((candidate) => candidate.coordinate === 'Post.commentCount')!;
  let raced = false;
  const report = await scanInBatches(db, check, { batchSize: 10, fix }, async (batch, tally) => {
    if (!raced) {
      // As a gateway would, after the batch was read and before its children are counted: a comment and its count, together.
      raced = true;
      await db.collection('comments').insertOne({ postId: consistent });
      await db.collection('posts').updateOne({ _id: consistent }, { $inc: { commentCount: 1 } });
    }
    return check.check(batch, tally);
  });
  // The stale count was drift (and with fix, fixed); the raced post was right when read again.
  expect([report.drifted, report.fixed]).toEqual([1, fix ? 1 : 0]);
  // Without fix the sample is what is still wrong; with it, which of the repairs was the race cannot be told once both are right.
  if (!fix) expect(report.sampleIds).toEqual([stale.toHexString()]);
  expect((await db.collection('posts').find({}, { sort: { _id: 1 } }).toArray()).map((post) => post.commentCount)).toEqual([1, fix ? 0 : 5]);
});
