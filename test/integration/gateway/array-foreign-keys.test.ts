import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A reverse join whose children hold the parent key in an array (`tagIds`), or through one
 * (`credits.authorId`): MongoDB's equality matches a child by each element, so a child listing several
 * parents (and nulls, or elements without the key) is a child of each, in each parent's order and page, by join and by lookup alike, and counts
 * for each in a connection's totalCount and an aggregate's figures.
 */
const SDL = /* GraphQL */ `
  type Query { tags: [Tag!]! @list tag(id: ID!): Tag @find authors: [Author!]! @list }
  type Tag @collection(name: "tags") {
    id: ID!
    name: String!
    posts: [Post!]! @join(localField: "_id", foreignField: "tagIds", sort: "title")
    latest(first: Int = 2): [Post!]! @join(localField: "_id", foreignField: "tagIds", sort: "-title")
    newest: Post @join(localField: "_id", foreignField: "tagIds", sort: "-title")
    postsConnection(first: Int = 2, after: String): PostConnection! @join(localField: "_id", foreignField: "tagIds", sort: "title")
    postsAggregate: PostAggregate! @aggregate(of: "posts", fields: ["words"])
    page(first: Int = 1, after: ID): [Post!]! @join(localField: "_id", foreignField: "tagIds", sort: "title")
  }
  type PostConnection { edges: [PostEdge!]! nodes: [Post!]! pageInfo: PageInfo! totalCount: Int! }
  type PostEdge { cursor: String! node: Post! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Post @collection(name: "posts") { id: ID! title: String! words: Int! tagIds: [ID!]! }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    credited(first: Int = 2): [Book!]! @join(localField: "_id", foreignField: "credits.authorId", sort: "title")
    reviewed: [Book!]! @join(localField: "_id", foreignField: "credits.reviewerIds", sort: "title")
    reviewedAggregate: BookAggregate! @aggregate(of: "reviewed")
  }
  type Book @collection(name: "books") { id: ID! title: String! credits: [Credit!]! @embedded }
  type Credit { role: String! }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
const [red, blue, green] = [oid(1), oid(2), oid(3)];
const [ann, bob] = [oid(11), oid(12)];

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'array_foreign_keys',
    prepare: async (db) => {
      await db.collection('tags').insertMany([
        { _id: red, name: 'red' },
        { _id: blue, name: 'blue' },
        { _id: green, name: 'green' },
      ]);
      await db.collection('posts').insertMany([
        { _id: oid(101), title: 'a', words: 1, tagIds: [red] },
        { _id: oid(102), title: 'b', words: 10, tagIds: [red, blue] },
        { _id: oid(103), title: 'c', words: 100, tagIds: [blue, red, blue] },
        { _id: oid(104), title: 'd', words: 1000, tagIds: blue },
        { _id: oid(105), title: 'e', words: 10000, tagIds: [] },
      ]);
      await db.collection('posts').createIndex({ tagIds: 1, title: 1, _id: 1 });
      await db.collection('authors').insertMany([
        { _id: ann, name: 'Ann' },
        { _id: bob, name: 'Bob' },
      ]);
      await db.collection('books').insertMany([
        { _id: oid(201), title: 'solo', credits: [{ authorId: ann, role: 'writer', reviewerIds: [ann, bob, ann] }] },
        // A credit naming no one (null, or no authorId at all) leaves the book a child of the others.
        { _id: oid(202), title: 'duo', credits: [{ authorId: ann, role: 'writer', reviewerIds: [bob] }, { authorId: bob, role: 'editor', reviewerIds: [ann] }, { authorId: null, role: 'ghost' }] },
        { _id: oid(203), title: 'edited', credits: [{ authorId: bob, role: 'editor' }, { role: 'proofreader' }] },
      ]);
      await db.collection('books').createIndex({ 'credits.authorId': 1, title: 1, _id: 1 });
      await db.collection('books').createIndex({ 'credits.reviewerIds': 1, title: 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(() => subject?.stop());

const titles = (posts: Array<{ title: string }>) => posts.map((post) => post.title);

it('answers each parent every child listing its key, in its order and page, by join and by lookup', async () => {
  const query = '{ tags { name posts { title } latest { title } newest { title } } authors { name credited { title } } }';
  const expected = {
    tags: [
      { name: 'red', posts: [{ title: 'a' }, { title: 'b' }, { title: 'c' }], latest: [{ title: 'c' }, { title: 'b' }], newest: { title: 'c' } },
      { name: 'blue', posts: [{ title: 'b' }, { title: 'c' }, { title: 'd' }], latest: [{ title: 'd' }, { title: 'c' }], newest: { title: 'd' } },
      { name: 'green', posts: [], latest: [], newest: null },
    ],
    authors: [
      { name: 'Ann', credited: [{ title: 'duo' }, { title: 'solo' }] },
      { name: 'Bob', credited: [{ title: 'duo' }, { title: 'edited' }] },
    ],
  };
  for (const strategyHeader of ['', 'Tag.posts=join,Tag.latest=join,Tag.newest=join,Author.credited=join', 'Tag.posts=lookup,Tag.latest=lookup,Tag.newest=lookup,Author.credited=lookup']) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, expected]);
  }
});

it('pages a connection over such children and counts each child for every parent it lists', async () => {
  const result = await subject.gateway.execute({ query: '{ tags { name postsConnection { nodes { title } pageInfo { hasNextPage } totalCount } } }' });
  expect(result.errors).toBeUndefined();
  expect((result.data as { tags: Array<{ name: string; postsConnection: { nodes: Array<{ title: string }>; pageInfo: unknown; totalCount: number } }> }).tags.map((tag) => [tag.name, titles(tag.postsConnection.nodes), tag.postsConnection.pageInfo, tag.postsConnection.totalCount])).toEqual([
    ['red', ['a', 'b'], { hasNextPage: true }, 3],
    ['blue', ['b', 'c'], { hasNextPage: true }, 3],
    ['green', [], { hasNextPage: false }, 0],
  ]);
});

it('aggregates such children for each parent they list, once each', async () => {
  const result = await subject.gateway.execute({ query: '{ tags { name postsAggregate { count sum { words } } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({
    tags: [
      { name: 'red', postsAggregate: { count: 3, sum: { words: 111 } } },
      { name: 'blue', postsAggregate: { count: 3, sum: { words: 1110 } } },
      { name: 'green', postsAggregate: { count: 0, sum: { words: 0 } } },
    ],
  });
});

it('matches keys in arrays inside the elements of an array (credits.reviewerIds), each child once per parent', async () => {
  const query = '{ authors { name reviewed { title } reviewedAggregate { count } } }';
  const expected = {
    authors: [
      { name: 'Ann', reviewed: [{ title: 'duo' }, { title: 'solo' }], reviewedAggregate: { count: 2 } },
      { name: 'Bob', reviewed: [{ title: 'duo' }, { title: 'solo' }], reviewedAggregate: { count: 2 } },
    ],
  };
  for (const strategyHeader of ['Author.reviewed=join', 'Author.reviewed=lookup']) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, expected]);
  }
});

it('pages after a child that lists several parents, in each of their lists', async () => {
  const b = oid(102).toHexString();
  const query = `{ red: tag(id: "${red.toHexString()}") { page(after: "${b}") { title } } blue: tag(id: "${blue.toHexString()}") { page(after: "${b}") { title } } }`;
  for (const strategyHeader of ['Tag.page=join', 'Tag.page=lookup']) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, { red: { page: [{ title: 'c' }] }, blue: { page: [{ title: 'c' }] } }]);
  }
  // Not in green's list: the cursor names no item of it.
  const notListed = await subject.gateway.execute({ query: `{ tag(id: "${green.toHexString()}") { page(after: "${b}") { title } } }` });
  expect(notListed.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
});
