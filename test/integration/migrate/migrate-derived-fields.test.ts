import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectId, type Db } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { backfillCopies, reconcileBackfill } from '../../../src/migrate/backfill-copies';
import { MIGRATIONS_COLLECTION } from '../../../src/migrate/migration-marker';
import { redactUri } from '../../../src/observability/redact-secrets';
import { reconcile } from '../../../src/reconcile/reconcile';
import { migrate, migrateProjects, type MigrateProject } from './migrate-project';

/**
 * `docjoin migrate --add-counter` and `--add-bounded-array` on 3 posts with 0, 1 and 3 comments: the
 * SDL change, the backfill in batches, a kill and the resumed run, writes of a gateway on the old
 * schema meanwhile (drift: the marker stays unfinished until a pass is clean), and a gateway on the new
 * schema answering correctly throughout, then from the stored copies once the marker is finished.
 */
const SDL = /* GraphQL */ `type Query {
  posts(first: Int = 100): [Post!]! @list
}

type Post @collection(name: "posts") {
  id: ID!
  title: String!
  comments(first: Int = 20): [Comment!]!
    @join(localField: "_id", foreignField: "postId", sort: "-at")
}

type Comment @collection(name: "comments") {
  id: ID!
  text: String!
  at: Int!
}
`;
const WITH_COUNTER = SDL.replace('sort: "-at")\n', 'sort: "-at")\n  commentCount: Int! @counter(of: "Post.comments")\n');
const WITH_ARRAY = SDL.replace('sort: "-at")\n', 'sort: "-at")\n  recentComments: [Comment!]!\n    @embedded\n    @join(localField: "_id", foreignField: "postId", sort: "-at", limit: 2)\n    @read(strategy: EMBEDDED)\n');

const postIds = [1, 2, 3].map((n) => new ObjectId(`6955b90000000000000000c${n}`));
const comment = (post: number, at: number) => ({ _id: new ObjectId(), postId: postIds[post]!, text: `post ${post} #${at}`, at });
const COMMENTS = [comment(1, 1), comment(2, 1), comment(2, 2), comment(2, 3)];

const projects = migrateProjects();

async function setUp(): Promise<MigrateProject> {
  return projects.create(SDL, async (db) => {
    await db.collection('posts').insertMany(postIds.map((_id, n) => ({ _id, title: `Post ${n}` })));
    await db.collection('comments').insertMany(COMMENTS.map((entry) => ({ ...entry })));
    await db.collection('comments').createIndex({ postId: 1, at: -1, _id: 1 });
  });
}


const COUNTS = '{ posts { title commentCount } }';
const COUNTED = { posts: [{ title: 'Post 0', commentCount: 0 }, { title: 'Post 1', commentCount: 1 }, { title: 'Post 2', commentCount: 3 }] };
const marker = (db: Db, id: string) => db.collection(MIGRATIONS_COLLECTION).findOne({ _id: id as never });

