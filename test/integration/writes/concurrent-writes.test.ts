import type { Db } from 'mongodb';
import { demoTypeDefs } from '../../support/demo-project';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { DemoGateway } from '../gateway/support/demo-gateway';
import { startWriteDemo } from './support/write-demo';

/**
 * Concurrent mutations on one document. In transactions they conflict (WriteConflict, retried after a
 * backoff, transaction-retries.ts); `extensions.cost.writes` must count each mutation's documents once, from
 * the attempt that committed, while its round trips include every attempt's commands.
 */
let demo: DemoGateway;
let db: Db;
let transactions: boolean;
beforeAll(async () => {
  ({ demo, db, transactions } = await startWriteDemo());
}, 60_000);
afterAll(() => demo?.stop());

it('5 addComments on one post at once: each counts 2 documents, the post gains exactly 5', async () => {
  const post = (await db.collection('posts').findOne({ commentCount: { $gte: 3 } }, { sort: { _id: 1 } }))!;
  const results = await Promise.all(
    [1, 2, 3, 4, 5].map((n) => demo.gateway.execute({ query: `mutation { addComment(postId: "${post._id.toHexString()}", author: "racer", comment: "at once ${n}") { id } }` })),
  );
  for (const result of results) expect(result.errors).toBeUndefined();
  const writes = results.map((result) => result.cost!.writes!);
  for (const write of writes) {
    expect({ documentsModified: write.documentsModified, fanOut: write.fanOut, atomic: write.atomic }).toEqual({ documentsModified: 2, fanOut: { comments: 1, posts: 1 }, atomic: transactions });
    // Per attempt: insert comments, update posts (a conflict fails here; its matched count proves the post
    // exists), then commitTransaction or, before a retry, abortTransaction. Without transactions: one
    // attempt, find posts first, no commit.
    expect(write.roundTrips).toBe(transactions ? 3 * write.attempts : 3);
  }
  // The retry path ran: the same post's update conflicts between open transactions (WriteConflict,
  // TransientTransactionError), so all but the first to commit start over. Without transactions nothing retries.
  const mostAttempts = Math.max(...writes.map((write) => write.attempts));
  if (transactions) expect(mostAttempts).toBeGreaterThan(1);
  else expect(mostAttempts).toBe(1);

  const stored = (await db.collection('posts').findOne({ _id: post._id }))!;
  expect(stored.commentCount).toBe(post.commentCount + 5);
  const newest = await db.collection('comments').find({ postId: post._id }, { sort: { createdAt: -1, _id: -1 }, limit: 3 }).toArray();
  expect(stored.recentComments).toEqual(newest);
  expect(newest.every((comment) => comment.author === 'racer')).toBe(true);
  expect(await db.collection('comments').countDocuments({ postId: post._id, author: 'racer' })).toBe(5);
  expect((await reconcile(db, buildWriteModelFromSdl(demoTypeDefs()))).drifted).toBe(0);
});
