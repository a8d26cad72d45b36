import { createHash } from 'node:crypto';
import { ObjectId, type Db, type MongoClient } from 'mongodb';
import { connectMongo, type Gateway, type Viewer } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Non-interference: two databases that differ ONLY in rows the viewer's rules hide (other users, their
 * posts, how many users a group references) must give the viewer the same answers, errors and
 * extensions.cost (less durationMs), whatever path the data takes: joins, lookups, reverse joins,
 * connections (totalCount, cursors, pageInfo), aggregates, and the estimate (a by-key list's measured
 * length is the longest reference array, which counts rows the viewer cannot read).
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    groups(first: Int = 20): [Group!]! @list(sort: "name")
    user(id: ID!): User @find
    posts(first: Int = 20, after: ID, tag: String): [Post!]! @list(sort: "title")
    postsConnection(first: Int = 5, after: String): PostConnection! @list(sort: "title")
    postsAggregate(tag: String): PostAggregate! @aggregate(of: "posts", fields: ["score"], groupBy: ["tag"])
  }
  type PostConnection { edges: [PostEdge!]!  nodes: [Post!]!  pageInfo: PageInfo!  totalCount: Int! }
  type PostEdge { cursor: String!  node: Post! }
  type PageInfo { hasNextPage: Boolean!  hasPreviousPage: Boolean!  startCursor: String  endCursor: String }
  type Group @collection(name: "groups") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    members: [User!]! @join(localField: "memberIds")
    posts(first: Int = 20, after: ID): [Post!]! @join(localField: "_id", foreignField: "groupId", sort: "title")
    postsConnection(first: Int = 5, after: String): PostConnection! @join(localField: "_id", foreignField: "groupId", sort: "title")
    postsAggregate: PostAggregate! @aggregate(of: "posts", fields: ["score"], groupBy: ["tag"])
    lastPoster: User @snapshot(path: "lastPoster", fields: ["id", "name"]) @join(localField: "lastPoster.id") @read(strategy: SNAPSHOT)
    recentPosts: [Post!]! @embedded @join(collection: "posts", localField: "_id", foreignField: "groupId", sort: "-title", limit: 3) @read(strategy: EMBEDDED)
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ], where: [{ field: "id", claim: "sub" }]) {
    id: ID!
    name: String!
  }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    title: String!
    owner: String!
    score: Int!
    tag: String!
    group: Group @join(localField: "groupId")
  }