describe('docjoin migrate --add-counter', () => {
  it('finishes a counter an advice file gave with --advice --deployed, and refuses --deployed for advice of another change', async () => {
    const { db, folder, args } = await setUp();
    const file = join(folder, 'advice.json');
    const advising = (advice: Record<string, unknown>) => writeFileSync(file, JSON.stringify({ advice: { fields: [{ coordinate: 'Post.comments', change: 'advised', ...advice }] } }));
    advising({ kind: 'add-counter', counterField: 'Post.commentCount' });
    const started = await migrate(['--advice', file, '--field', 'Post.comments', '--write', ...args]);
    expect([started.code, started.err]).toEqual([0, '']);
    const finished = await migrate(['--advice', file, '--field', 'Post.comments', '--write', '--deployed', ...args]);
    expect([finished.code, finished.err]).toEqual([0, '']);
    expect(await marker(db, 'Post.commentCount')).toMatchObject({ finishedAt: expect.any(Date) });
    advising({ kind: 'widen-snapshot', snapshotFields: ['text'] });
    const refused = await migrate(['--advice', file, '--field', 'Post.comments', '--write', '--deployed', ...args]);
    expect([refused.code, refused.err]).toEqual([2, 'migrate: --deployed goes with --add-counter, --add-total or --add-bounded-array (or --advice for one of them); the advice for Post.comments is widen\n']);
  });

  it('declares the counter, sets it in every parent in batches, and is trusted after a clean pass once deployed', async () => {
    const { db, schemaFile, args } = await setUp();
    const run = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', '--batch-size', '2', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toBe(`schema/schema.graphql:10
+  commentCount: Int! @counter(of: "Post.comments")
wrote schema/schema.graphql
backfilling Post.commentCount in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 2…
counter Post.commentCount 3 / 3
backfilled Post.commentCount: 3 scanned, 3 rewritten
reconcile Post.commentCount: 3 scanned, 0 drifted
filled Post.commentCount; gateways still count, sum or join it: deploy the schema change, then run this again with --write --deployed
`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(WITH_COUNTER);
    expect((await db.collection('posts').find({}, { sort: { _id: 1 } }).toArray()).map((post) => post.commentCount)).toEqual([0, 1, 3]);
    expect(await marker(db, 'Post.commentCount')).toEqual({ _id: 'Post.commentCount', kind: 'counter-backfill', startedAt: expect.any(Date), resumeAfter: null });
    // Until then the old schema may still be writing: every post is counted.
    const counting = await projects.read(db, WITH_COUNTER, COUNTS);
    expect(counting.data).toEqual(COUNTED);
    expect(counting.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });

    const deployed = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', '--deployed', ...args]);
    expect(deployed.out).toContain('schema/schema.graphql: Post.commentCount is already declared; no SDL change\n');
    expect(deployed.out).toContain('backfilled Post.commentCount: 3 scanned, 0 rewritten\nreconcile Post.commentCount: 3 scanned, 0 drifted\n');
    expect(deployed.out).not.toContain('filled Post.commentCount;');
    expect(deployed.code).toBe(0);
    expect(await marker(db, 'Post.commentCount')).toMatchObject({ finishedAt: expect.any(Date) });
    const counted = await projects.read(db, WITH_COUNTER, COUNTS);
    expect(counted.data).toEqual(COUNTED);
    expect(counted.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });

    // The first command again, once finished: a repair pass that leaves the counters trusted.
    const { finishedAt } = (await marker(db, 'Post.commentCount'))!;
    await db.collection('posts').updateOne({ _id: postIds[1] }, { $set: { commentCount: 7 } });
    const again = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', ...args]);
    expect(again.out).toContain(
      `Post.commentCount was finished on ${(finishedAt as Date).toISOString()}: this pass repairs its copies, which gateways go on trusting\nbackfilled Post.commentCount: 3 scanned, 1 rewritten\n`,
    );
    expect(again.out).toContain('reconcile Post.commentCount: 3 scanned, 0 drifted\n');
    expect(again.out).not.toContain('filled Post.commentCount;');
    expect([again.code, again.err]).toEqual([0, '']);
    expect(await marker(db, 'Post.commentCount')).toMatchObject({ finishedAt: expect.any(Date) });
    const stillCounted = await projects.read(db, WITH_COUNTER, COUNTS);
    expect(stillCounted.data).toEqual(COUNTED);
    expect(stillCounted.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });

  it('answers correctly while killed half way and while the old schema writes, and finishes only on a clean pass', async () => {
    const { db, args } = await setUp();
    const model = buildWriteModelFromSdl(withDirectiveTypeDefs(WITH_COUNTER));
    const killed = new Error('killed');
    await expect(
      backfillCopies(db, reconcileBackfill('Post.commentCount', 'counter-backfill', model, ['Post.commentCount']), {
        batchSize: 2,
        onBatch: () => {
          throw killed;
        },
      }),
    ).rejects.toBe(killed);
    // The first two posts hold counters; a comment on post 0 by the old schema adds none, and a new
    // one of post 2 by the new schema starts its counter from nothing.
    await db.collection('comments').insertOne(comment(0, 5));
    await db.collection('posts').updateOne({ _id: postIds[2] }, { $inc: { commentCount: 1 } });
    const meanwhile = await projects.read(db, WITH_COUNTER, COUNTS);
    expect(meanwhile.data).toEqual({ posts: [{ title: 'Post 0', commentCount: 1 }, COUNTED.posts[1], COUNTED.posts[2]] });
    // Every post counted by one aggregate, which the estimate counts.
    expect(meanwhile.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });

    // The resumed run fixes post 2 but not post 0 (behind it): drift, exit 3, the marker stays unfinished.
    const resumed = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', '--batch-size', '2', ...args]);
    expect(resumed.out).toContain(`resumed after _id ${postIds[1]!.toHexString()}\nbackfilled Post.commentCount: 1 scanned, 1 rewritten\nreconcile Post.commentCount: 3 scanned, 1 drifted\n`);
    expect(resumed.err).toBe(
      'migrate: 1 document was written meanwhile by a gateway that does not keep the new copies (the old schema?); deploy the schema change, then run this command again\n',
    );
    expect(resumed.code).toBe(3);
    expect(await marker(db, 'Post.commentCount')).toMatchObject({ resumeAfter: null });
    expect((await marker(db, 'Post.commentCount'))!.finishedAt).toBeUndefined();
    expect((await projects.read(db, WITH_COUNTER, COUNTS)).cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });

    // A whole pass, then a clean check: finished, and the stored counters are read.
    const finished = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', '--deployed', '--batch-size', '2', ...args]);
    expect(finished.out).toContain('backfilled Post.commentCount: 3 scanned, 1 rewritten\nreconcile Post.commentCount: 3 scanned, 0 drifted\n');
    expect(finished.code).toBe(0);
    const after = await projects.read(db, WITH_COUNTER, COUNTS);
    expect(after.data).toEqual(meanwhile.data);
    expect(after.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect((await reconcile(db, model)).drifted).toBe(0);
  });
  it('refuses, exit 2, before writing the SDL or a parent, a counter of children read through a MongoDB view (the gateway would refuse to start)', async () => {
    const { db, schemaFile, args } = await projects.create(SDL.replace('@collection(name: "comments")', '@collection(name: "openComments")'), async (fresh) => {
      await fresh.collection('posts').insertMany(postIds.map((_id, n) => ({ _id, title: `Post ${n}` })));
      await fresh.collection('comments').insertMany(COMMENTS.map((entry) => ({ ...entry })));
      await fresh.collection('comments').createIndex({ postId: 1, at: -1, _id: 1 });
      await fresh.createCollection('openComments', { viewOn: 'comments', pipeline: [{ $match: { at: { $gt: 1 } } }] });
    });
    const sdlBefore = readFileSync(schemaFile, 'utf8');
    const refused = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', ...args]);
    expect([refused.code, refused.err]).toEqual([
      2,
      'migrate: Post.commentCount: its counter is derived from openComments, a MongoDB view on comments; docjoin writes no view, and a write to comments cannot tell which rows the view shows, so the counter would drift; derive it from a type stored in a collection, or remove it; nothing was written\n',
    ]);
    expect(readFileSync(schemaFile, 'utf8')).toBe(sdlBefore);
    expect(await db.collection('posts').countDocuments({ commentCount: { $exists: true } })).toBe(0);
  });
});

describe('docjoin migrate --add-total', () => {
  const WITH_TOTAL = SDL.replace('sort: "-at")\n', 'sort: "-at")\n  atTotal: Float! @total(of: "Post.comments", field: "at")\n');
  const TOTALS = '{ posts { title atTotal } }';
  const SUMMED = { posts: [{ title: 'Post 0', atTotal: 0 }, { title: 'Post 1', atTotal: 1 }, { title: 'Post 2', atTotal: 6 }] };

  it('declares the total with its sum type, sets it in every parent, sums by query until deployed, then reads it', async () => {
    const { db, schemaFile, args } = await setUp();
    const run = await migrate(['--add-total', 'Post.atTotal', '--of', 'Post.comments', '--sum', 'at', '--write', '--batch-size', '2', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toContain('schema/schema.graphql:10\n+  atTotal: Float! @total(of: "Post.comments", field: "at")\nwrote schema/schema.graphql\n');
    expect(run.out).toContain('backfilled Post.atTotal: 3 scanned, 3 rewritten\nreconcile Post.atTotal: 3 scanned, 0 drifted\nfilled Post.atTotal; gateways still count, sum or join it');
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(WITH_TOTAL);
    expect((await db.collection('posts').find({}, { sort: { _id: 1 } }).toArray()).map((post) => post.atTotal)).toEqual([0, 1, 6]);
    expect(await marker(db, 'Post.atTotal')).toEqual({ _id: 'Post.atTotal', kind: 'total-backfill', startedAt: expect.any(Date), resumeAfter: null });
    // Until then a write by the old schema adds nothing to it, so every post is summed by one aggregate, which the estimate counts.
    const summing = await projects.read(db, WITH_TOTAL, TOTALS);
    expect(summing.data).toEqual(SUMMED);
    expect(summing.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });

    const deployed = await migrate(['--add-total', 'Post.atTotal', '--of', 'Post.comments', '--sum', 'at', '--write', '--deployed', ...args]);
    expect(deployed.out).toContain('Post.atTotal is already declared; no SDL change\n');
    expect(deployed.code).toBe(0);
    expect(await marker(db, 'Post.atTotal')).toMatchObject({ finishedAt: expect.any(Date) });
    const read = await projects.read(db, WITH_TOTAL, TOTALS);
    expect(read.data).toEqual(SUMMED);
    expect(read.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });

  it('refuses a field that is no number of the children, exit 2', async () => {
    const { args } = await setUp();
    const run = await migrate(['--add-total', 'Post.textTotal', '--of', 'Post.comments', '--sum', 'text', ...args]);
    expect(run.err).toContain('Post.textTotal: @total(of: "Post.comments", field: "text") must name a stored Int, Float, Long or Decimal field of Comment; Comment.text is not one');
    expect(run.code).toBe(2);
  });
});

describe('docjoin migrate --add-bounded-array', () => {
  it('declares the array from the relation join, fills each post with its newest children, and reads them embedded', async () => {
    const { db, schemaFile, args } = await setUp();
    const run = await migrate(['--add-bounded-array', 'Post.recentComments', '--of', 'Post.comments', '--limit', '2', '--write', '--deployed', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toBe(`schema/schema.graphql:10
+  recentComments: [Comment!]!
+    @embedded
+    @join(localField: "_id", foreignField: "postId", sort: "-at", limit: 2)
+    @read(strategy: EMBEDDED)
wrote schema/schema.graphql
backfilling Post.recentComments in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 500…
bounded-array Post.recentComments 3 / 3
backfilled Post.recentComments: 3 scanned, 3 rewritten
reconcile Post.recentComments: 3 scanned, 0 drifted
`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(WITH_ARRAY);
    expect(await marker(db, 'Post.recentComments')).toMatchObject({ kind: 'embedded-backfill', finishedAt: expect.any(Date) });
    const recent = await projects.read(db, WITH_ARRAY, '{ posts { recentComments { text } } }');
    expect(recent.data).toEqual({ posts: [{ recentComments: [] }, { recentComments: [{ text: 'post 1 #1' }] }, { recentComments: [{ text: 'post 2 #3' }, { text: 'post 2 #2' }] }] });
    expect(recent.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect((await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(WITH_ARRAY)))).drifted).toBe(0);
  });

  it('refuses, before writing or filling anything, a change the startup check would refuse: an input that sets the order the array keeps', async () => {
    const withUpdate = SDL.replace('type Query {', 'type Mutation {\n  updateComment(id: ID!, input: CommentPatch!): Comment! @update\n}\n\ninput CommentPatch { at: Int }\n\ntype Query {');
    const project = await projects.create(withUpdate, async (db) => {
      await db.collection('posts').insertMany(postIds.map((_id, n) => ({ _id, title: `Post ${n}` })));
      await db.collection('comments').insertMany(COMMENTS.map((entry) => ({ ...entry })));
    });
    const refused = await migrate(['--add-bounded-array', 'Post.recentComments', '--of', 'Post.comments', '--limit', '2', '--write', '--deployed', ...project.args]);
    expect(refused.code).toBe(2);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/^migrate: Invalid storage directives: - Mutation\.updateComment: CommentPatch\.at: Comment\.at decides which Comments Post\.recentComments keeps[^\n]*\n$/);
    expect(readFileSync(project.schemaFile, 'utf8')).toBe(withUpdate);
    expect(await project.db.collection('posts').countDocuments({ recentComments: { $exists: true } })).toBe(0);
  });

  it('refuses a relation with no order to pick the first entries by, exit 2', async () => {
    const { args } = await setUp();
    const refused = await migrate(['--add-bounded-array', 'Post.recent', '--of', 'Post.title', '--limit', '2', ...args]);
    expect(refused).toEqual({ code: 2, out: '', err: 'migrate: Post.title is not a reverse @join (children pointing at the parent, with foreignField); a bounded array copies such children\n' });
  });
});

describe('a derived field that cannot go through', () => {
  it('a counter of children whose collection does not exist yet is refused before the SDL is written, with no marker', async () => {
    const { db, schemaFile, args } = await projects.create(SDL, async (database) => {
      await database.collection('posts').insertOne({ _id: postIds[0]!, title: 'p' });
    });
    const run = await migrate(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', ...args]);
    expect(run.err).toMatch(/^migrate: backfilling Post\.commentCount in .+ failed: .*"comments".*\n$/);
    expect(run.out).not.toContain('wrote');
    expect(run.code).toBe(1);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    expect(await db.collection(MIGRATIONS_COLLECTION).countDocuments()).toBe(0);
  });

  it('a bounded array already declared with another limit is refused, naming both, and nothing changes', async () => {
    const { db, schemaFile, args } = await projects.create(WITH_ARRAY, async (database) => {
      await database.collection('posts').insertOne({ _id: postIds[0]!, title: 'p', recentComments: [] });
      await database.collection('comments').insertOne(comment(0, 1));
    });
    const run = await migrate(['--add-bounded-array', 'Post.recentComments', '--of', 'Post.comments', '--limit', '5', '--write', ...args]);
    expect(run.err).toBe(
      'migrate: Post.recentComments is already declared, as a bounded array with @join(foreignField: "postId", localField: "_id", sort: "-at", limit: 2), not the first 5 of Post.comments (@join(foreignField: "postId", localField: "_id", sort: "-at", limit: 5)); run this with the declared limit, or change the SDL by hand\n',
    );
    expect(run.code).toBe(2);
    expect(readFileSync(schemaFile, 'utf8')).toBe(WITH_ARRAY);
    expect(await db.collection('posts').findOne({ _id: postIds[0]! })).toEqual({ _id: postIds[0]!, title: 'p', recentComments: [] });
    const same = await migrate(['--add-bounded-array', 'Post.recentComments', '--of', 'Post.comments', '--limit', '2', ...args]);
    expect([same.code, same.err]).toEqual([0, '']);
    expect(same.out).toContain('Post.recentComments is already declared');
  });
});
