import { directiveTypeDefs } from 'docjoin';
import { ObjectId, type Document } from 'mongodb';
import { GraphQLScalarType, type GraphQLResolveInfo } from 'graphql';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, type Gateway, type GatewayContext, type MongoClient } from 'docjoin';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Paging with `after` = the id of the last item received, on the demo data (scale 1): whole lists
 * walked page by page, ties on the sort key, and the exact round trips of an anchored page.
 */
let demo: DemoGateway;
/** A post whose comments include a run of equal createdAt values that straddles page boundaries. */
let post: Document;
/** Its comments in the order Post.comments promises: newest first, then _id descending. */
let expectedComments: string[];
/** Where the run of equal createdAt values sits in expectedComments: [start, end). */
let ties: { start: number; end: number };

beforeAll(async () => {
  demo = await startDemoGateway();
  post = (await db().collection('posts').findOne({ commentCount: { $gte: 10 } }, { sort: { _id: 1 } }))!;
  const seeded = await db().collection('comments').find({ postId: post._id }, { sort: { createdAt: -1, _id: -1 } }).toArray();
  // Four more comments at the 4th newest comment's exact time, with ids above and below the seeded one's
  // (seeded ids start with 6955…): with pages of 3, a page boundary falls inside the run of ties.
  const tieTime = seeded[3]!.createdAt as Date;
  const tieIds = ['700000000000000000000001', '700000000000000000000002', '100000000000000000000001', '100000000000000000000002'].map((hex) => new ObjectId(hex));
  await db().collection('comments').insertMany(tieIds.map((_id, i) => ({ _id, postId: post._id, author: `tie${i}`, comment: 'same instant', createdAt: tieTime })));
  const all = await db().collection('comments').find({ postId: post._id }, { sort: { createdAt: -1, _id: -1 } }).toArray();
  expectedComments = all.map((comment) => comment._id.toHexString());
  const start = all.findIndex((comment) => (comment.createdAt as Date).getTime() === tieTime.getTime());
  ties = { start, end: start + all.filter((comment) => (comment.createdAt as Date).getTime() === tieTime.getTime()).length };
}, 120_000);
afterAll(() => demo?.stop());

const db = () => demo.mongo.client.db(demo.dbName);

async function run(query: string, variables?: Record<string, unknown>) {
  const result = await demo.gateway.execute({ query, ...(variables && { variables }) });
  expect(result.errors).toBeUndefined();
  return { data: result.data as Record<string, unknown>, cost: result.cost! };
}

/** Follows `after` = the last id of each page until a short page; returns the ids and each page's cost. */
async function walk(pageSize: number, fetchPage: (after: string | null) => Promise<{ ids: string[]; roundTrips: number; estimated: number }>) {
  const ids: string[] = [];
  const costs: Array<[number, number]> = [];
  let after: string | null = null;
  for (;;) {
    const page = await fetchPage(after);
    ids.push(...page.ids);
    costs.push([page.roundTrips, page.estimated]);
    if (page.ids.length < pageSize) return { ids, costs };
    after = page.ids[page.ids.length - 1]!;
  }
}

