import { ObjectId, type Db } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { backfillFixture } from './support/backfill-fixture';

/**
 * A bounded array declared before it was backfilled: a post with no `recentComments` at all (not an
 * empty one) reads its newest comments by the join the copy stands for, in one aggregate for the level;
 * while the `docjoin_migrations` marker says the backfill runs, every post does, and the estimate counts
 * that join.
 */
const SDL = /* GraphQL */ `
  type Query { posts(first: Int = 100): [Post!]! @list }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    recentComments(first: Int): [Comment!]!
      @embedded
      @join(localField: "_id", foreignField: "postId", sort: "-at", limit: 2)
      @read(strategy: EMBEDDED)
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "at", limit: 5)
  }
  type Comment @collection(name: "comments") { id: ID! text: String! at: Int! }
`;
const QUERY = '{ posts { title recentComments { text } } }';

const posts = ['first', 'second', 'third'].map((title) => ({ _id: new ObjectId(), title }));
const comments = posts.flatMap((post, p) => [1, 2, 3].map((at) => ({ _id: new ObjectId(), postId: post._id, text: `${post.title} #${at}`, at: p * 10 + at })));
/** The newest two of a post's comments, newest first, as the copy holds them. */
const newest = (post: (typeof posts)[number]) =>
  comments
    .filter((comment) => comment.postId.equals(post._id))
    .sort((a, b) => b.at - a.at)
    .slice(0, 2);
const EXPECTED = { posts: posts.map((post) => ({ title: post.title, recentComments: newest(post).map((comment) => ({ text: comment.text })) })) };
const MARKER = { _id: 'Post.recentComments', kind: 'embedded-backfill', startedAt: new Date('2024-01-01T00:00:00Z'), resumeAfter: null };

const fixture = backfillFixture(SDL);

/** The posts, the first holding its copy (exact copies of its newest comments) and the others (unless `backfilled`) none; with these markers. */
async function seed(options: { backfilled: boolean; markers: readonly object[] }): Promise<Db> {
  const db = fixture.freshDb('embedded_backfill');
  await db.collection('comments').insertMany(comments);
  await db.collection('comments').createIndex({ postId: 1, at: -1, _id: 1 });
  await db.collection('posts').insertMany(
    posts.map((post, index) => (index === 0 || options.backfilled ? { ...post, recentComments: newest(post) } : post)),
  );
  await fixture.addMarkers(db, options.markers);
  return db;
}


it('while the marker says the backfill runs, reads every post by the join (a copy a write started from nothing is not trusted), and the estimate counts it', async () => {
  const db = await seed({ backfilled: false, markers: [MARKER] });
  // What a gateway on the new schema does on a new comment of a post the backfill has not reached: the
  // push starts the array with that one comment, though the post has three.
  const third = posts[2]!;
  await db.collection('posts').updateOne({ _id: third._id }, { $set: { recentComments: newest(third).slice(0, 1) } });
  const gateway = await fixture.serve(db);
  try {
    const { data, errors, cost } = await gateway.execute({ query: QUERY });
    expect(errors).toBeUndefined();
    expect(data).toEqual(EXPECTED);
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(cost!.fields['Post.recentComments']).toMatchObject({ strategy: 'join', roundTrips: 1, documents: 6, keys: 3 });
  } finally {
    await gateway.stop();
  }
});

it('reads every copy from its post once all are filled, and the finished marker no longer counts the join', async () => {
  const gateway = await fixture.serve(await seed({ backfilled: true, markers: [{ ...MARKER, finishedAt: new Date('2024-01-02T00:00:00Z') }] }));
  try {
    const { data, cost } = await gateway.execute({ query: QUERY });
    expect(data).toEqual(EXPECTED);
    expect(cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(cost!.fields['Post.recentComments']).toMatchObject({ strategy: 'embedded', roundTrips: 0 });
  } finally {
    await gateway.stop();
  }
});

it('is backfilled by reconcile --fix, after which every post reads its own copy', async () => {
  const db = await seed({ backfilled: false, markers: [MARKER] });
  const report = await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(SDL)), { fix: true });
  expect(report.checks.find((check) => check.coordinate === 'Post.recentComments')).toMatchObject({ drifted: 2, fixed: 2 });
  await db.collection('docjoin_migrations').updateOne({ _id: MARKER._id as never }, { $set: { finishedAt: new Date() } });
  const gateway = await fixture.serve(db);
  try {
    const { data, cost } = await gateway.execute({ query: QUERY });
    expect(data).toEqual(EXPECTED);
    expect(cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  } finally {
    await gateway.stop();
  }
});

it('a post read by an aggregate (a sibling field looked up) has no copy where it had none: its $slice keeps it missing, and the join answers', async () => {
  // No marker: the estimate takes the copies on trust, and the posts without one cost a join it did not count.
  const gateway = await fixture.serveUnchecked(await seed({ backfilled: false, markers: [] }));
  try {
    const query = '{ posts { title recentComments(first: 2) { text } comments { text } } }';
    const joined = await gateway.execute({ query });
    const looked = await gateway.execute({ query }, { strategyHeader: 'Post.comments=lookup' });
    expect(looked.errors).toBeUndefined();
    expect(looked.data).toEqual(joined.data);
    expect((looked.data as typeof EXPECTED).posts.map((post) => post.recentComments)).toEqual(EXPECTED.posts.map((post) => post.recentComments));
    // The posts' aggregate and the reverse join of the two posts without a copy.
    expect(looked.cost).toMatchObject({ roundTrips: 2, fields: { 'Post.comments': { strategy: 'lookup', documents: 9 }, 'Post.recentComments': { strategy: 'join' } } });
  } finally {
    await gateway.stop();
  }
});
