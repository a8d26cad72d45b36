import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A copy (a snapshot, an embedded document) shows what it holds however the value around it is reached:
 * a JSON document holding a copy, grouped, ordered or paged by; a copy inside a copied value; a join
 * whose key is stored inside a copy. Each holds a value role "member" may not see.
 */
const typeDefs = /* GraphQL */ `
  scalar JSON
  type Query {
    users(first: Int = 20): [User!]! @list(sort: "name")
    posts(first: Int = 20): [Post!]! @list(sort: "title")
    postsByMeta(first: Int = 20): [Post!]! @list(sort: "meta")
    postPage(first: Int = 20, after: String, orderBy: PostOrder): PostConnection! @list(sort: "title")
    postsAggregate: PostAggregate! @aggregate(of: "posts", groupBy: ["meta", "title"])
    people(first: Int = 20): [Person!]! @list(sort: "name")
    notesByMeta(first: Int = 20): [Note!]! @list(sort: "meta")
  }
  enum PostOrder { TITLE @sort(by: "title") META @sort(by: "meta") }
  type PostConnection { edges: [PostEdge!]! pageInfo: PageInfo! }
  type PostEdge { cursor: String! node: Post! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Address @access(roles: ["member"], allow: [READ], hide: ["secret", "ownerId"]) {
    city: String
    secret: String
    ownerId: ID
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ], hide: ["ssn", "managerId"]) {
    id: ID!
    name: String!
    ssn: String
    managerId: ID
    profile: JSON
    address: Address @embedded(path: "profile.address")
  }
  type Writer @collection(name: "writers") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    home: Address @embedded
    homeSecret: String @path(path: "home.secret")
  }
  type Note @collection(name: "notes") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    title: String!
    meta: JSON
    writer: Writer @snapshot(path: "meta.writer", fields: ["id", "name", "homeSecret"]) @join(localField: "meta.writer.id") @read(strategy: SNAPSHOT)
  }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    title: String!
    meta: JSON
    author: User @snapshot(path: "meta.author", fields: ["id", "name", "ssn", "profile", "managerId"]) @join(localField: "meta.author.id") @read(strategy: SNAPSHOT)
    authorProfile: JSON @path(path: "meta.author.profile")
    authorManager: User @join(localField: "meta.author.managerId")
  }
  type Person @collection(name: "people") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    home: Address @embedded
    homeOwner: User @join(localField: "home.ownerId")
  }
`;

const member: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'u1', claims: { sub: 'u1' } } as Viewer;
const secret = 'TOPSECRET-42';
const alice = new ObjectId('0000000000000000000000a1');
const boss = new ObjectId('0000000000000000000000ff');

let served: SdlGateway;
beforeAll(async () => {
  served = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_copies_inside_values',
    prepare: async (db) => {
      const profile = { bio: 'hi', address: { city: 'Oslo', secret } };
      await db.collection('users').insertMany([
        { _id: alice, name: 'Alice', ssn: secret, managerId: boss, profile },
        { _id: boss, name: 'Boss', profile: {} },
      ]);
      await db.collection('posts').insertOne({ _id: new ObjectId('0000000000000000000000b1'), title: 'T', meta: { tag: 'x', author: { id: alice, name: 'Alice', ssn: secret, profile, managerId: boss } } });
      await db.collection('people').insertOne({ _id: new ObjectId('0000000000000000000000c1'), name: 'P', home: { city: 'Rome', secret, ownerId: boss } });
      await db.collection('users').createIndex({ name: 1, _id: 1 });
      await db.collection('posts').createIndex({ title: 1, _id: 1 });
      await db.collection('posts').createIndex({ meta: 1, _id: 1 });
      await db.collection('people').createIndex({ name: 1, _id: 1 });
      await db.collection('writers').insertOne({ _id: alice, name: 'Alice', home: { city: 'Oslo', secret } });
      await db.collection('notes').insertOne({ _id: new ObjectId('0000000000000000000000d1'), title: 'N', meta: { writer: { id: alice, name: 'Alice', homeSecret: secret } } });
      await db.collection('notes').createIndex({ meta: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined } as never,
  });
}, 120_000);
afterAll(async () => served?.stop());

async function refusal(query: string): Promise<string> {
  const result = await served.gateway.execute({ query }, { viewer: member });
  expect(JSON.stringify(result)).not.toContain(secret);
  expect(JSON.stringify(result)).not.toContain(boss.toHexString());
  expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
  return result.errors![0]!.message;
}