describe('walking a whole list with the ids it returned', () => {
  it("a post's comments, 3 at a time, newest first, ties on createdAt broken by _id", async () => {
    const query = 'query ($id: ID!, $after: ID) { post(id: $id) { comments(first: 3, after: $after) { id createdAt } } }';
    const { ids, costs } = await walk(3, async (after) => {
      const { data, cost } = await run(query, { id: post._id.toHexString(), after });
      const comments = (data.post as { comments: Array<{ id: string }> }).comments;
      return { ids: comments.map((comment) => comment.id), roundTrips: cost.roundTrips, estimated: cost.estimatedRoundTrips };
    });
    expect(ids).toEqual(expectedComments);
    expect(new Set(ids).size).toBe(ids.length);
    // The run of ties (the seeded comment and the four inserted) straddles a page boundary.
    expect(ties.end - ties.start).toBeGreaterThanOrEqual(5);
    expect(ties.start <= 3 && ties.end > 4).toBe(true);
    // First page: the post, one aggregate. Every later page: the post, the anchor, one aggregate.
    const pages = Math.floor(expectedComments.length / 3) + 1;
    expect(costs).toEqual([[2, 2], ...Array.from({ length: pages - 1 }, () => [3, 3])]);
  });

  it('books, 7 at a time, in _id order: one find per page, no anchor to read', async () => {
    const expected = (await db().collection('books').find({}, { sort: { _id: 1 }, projection: { _id: 1 } }).toArray()).map((book) => book._id.toHexString());
    const { ids, costs } = await walk(7, async (after) => {
      const { data, cost } = await run('query ($after: ID) { books(first: 7, after: $after) { id } }', { after });
      return { ids: (data.books as Array<{ id: string }>).map((book) => book.id), roundTrips: cost.roundTrips, estimated: cost.estimatedRoundTrips };
    });
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(expected.length);
    expect(costs).toEqual(Array.from({ length: Math.floor(expected.length / 7) + 1 }, () => [1, 1]));
  }, 60_000);

  it("a publisher's books, 7 at a time (ordered by _id: the anchor is read only to check that it is this publisher's)", async () => {
    const publisher = (await db().collection('publishers').findOne({}, { sort: { _id: 1 } }))!;
    const expected = (await db().collection('books').find({ publisherId: publisher._id }, { sort: { _id: 1 } }).toArray()).map((book) => book._id.toHexString());
    expect(expected.length).toBeGreaterThan(14);
    const { ids, costs } = await walk(7, async (after) => {
      const { data, cost } = await run('query ($id: ID!, $after: ID) { publisher(id: $id) { books(first: 7, after: $after) { id } } }', { id: publisher._id.toHexString(), after });
      return { ids: (data.publisher as { books: Array<{ id: string }> }).books.map((book) => book.id), roundTrips: cost.roundTrips, estimated: cost.estimatedRoundTrips };
    });
    expect(ids).toEqual(expected);
    // The publisher and its first page; then the publisher, the anchor and the page.
    expect(costs).toEqual(Array.from({ length: Math.floor(expected.length / 7) + 1 }, (_, page) => (page === 0 ? [2, 2] : [3, 3])));
  });
});

describe('round trips of an anchored page', () => {
  it("another post's comment as `after` is BAD_USER_INPUT: the post and the anchor are read, no page", async () => {
    const other = (await db().collection('posts').findOne({ _id: { $ne: post._id } }, { sort: { _id: 1 } }))!;
    const anchor = expectedComments[4]!;
    const result = await demo.gateway.execute({ query: `{ post(id: "${other._id.toHexString()}") { id comments(first: 3, after: "${anchor}") { id } } }` });
    expect(result.errors?.map((error) => [error.extensions?.code, error.path, error.message])).toEqual([
      ['BAD_USER_INPUT', ['post', 'comments'], `after: Comment "${anchor}" is not in this parent's Post.comments; pass the id of an item this list returned for this parent`],
    ]);
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 3 });
  });

  it('the commands: a find by _id for the anchor (with its post key), then the aggregate with the keyset condition', async () => {
    const result = await demo.gateway.execute({ query: `{ post(id: "${post._id.toHexString()}") { comments(first: 3, after: "${expectedComments[0]}") { id } } }` }, { costHeader: 'commands' });
    expect(result.errors).toBeUndefined();
    expect(result.cost!.commands!.map((command) => [command.collection, command.command, command.filter, command.fields])).toEqual([
      ['posts', 'find', { _id: '?' }, ['Query.post']],
      ['comments', 'find', { _id: { $in: '?' } }, ['Post.comments']],
      [
        'comments',
        'aggregate',
        {
          $and: [
            { postId: '?' },
            {
              // Each branch guarded against a createdAt array placed elsewhere by another element ($nor).
              $or: [
                {
                  $or: [{ createdAt: { $lt: '?' } }, { createdAt: { $type: '?' } }, { createdAt: '?' }, { createdAt: { $exists: '?' } }, { createdAt: { $eq: '?' } }],
                  $nor: [{ createdAt: { $type: '?' } }, { createdAt: { $gte: '?' } }],
                },
                { createdAt: { $eq: '?' }, $or: [{ _id: { $lt: '?' } }, { _id: { $type: '?' } }, { _id: '?' }], $nor: [{ createdAt: { $type: '?' } }, { createdAt: { $gt: '?' } }] },
              ],
            },
          ],
        },
        ['Post.comments'],
      ],
    ]);
  });

  it('two aliases paging after the same comment share the anchor read and one aggregate: 1 + 1 + 1', async () => {
    const after = expectedComments[1]!;
    const { data, cost } = await run(`{ post(id: "${post._id.toHexString()}") { a: comments(first: 3, after: "${after}") { id } b: comments(first: 2, after: "${after}") { id author } } }`);
    // The estimate counts each alias's anchor and aggregate apart (an upper bound): 5.
    expect(cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 5 });
    const page = data.post as { a: Array<{ id: string }>; b: Array<{ id: string }> };
    expect(page.a.map((comment) => comment.id)).toEqual(expectedComments.slice(2, 5));
    expect(page.b.map((comment) => comment.id)).toEqual(expectedComments.slice(2, 4));
  });

  it('the same page on one post: the post, the anchor, the aggregate', async () => {
    const { data, cost } = await run(`{ post(id: "${post._id.toHexString()}") { comments(first: 3, after: "${expectedComments[2]}") { id } } }`);
    expect(data).toEqual({ post: { comments: expectedComments.slice(3, 6).map((id) => ({ id })) } });
    expect(cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 3 });
  });
});

