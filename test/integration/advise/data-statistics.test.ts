import { BSON, MongoClient, ObjectId, type CommandStartedEvent, type Db, type Document } from 'mongodb';
import { withDirectiveTypeDefs } from 'docjoin';
import { collectDataStatistics } from '../../../src/advise/statistics/collect-data-statistics';
import type { DataStatistics, Distribution } from '../../../src/advise/statistics/statistics-types';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/**
 * Data statistics over a handful of seeded documents. Every sample covers its whole collection (the
 * default sample size is far above these counts), so each statistic is exact.
 */
const SDL = /* GraphQL */ `
  scalar DateTime
  type Query {
    post(id: ID!): Post @find
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
  }
  type Tag @collection(name: "tags") {
    id: ID!
    label: String!
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    createdAt: DateTime!
    author: Author @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    tags: [Tag!]! @snapshot(path: "tags", fields: ["id", "label"]) @join(localField: "tags.id") @read(strategy: SNAPSHOT)
    edits: [Edit!]! @embedded
    relatedPosts: [Post!]! @join(localField: "relatedIds")
    recentComments: [Comment!]!
      @embedded
      @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-createdAt", limit: 2)
      @read(strategy: EMBEDDED)
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
  }
  type Edit {
    note: String!
  }
  type Comment @collection(name: "comments") {
    id: ID!
    text: String!
    createdAt: DateTime!
    post: Post @join(localField: "postId")
  }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs([SDL]));

const oid = (prefix: string, n: number) => new ObjectId(`${prefix}${n.toString(16).padStart(24 - prefix.length, '0')}`);
const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 24 * 60 * 60 * 1000);

const authors = [1, 2, 3].map((n) => ({ _id: oid('a', n), name: `Author ${n}` }));
const tags = [1, 2, 3].map((n) => ({ _id: oid('b', n), label: `tag ${n}` }));
const postIds = [0, 1, 2, 3, 4].map((n) => oid('c', n));
// Comments per post: post 0 gets one a day for four days, post 1 three in one day, post 2 one, posts 3 and 4 none.
const commentTimes: number[][] = [[0, 1, 2, 3], [1, 1.5, 2], [2], [], []];
const comments = commentTimes.flatMap((times, post) =>
  times.map((at, i) => ({ _id: oid('d', post * 10 + i), text: `comment ${i} on post ${post}`, createdAt: day(at), postId: postIds[post] })),
);
const newestTwo = (post: number) =>
  comments
    .filter((comment) => comment.postId.equals(postIds[post]!))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, 2);
// Post n was created on day n. Its edits (an unbounded embedded array) keep piling up: 100 a day of age.
const EDITS = [400, 300, 200, 100, 0];
const posts: Document[] = postIds.map((_id, n) => ({
  _id,
  title: `Post ${n}`,
  createdAt: day(n),
  author: n < 4 ? { id: authors[0]!._id, name: authors[0]!.name } : { id: authors[1]!._id, name: authors[1]!.name },
  tags: [[tags[0], tags[1], tags[2]], [tags[0]], [], [], []][n]!.map((tag) => ({ id: tag!._id, label: tag!.label })),
  edits: Array.from({ length: EDITS[n]! }, (_, i) => ({ note: `edit ${i}` })),
  ...(n === 0 ? { relatedIds: [postIds[1], postIds[2]] } : n === 1 ? { relatedIds: [postIds[0]] } : {}),
  recentComments: newestTwo(n),
}));

/** The distribution of exactly these values, computed by hand from the nearest-rank definition. */
function exactly(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
  return { count: sorted.length, p50: rank(50), p99: rank(99), max: sorted[sorted.length - 1]!, mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

let mongo: TestMongo;
let monitored: MongoClient;
let db: Db;
let started: CommandStartedEvent[] = [];
beforeAll(async () => {
  mongo = await startTestMongo();
  const seeded = mongo.freshDb('statistics');
  await seeded.collection('authors').insertMany(authors);
  await seeded.collection('tags').insertMany(tags);
  await seeded.collection('posts').insertMany(posts);
  await seeded.collection('comments').insertMany(comments);
  // Served by indexes: the reverse join's key (with its sort) and the author snapshot's key. Not the tags snapshot's.
  await seeded.collection('comments').createIndex({ postId: 1, createdAt: -1, _id: -1 });
  await seeded.collection('posts').createIndex({ 'author.id': 1 });
  monitored = new MongoClient(mongo.uri, { monitorCommands: true });
  monitored.on('commandStarted', (event) => {
    if (event.databaseName === seeded.databaseName) started.push(event);
  });
  await monitored.connect();
  db = monitored.db(seeded.databaseName);
});
afterAll(async () => {
  await monitored?.close();
  await mongo?.stop();
});

async function measure(options: Parameters<typeof collectDataStatistics>[2] = {}): Promise<DataStatistics> {
  started = [];
  return collectDataStatistics(db, model, options);
}

it('measures each collection: its count, document sizes and the share near the size limit', async () => {
  const statistics = await measure({ nearLimitBytes: 7_000 });
  const postSizes = posts.map((post) => BSON.calculateObjectSize(post));
  expect(Object.keys(statistics.collections)).toEqual(['authors', 'tags', 'posts', 'comments']);
  expect(statistics.collections.posts).toEqual({
    collection: 'posts',
    exists: true,
    estimatedCount: 5,
    sampled: 5,
    documentBytes: exactly(postSizes),
    nearLimit: { thresholdBytes: 7_000, documents: postSizes.filter((size) => size >= 7_000).length, share: postSizes.filter((size) => size >= 7_000).length / 5 },
  });
  // 400 and 300 edits make the two oldest posts the big ones.
  expect(statistics.collections.posts!.nearLimit.documents).toBe(2);
  expect(statistics.collections.comments).toMatchObject({ estimatedCount: 8, sampled: 8, documentBytes: exactly(comments.map((comment) => BSON.calculateObjectSize(comment))) });
  expect(statistics.settings).toEqual({ sampleSize: 1000, keySampleSize: 200, nearLimitBytes: 7_000, fullScan: false });
  // The default threshold is 8 MiB: nothing here comes close.
  expect((await measure()).collections.posts!.nearLimit).toEqual({ thresholdBytes: 8 * 1024 * 1024, documents: 0, share: 0 });
});

it('measures array lengths, their declared bound, and how they grow with the parent\'s age', async () => {
  const { relations } = await measure();
  // The unbounded embedded array: 400 edits in the oldest post, 100 fewer for each day younger.
  expect(relations['Post.edits']!.array).toEqual({
    path: 'edits',
    holds: 'embedded',
    limit: undefined,
    lengths: exactly(EDITS),
    growth: { timePath: 'createdAt', parents: 5, spanDays: 4, entriesPerDay: expect.closeTo(100, 9) },
  });
  // The bounded array: at most 2, and it stops growing once full.
  expect(relations['Post.recentComments']!.array).toEqual({
    path: 'recentComments',
    holds: 'embedded',
    limit: 2,
    lengths: exactly([2, 2, 1, 0, 0]),
    growth: { timePath: 'createdAt', parents: 5, spanDays: 4, entriesPerDay: expect.closeTo(0.6, 9) },
  });
  expect(relations['Post.relatedPosts']!.array).toMatchObject({ path: 'relatedIds', holds: 'references', limit: undefined, lengths: exactly([2, 1, 0, 0, 0]) });
  expect(relations['Post.tags']!.array).toMatchObject({ path: 'tags', holds: 'snapshots', lengths: exactly([3, 1, 0, 0, 0]) });
  expect(relations['Post.comments']!.array).toBeUndefined();
  expect(relations['Post.author']!.array).toBeUndefined();
});

it('measures the fan-in of a snapshot source, and skips one whose key no index serves', async () => {
  const { relations } = await measure();
  // Author 1 is copied by four posts, author 2 by one, author 3 by none.
  expect(relations['Post.author']!.snapshots).toEqual([
    { coordinate: 'Post.author', collection: 'posts', keyPath: 'author.id', sourceCollection: 'authors', copiesPerSource: exactly([4, 1, 0]) },
  ]);
  expect(relations['Post.author']!.skipped).toEqual([]);
  expect(relations['Post.tags']!.snapshots).toEqual([]);
  expect(relations['Post.tags']!.skipped).toEqual([
    'snapshot fan-in of Post.tags: not counted, no index on posts.tags.id (create one with db.posts.createIndex({ "tags.id": 1 }), or pass fullScan: true)',
  ]);
});

it('measures a reverse join: distinct keys among the children, children per parent, and their growth', async () => {
  const { relations } = await measure();
  const expected = {
    childCollection: 'comments',
    foreignField: 'postId',
    localField: '_id',
    sampledChildren: 8,
    distinctKeys: 3,
    childrenPerKey: exactly([4, 3, 1, 0, 0]),
    // Post 0: 3 more comments over 3 days; post 1: 2 more over 1 day.
    growth: { timePath: 'createdAt', keys: 2, childrenPerDay: exactly([1, 2]) },
  };
  expect(relations['Post.comments']!.reverseJoin).toEqual(expected);
  // The bounded copy reads the same children: measured once, reported for both.
  expect(relations['Post.recentComments']!.reverseJoin).toEqual(expected);
  expect(relations['Comment.post']).toEqual({ coordinate: 'Comment.post', collection: 'comments', array: undefined, reverseJoin: undefined, snapshots: [], skipped: [] });
});

/** Whether `filter` pins, at its top level, a path some index of the collection leads with. */
function indexServed(filter: Document, leading: ReadonlySet<string>): boolean {
  return Object.entries(filter).some(([path, condition]) => leading.has(path) && (typeof condition !== 'object' || condition === null || !Object.keys(condition).some((op) => op.startsWith('$')) || '$eq' in condition));
}

it('sends only metadata commands, one $sample per collection, and index-served counts: no command scans a collection', async () => {
  await measure();
  const events = [...started];
  const leading = new Map<string, Set<string>>();
  for (const name of ['authors', 'tags', 'posts', 'comments']) {
    leading.set(name, new Set((await db.collection(name).listIndexes().toArray()).map((index) => Object.keys(index.key as Document)[0]!)));
  }
  const shapes: string[] = [];
  for (const event of events) {
    const command = event.command;
    const collection = command[event.commandName] as string;
    switch (event.commandName) {
      case 'listCollections':
      case 'listIndexes':
        shapes.push(event.commandName);
        break;
      case 'count':
        // estimatedDocumentCount: the collection's metadata.
        expect(command.query ?? {}).toEqual({});
        shapes.push(`count ${collection}`);
        break;
      case 'aggregate': {
        const pipeline = command.pipeline as Document[];
        if ('$sample' in pipeline[0]!) {
          shapes.push(`sample ${collection}`);
          break;
        }
        // Every branch starts with a $match an index serves.
        const branches = [pipeline, ...pipeline.filter((stage) => '$unionWith' in stage).map((stage) => stage.$unionWith.pipeline as Document[])];
        for (const branch of branches) expect(indexServed(branch[0]!.$match as Document, leading.get(collection)!)).toBe(true);
        shapes.push(`per-key ${collection} × ${branches.length}`);
        break;
      }
      default:
        throw new Error(`unexpected command ${event.commandName}: ${JSON.stringify(command)}`);
    }
  }
  expect(shapes).toEqual([
    'listCollections',
    ...['authors', 'tags', 'posts', 'comments'].flatMap((name) => [`count ${name}`, `sample ${name}`]),
    // Copies of each of the 3 authors (Post.author); the tags snapshot's key has no index, so it is not counted.
    'listIndexes',
    'per-key posts × 3',
    // Children per post (5 posts), then the oldest and newest comment of the two posts with several.
    'listIndexes',
    'per-key comments × 5',
    'per-key comments × 2',
    'per-key comments × 2',
  ]);
});

it('with fullScan, reads every document without $sample and counts keys no index serves', async () => {
  const { relations } = await measure({ fullScan: true });
  expect(relations['Post.tags']!.snapshots).toEqual([
    { coordinate: 'Post.tags', collection: 'posts', keyPath: 'tags.id', sourceCollection: 'tags', copiesPerSource: exactly([2, 1, 1]) },
  ]);
  expect(relations['Post.tags']!.skipped).toEqual([]);
  const firstStages = started.filter((event) => event.commandName === 'aggregate').map((event) => Object.keys((event.command.pipeline as Document[])[0]!)[0]);
  // One $project over each whole collection, then the per-key counts.
  expect(firstStages.filter((stage) => stage === '$project')).toHaveLength(4);
  expect(firstStages).not.toContain('$sample');
});

it('samples no more than asked, and counts no more keys than asked', async () => {
  const { collections, relations } = await measure({ sampleSize: 2, keySampleSize: 1 });
  expect(Object.values(collections).map((collection) => collection.sampled)).toEqual([2, 2, 2, 2]);
  expect(relations['Post.edits']!.array!.lengths!.count).toBe(2);
  expect(relations['Post.author']!.snapshots[0]!.copiesPerSource!.count).toBe(1);
  expect(relations['Post.comments']!.reverseJoin!.childrenPerKey!.count).toBe(1);
});

it('names the option and the value it refuses', async () => {
  await expect(collectDataStatistics(db, model, { sampleSize: 0 })).rejects.toThrow('collectDataStatistics: option sampleSize must be a positive integer, got 0');
  await expect(collectDataStatistics(db, model, { keySampleSize: 1.5 })).rejects.toThrow('collectDataStatistics: option keySampleSize must be a positive integer, got 1.5');
  await expect(collectDataStatistics(db, model, { timeFields: { Nope: 'createdAt' } })).rejects.toThrow('collectDataStatistics: option timeFields names "Nope", which is not a type of the schema');
});