`;

const me = new ObjectId('0000000000000000000000a1');
const group = new ObjectId('0000000000000000000000f1');
const myPosts = [new ObjectId('0000000000000000000000c1'), new ObjectId('0000000000000000000000c2')];
const hiddenPost = new ObjectId('0000000000000000000000d1');
const viewer: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: me.toHexString(), claims: { sub: me.toHexString() } };

/** World `others`: how many other users the group references, and how many posts they wrote in it. */
async function seed(db: Db, others: number): Promise<void> {
  const otherIds = Array.from({ length: others }, (_, i) => new ObjectId(`0000000000000000000001${i.toString(16).padStart(2, '0')}`));
  await db.collection('users').insertMany([{ _id: me, name: 'Me' }, ...otherIds.map((_id, i) => ({ _id, name: `Other ${i}` }))]);
  const last = otherIds[others - 1]!;
  await db.collection('groups').insertOne({ _id: group, name: 'g', memberIds: [me, ...otherIds], lastPoster: { id: last, name: `Other ${others - 1}` }, recentPosts: [] });
  await db.collection('posts').insertMany([
    { _id: myPosts[0], title: 'm1', owner: me.toHexString(), score: 5, tag: 'x', groupId: group },
    { _id: myPosts[1], title: 'm3', owner: me.toHexString(), score: 7, tag: 'x', groupId: group },
    ...otherIds.map((_id, i) => ({ _id: i === 0 ? hiddenPost : new ObjectId(), title: `m${i % 2 === 0 ? 2 : 4}-${i}`, owner: _id.toHexString(), score: 100 + i, tag: i % 2 === 0 ? 'x' : 'y', groupId: group })),
  ]);
  await db.collection('posts').createIndexes([{ key: { title: 1, _id: 1 } }, { key: { groupId: 1, title: 1, _id: 1 } }, { key: { tag: 1 } }]);
  await db.collection('groups').createIndex({ name: 1, _id: 1 });
  const recent = await db.collection('posts').find({ groupId: group }).sort({ title: -1, _id: -1 }).limit(3).toArray();
  await db.collection('groups').updateOne({ _id: group }, { $set: { recentPosts: recent } });
}

let mongo: TestMongo;
let client: MongoClient;
const gateways: Gateway[] = [];

beforeAll(async () => {
  mongo = await startTestMongo();
  client = await connectMongo(mongo.uri);
  for (const others of [1, 30]) {
    const db = mongo.freshDb(`non_interference_${others}`);
    await seed(db, others);
    gateways.push(await createCheckedGateway({ typeDefs: TYPE_DEFS, mongoClient: client, db: db.databaseName, listen: false, onWarning: () => undefined }));
  }
}, 120_000);
afterAll(async () => {
  for (const gateway of gateways) await gateway.stop();
  await client?.close();
  await mongo?.stop();
});

function comparable(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result, (key, value) => (key === 'durationMs' ? undefined : value)));
}

async function both(query: string, strategyHeader?: string, variables?: Record<string, unknown>): Promise<[unknown, unknown]> {
  const run = (gateway: Gateway) => gateway.execute({ query, ...(variables && { variables }) }, { viewer, ...(strategyHeader && { strategyHeader }) });
  const small = await run(gateways[0]!);
  const large = await run(gateways[1]!);
  return [comparable(small), comparable(large)];
}

const cases: Array<[string, string, string?]> = [
  ['join by key', '{ groups { name members { name } } }'],
  ['join by key, lookup', '{ groups { name members { name } } }', 'Group.members=lookup'],
  ['reverse join', '{ groups { posts(first: 1) { title score } } }'],
  ['reverse join, lookup', '{ groups { posts(first: 1) { title score } } }', 'Group.posts=lookup'],
  ['reverse join after an item', `{ groups { posts(first: 1, after: "${myPosts[0]}") { title } } }`],
  ['reverse join after a hidden item', `{ groups { posts(first: 1, after: "${hiddenPost}") { title } } }`],
  ['connection', '{ groups { postsConnection(first: 1) { totalCount edges { cursor node { title } } pageInfo { hasNextPage endCursor } } } }'],
  ['aggregate of a reverse join', '{ groups { postsAggregate { count sum { score } avg { score } min { score } max { score } groupBy(by: [TAG]) { key { tag } count } } } }'],
  ['root list', '{ posts(first: 1) { title } }'],
  ['root list after', `{ posts(first: 1, after: "${myPosts[0]}") { title } }`],
  ['root list after a hidden item', `{ posts(first: 1, after: "${hiddenPost}") { title } }`],
  ['root connection', '{ postsConnection(first: 1) { totalCount edges { cursor } pageInfo { hasNextPage } } }'],
  ['root aggregate', '{ postsAggregate { count sum { score } groupBy(by: [TAG], order: COUNT_DESC) { key { tag } count } } }'],
  ['root aggregate filtered', '{ postsAggregate(tag: "y") { count } }'],
  ['find a hidden row', `{ user(id: "${new ObjectId('000000000000000000000100')}") { name } }`],
  ['snapshot of a hidden row', '{ groups { lastPoster { id name } } }'],
  ['snapshot of a hidden row, joined', '{ groups { lastPoster { id name } } }', 'Group.lastPoster=join'],
  ['snapshot of a hidden row, lookup', '{ groups { lastPoster { id name } } }', 'Group.lastPoster=lookup'],
  ['bounded embedded array of partly hidden rows', '{ groups { recentPosts { title } } }'],
  ['bounded embedded array, lookup asked', '{ groups { recentPosts { title } } }', 'Group.recentPosts=lookup'],
  ['tampered root cursor', `{ postsConnection(first: 1, after: "${Buffer.from(JSON.stringify({ l: createHash('sha256').update('Query.postsConnection|title,_id').digest('base64url').slice(0, 12), v: ['m2-0', { $oid: '0000000000000000000000d1' }] })).toString('base64url')}") { edges { node { title } } pageInfo { hasNextPage } } }`],
  ['reference back up', '{ posts { group { name members { name } } } }'],
];

describe('a viewer cannot tell two worlds apart that differ only in what it may not read', () => {
  it.each(cases.map(([name, query, strategy]) => ({ name, query, strategy })))('$name', async ({ query, strategy }) => {
    const [small, large] = await both(query, strategy);
    expect(large).toEqual(small);
  });
});