it('a JSON document holding a snapshot copy is refused when grouped, ordered or paged by, as when selected', async () => {
  expect(await refusal('{ posts { meta } }')).toContain('Post.author (a copy of User at "meta.author")');
  expect(await refusal('{ postsAggregate { groupBy(by: [META]) { key { meta } count } } }')).toBe(
    'Query.postsAggregate groups by "meta", which holds Post.author (a copy of User at "meta.author"), which holds fields hidden from role "member"',
  );
  expect(await refusal('{ postsByMeta { title } }')).toContain('sorts by "meta", which holds Post.author');
  // A cursor holds the values it pages by.
  expect(await refusal('{ postPage(orderBy: META) { edges { cursor } } }')).toContain('sorts by "meta", which holds Post.author');
});

it('a field over a copied value holding another copy (an embedded Address inside the copied profile) is refused', async () => {
  expect(await refusal('{ users { profile } }')).toContain('User.address (a copy of Address at "profile.address"), which holds fields hidden from role "member"');
  expect(await refusal('{ posts { authorProfile } }')).toBe(
    'Post.authorProfile reads "profile", which holds User.address (a copy of Address at "profile.address"), which holds fields hidden from role "member"',
  );
});

it('a snapshot copying a field that the copied type stores inside an embedded type hiding it is refused read whole or ordered by', async () => {
  expect(await refusal('{ notesByMeta { title } }')).toBe('Query.notesByMeta sorts by "meta", which holds Address.secret, which is hidden from role "member"');
  expect(await refusal('{ notesByMeta { meta } }')).toContain('Address.secret, which is hidden from role "member"');
});

it('a join by a key stored inside a copy, where the copied type hides it, is refused', async () => {
  expect(await refusal('{ posts { authorManager { id } } }')).toBe('Post.authorManager joins by User.managerId, which is hidden from role "member"');
  expect(await refusal('{ people { homeOwner { id } } }')).toBe('Person.homeOwner joins by Address.ownerId, which is hidden from role "member"');
});

it('what the copies let the role see still answers', async () => {
  const result = await served.gateway.execute({ query: '{ posts { title author { name } } postPage(orderBy: TITLE) { edges { node { title } } } people { name home { city } } }' }, { viewer: member });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ posts: [{ title: 'T', author: { name: 'Alice' } }], postPage: { edges: [{ node: { title: 'T' } }] }, people: [{ name: 'P', home: { city: 'Rome' } }] });
});

describe('copies that lead back to the path being checked', () => {
  // An embedded B inside A holds a snapshot of A, whose copied field A itself reads at "b.s.f": the copy
  // holds a field stored inside a copy, which no write would move, so startup refuses it before the
  // access rules are checked (their walks along copies stop where a path comes back, as the loop guard
  // in hiddenInCopyOnPath and OperationAccess does).
  const loopDefs = /* GraphQL */ `
    scalar JSON
    type Query { as(first: Int = 20): [A!]! @list(sort: "name") }
    type B @access(roles: ["member"], allow: [READ]) {
      n: Int
      s: A @snapshot(path: "s", fields: ["id", "f"]) @join(localField: "s.id") @read(strategy: JOIN)
    }
    type A @collection(name: "as") @access(roles: ["member"], allow: [READ]) {
      id: ID!
      name: String!
      b: B @embedded
      raw: JSON @path(path: "b")
      f: Int @path(path: "b.s.f")
    }
  `;
  const refusal = 'A.b.s: @snapshot copies A.f, stored at "b.s.f" inside A.b.s, a @snapshot copy, which the writes keep in the as documents only, so its copies here would never move';

  it('are refused at startup, with or without a @counter keyed by such a path', async () => {
    expect(await startupOutcome(loopDefs, 'access_copies_loop', ['as'])).toContain(refusal);
    const counted = loopDefs.replace('f: Int @path(path: "b.s.f")', 'f: Int @path(path: "b.s.f")\n      kids: [A!]! @join(localField: "_id", foreignField: "b.s.f")\n      kidCount: Int! @counter(of: "A.kids")');
    expect(counted).toContain('kidCount');
    expect(await startupOutcome(counted, 'access_copies_loop_counter', async (db) => void (await db.collection('as').createIndex({ 'b.s.f': 1, _id: 1 })))).toContain(refusal);
  }, 60_000);
});