describe('an anchor already in the loader cache costs nothing', () => {
  /** An inline schema where a post also joins its newest comments by key, so their documents are cached by _id. */
  const SDL = /* GraphQL */ `
    scalar DateTime
    type Query { post(id: ID!): Post commentsByTime(first: Int = 20, after: ID): [Comment!]! }
    type Post @collection(name: "posts") {
      id: ID!
      pinned: [Comment!]! @join(localField: "recentComments._id")
      comments(first: Int = 20, after: ID): [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
    }
    type Comment @collection(name: "comments") {
      id: ID!
      createdAt: DateTime!
      post: Post @join(localField: "postId")
    }
  `;
  let client: MongoClient;
  let gateway: Gateway;
  beforeAll(async () => {
    client = await connectMongo(demo.mongo.uri);
    const resolvers = {
      DateTime: new GraphQLScalarType<Date, string>({ name: 'DateTime', serialize: (value) => (value as Date).toISOString() }),
      Query: {
        post: (_parent: unknown, args: { id: string }, context: GatewayContext, info: GraphQLResolveInfo) => context.documents.findOne(info, 'Post', { _id: new ObjectId(args.id) }),
        commentsByTime: (_parent: unknown, args: { first?: number; after?: string }, context: GatewayContext, info: GraphQLResolveInfo) =>
          context.documents.findMany(info, 'Comment', { sort: '-createdAt', first: args.first, after: args.after }),
      },
    };
    gateway = await createCheckedGateway({
      db: client.db(demo.dbName),
      mongoClient: client,
      mongoKind: 'embedded',
      ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
      typeDefs: [directiveTypeDefs, SDL],
      resolvers,
      listen: false,
      validateDatabase: false,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await client?.close();
  });

  it('a pinned comment fetched with its createdAt anchors the nested page without a read', async () => {
    const pinned = (post.recentComments as Array<{ _id: ObjectId }>).map((comment) => comment._id.toHexString());
    expect(pinned).toEqual(expectedComments.slice(0, 3));
    const query = (anchor: string, selection: string) =>
      `{ post(id: "${post._id.toHexString()}") { pinned { ${selection} post { comments(first: 2, after: "${anchor}") { id } } } } }`;
    // The post, the pinned comments by _id (with createdAt), one aggregate: the anchor comes from the cache.
    const cached = await gateway.execute({ query: query(pinned[0]!, 'id createdAt') });
    expect(cached.errors).toBeUndefined();
    expect(cached.cost).toMatchObject({ roundTrips: 3 });
    const comments = (cached.data as { post: { pinned: Array<{ post: { comments: Array<{ id: string }> } }> } }).post.pinned.map((each) => each.post.comments.map((c) => c.id));
    expect(comments).toEqual([expectedComments.slice(1, 3), expectedComments.slice(1, 3), expectedComments.slice(1, 3)]);
    // Without createdAt in the cached copy, the anchor is read: one more round trip.
    const uncached = await gateway.execute({ query: query(pinned[0]!, 'id') });
    expect(uncached.errors).toBeUndefined();
    expect(uncached.cost).toMatchObject({ roundTrips: 4 });
    expect(uncached.data).toEqual({ post: { pinned: comments.map((ids, i) => ({ id: pinned[i], post: { comments: ids.map((id) => ({ id })) } })) } });
  });

  it('findMany pages `after` an item of a root list ordered by anything but _id by reading its sort values first (estimated)', async () => {
    const firstPage = await gateway.execute({ query: '{ commentsByTime(first: 2) { id } }' });
    expect(firstPage.errors).toBeUndefined();
    const [, second] = (firstPage.data!.commentsByTime as Array<{ id: string }>).map((comment) => comment.id);
    const result = await gateway.execute({ query: `{ commentsByTime(first: 4, after: "${second}") { id } }` });
    expect(result.errors).toBeUndefined();
    const all = await gateway.execute({ query: '{ commentsByTime(first: 6) { id } }' });
    expect(result.data).toEqual({ commentsByTime: (all.data!.commentsByTime as unknown[]).slice(2, 6) });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });
});
