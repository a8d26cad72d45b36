import { BSON, DBRef, EJSON } from 'bson';
import { ObjectId, type MongoClient } from 'mongodb';
import { buildStorageMap, connectMongo, StorageConfigError, withDirectiveTypeDefs, type Gateway } from 'docjoin';
import { buildSchema } from 'graphql';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Relay connections, at the root (`@list`) and on a reverse join: opaque keyset cursors valid for one
 * list, one order and one parent; hasNextPage from one item more; totalCount as ONE extra batched count
 * for every parent of a level, only when selected.
 */
const SDL = /* GraphQL */ `
  type Query {
    shelves(first: Int = 100): [Shelf!]! @list
    shelf(id: ID!): Shelf @find
    books(first: Int, after: String, orderBy: BookOrder): BookConnection! @list(sort: "title")
  }
  enum Genre { FICTION SCIENCE }
  enum BookOrder { NEWEST @sort(by: "-year") TITLE @sort(by: "title") }
  type Shelf @collection(name: "shelves") {
    id: ID!
    name: String!
    books(first: Int = 3, after: String, genre: Genre, orderBy: BookOrder): BookConnection!
      @join(localField: "_id", foreignField: "shelfId", sort: "title")
  }
  type BookConnection { edges: [BookEdge!]! nodes: [Book!]! pageInfo: PageInfo! totalCount: Int! }
  type BookEdge { cursor: String! node: Book! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    year: Int!
    genre: Genre!
    shelf: Shelf @join(localField: "shelfId")
  }
`;

interface BookRow { _id: ObjectId; shelfId: ObjectId; title: string; year: number; genre: string }
const shelves = Array.from({ length: 20 }, (_, i) => ({ _id: new ObjectId(), name: `Shelf ${String(i).padStart(2, '0')}` }));
// Shelf i holds i % 6 books: some none, some fewer than a page, some several pages. Years repeat, so
// the `_id` tie-breaker decides the order within a year.
const books: BookRow[] = shelves.flatMap((shelf, i) =>
  Array.from({ length: i % 6 }, (_, j) => ({ _id: new ObjectId(), shelfId: shelf._id, title: `T${String((i * 7 + j * 5) % 23).padStart(2, '0')}-${i}-${j}`, year: 2000 + (j % 2), genre: j % 3 === 0 ? 'SCIENCE' : 'FICTION' })),
);
const booksOf = (shelf: { _id: ObjectId }) => books.filter((book) => book.shelfId.equals(shelf._id));
const byTitle = (a: BookRow, b: BookRow) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
const newestFirst = (a: BookRow, b: BookRow) => b.year - a.year || (b._id.toHexString() < a._id.toHexString() ? -1 : 1);

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('connections');
  await db.collection('shelves').insertMany(shelves);
  await db.collection('books').insertMany(books);
  await db.collection('books').createIndex({ shelfId: 1, title: 1, _id: 1 });
  await db.collection('books').createIndex({ shelfId: 1, year: -1, _id: -1 });
  await db.collection('books').createIndex({ title: 1, _id: 1 });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: db.databaseName, listen: false, onWarning: () => undefined });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

interface Page {
  totalCount?: number;
  edges: Array<{ cursor: string; node: { title: string } }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function run(query: string, variables: Record<string, unknown> = {}) {
  const result = await gateway.execute({ query, variables });
  return result;
}

it('a connection with totalCount on 20 parents: the parents, then ONE aggregate for the pages and the counts', async () => {
  const result = await run(`{ shelves(first: 20) { name books(first: 2) {
    totalCount edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`);
  expect(result.errors).toBeUndefined();
  // The count goes through the books' batcher with the page: one command ($unionWith).
  expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, collections: { books: expect.objectContaining({ roundTrips: 1 }) } });
  const pages = (result.data as { shelves: Array<{ name: string; books: Page }> }).shelves;
  expect(pages.map((shelf) => ({ name: shelf.name, total: shelf.books.totalCount, titles: shelf.books.edges.map((edge) => edge.node.title), next: shelf.books.pageInfo.hasNextPage }))).toEqual(
    shelves.map((shelf) => {
      const own = booksOf(shelf).sort(byTitle);
      return { name: shelf.name, total: own.length, titles: own.slice(0, 2).map((book) => book.title), next: own.length > 2 };
    }),
  );
  for (const { books: page } of pages) {
    expect(page.pageInfo.hasPreviousPage).toBe(false);
    expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
    expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
  }
});

it('without totalCount there is no count; with only totalCount there is no page', async () => {
  const pageOnly = await run('{ shelves(first: 20) { books(first: 2) { edges { node { title } } } } }');
  expect(pageOnly.errors).toBeUndefined();
  expect(pageOnly.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  const countOnly = await run('{ shelves(first: 20) { books { totalCount } } }');
  expect(countOnly.errors).toBeUndefined();
  expect(countOnly.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, collections: { shelves: expect.anything(), books: expect.objectContaining({ roundTrips: 1, documents: 16 }) } });
  expect((countOnly.data as { shelves: Array<{ books: { totalCount: number } }> }).shelves.map((shelf) => shelf.books.totalCount)).toEqual(shelves.map((shelf) => booksOf(shelf).length));
});

it('two levels of connections: one aggregate per level for the page and the count', async () => {
  const result = await run('{ shelves(first: 20) { books(first: 2) { totalCount edges { node { title shelf { name books(first: 1) { totalCount nodes { title } } } } } } } }');
  expect(result.errors).toBeUndefined();
  // shelves; level 1: page and count together; the books' shelves (the root list read no name: one find); level 2: page and count together.
  expect(result.cost).toMatchObject({ roundTrips: 4, estimatedRoundTrips: 4 });
  const pages = (result.data as { shelves: Array<{ books: { edges: Array<{ node: { shelf: { name: string; books: { totalCount: number; nodes: Array<{ title: string }> } } } }> } }> }).shelves;
  for (const [i, shelf] of shelves.entries()) {
    for (const edge of pages[i]!.books.edges) {
      expect(edge.node.shelf).toEqual({ name: shelf.name, books: { totalCount: booksOf(shelf).length, nodes: booksOf(shelf).sort(byTitle).slice(0, 1).map((book) => ({ title: book.title })) } });
    }
  }
});

describe('cursors round-trip', () => {
  const shelf = shelves[5]!; // 5 books

  async function walk(args: string, first: number): Promise<{ titles: string[]; pages: number }> {
    const titles: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const result = await run(`query ($id: ID!, $after: String) { shelf(id: $id) { books(first: ${first}, after: $after${args}) { totalCount edges { node { title } } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`, {
        id: shelf._id.toHexString(),
        after,
      });
      expect(result.errors).toBeUndefined();
      // The shelf, then the page and the count in one command: a cursor costs no extra read.
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
      const page = (result.data as { shelf: { books: Page } }).shelf.books;
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      titles.push(...page.edges.map((edge) => edge.node.title));
      pages += 1;
      if (!page.pageInfo.hasNextPage) return { titles, pages };
      after = page.pageInfo.endCursor;
    }
  }

  it('in the list order: every item once, pages of `first`', async () => {
    expect(await walk('', 2)).toEqual({ titles: booksOf(shelf).sort(byTitle).map((book) => book.title), pages: 3 });
  });

  it('in an orderBy order with ties broken by _id, and under a filter', async () => {
    expect(await walk(', orderBy: NEWEST', 2)).toEqual({ titles: booksOf(shelf).sort(newestFirst).map((book) => book.title), pages: 3 });
    const fiction = booksOf(shelf).filter((book) => book.genre === 'FICTION').sort(byTitle).map((book) => book.title);
    expect(await walk(', genre: FICTION', 1)).toEqual({ titles: fiction, pages: fiction.length });
  });

  it('at the root: a find of first + 1, and the count only when selected', async () => {
    const titles: string[] = [];
    let after: string | null = null;
    for (;;) {
      const result = await run('query ($after: String) { books(first: 7, after: $after) { totalCount nodes { title } pageInfo { hasNextPage endCursor } } }', { after });
      expect(result.errors).toBeUndefined();
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
      const page = (result.data as { books: { totalCount: number; nodes: Array<{ title: string }>; pageInfo: Page['pageInfo'] } }).books;
      expect(page.totalCount).toBe(books.length);
      titles.push(...page.nodes.map((node) => node.title));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(titles).toEqual([...books].sort((a, b) => byTitle(a, b) || (a._id.toHexString() < b._id.toHexString() ? -1 : 1)).map((book) => book.title));
    const withoutCount = await run('{ books(first: 3) { edges { node { title shelf { name } } } } }');
    expect(withoutCount.errors).toBeUndefined();
    // The page, then the shelves of its books in one batch.
    expect(withoutCount.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });
});

describe('a cursor is valid for its own list, order and parent only', () => {
  async function cursorOf(query: string): Promise<string> {
    const result = await run(query);
    expect(result.errors).toBeUndefined();
    return JSON.stringify(result.data).match(/"endCursor":"([^"]+)"/)![1]!;
  }
  const onShelf = (i: number, after: string, extra = '') => run(`{ shelf(id: "${shelves[i]!._id.toHexString()}") { books(first: 1, after: ${JSON.stringify(after)}${extra}) { edges { node { title } } } } }`);

  it("another parent's cursor is BAD_USER_INPUT, and nothing is read for the field", async () => {
    const cursor = await cursorOf(`{ shelf(id: "${shelves[4]!._id.toHexString()}") { books(first: 1) { pageInfo { endCursor } } } }`);
    const result = await onShelf(5, cursor);
    expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', "after: the cursor is from another parent's Shelf.books; pass a cursor this field returned for this parent"],
    ]);
    // The shelf only: the page was refused before it was read.
    expect(result.cost).toMatchObject({ roundTrips: 1 });
  });

  it("another order's or another list's cursor is BAD_USER_INPUT", async () => {
    const cursor = await cursorOf(`{ shelf(id: "${shelves[5]!._id.toHexString()}") { books(first: 1) { pageInfo { endCursor } } } }`);
    const otherOrder = await onShelf(5, cursor, ', orderBy: NEWEST');
    expect(otherOrder.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(otherOrder.errors?.[0]?.message).toMatch(/^after: the cursor is from another list or another order than this Shelf\.books/);
    const atRoot = await run(`{ books(first: 1, after: ${JSON.stringify(cursor)}) { edges { cursor } } }`);
    expect(atRoot.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(atRoot.cost).toMatchObject({ roundTrips: 0, estimatedRoundTrips: 0 });
  });

  it('a forged cursor is BAD_USER_INPUT with nothing sent: garbage, an id, a value nested too deep (also inside a DBRef), an invalid date, and an operator object in a cursor of Extended JSON', async () => {
    const valid = await cursorOf('{ books(first: 1) { pageInfo { endCursor } } }');
    const body = BSON.deserialize(Buffer.from(valid, 'base64url').subarray(1), { promoteValues: false }) as { l: string; v: unknown[] };
    // Cursors issued before their version byte: Extended JSON, where an object keyed `$…` cannot be told from a type.
    const extendedJson = (values: unknown[]) => Buffer.from(EJSON.stringify({ l: body.l, v: values }, { relaxed: false })).toString('base64url');
    const withOperator = extendedJson([{ $gt: '' }, body.v[1]]);
    const withNestedOperator = extendedJson([[{ name: { $ne: null } }], body.v[1]]);
    // MongoDB refuses a filter nested past 100 levels: a value this deep would fail there, not here.
    const nestedTooDeep = Buffer.concat([Buffer.of(1), BSON.serialize({ l: body.l, v: [JSON.parse(`${'['.repeat(100)}1${']'.repeat(100)}`), body.v[1]] })]).toString('base64url');
    const deepInsideReference = Buffer.concat([Buffer.of(1), BSON.serialize({ l: body.l, v: [new DBRef('shelves', JSON.parse(`${'['.repeat(100)}1${']'.repeat(100)}`)), body.v[1]] })]).toString('base64url');
    const invalidDate = Buffer.from(JSON.stringify({ l: body.l, v: [{ $date: 'not a date' }, body.v[1]] })).toString('base64url');
    for (const forged of ['not a cursor!', shelves[0]!._id.toHexString(), withOperator, withNestedOperator, nestedTooDeep, deepInsideReference, invalidDate, valid.slice(0, -4), '']) {
      const result = await run('query ($after: String) { books(first: 2, after: $after) { edges { node { title } } } }', { after: forged });
      expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(result.cost).toMatchObject({ roundTrips: 0 });
    }
  });

  it('reads a cursor of Extended JSON issued before the version byte, and compares an object keyed `$…` in a cursor of BSON as a value', async () => {
    const query = 'query ($after: String) { books(first: 2, after: $after) { edges { node { title } } } }';
    const valid = await cursorOf('{ books(first: 1) { pageInfo { endCursor } } }');
    const body = BSON.deserialize(Buffer.from(valid, 'base64url').subarray(1), { promoteValues: false }) as { l: string; v: unknown[] };
    const extendedJson = Buffer.from(EJSON.stringify(body, { relaxed: false })).toString('base64url');
    const [current, earlier] = await Promise.all([run(query, { after: valid }), run(query, { after: extendedJson })]);
    expect(current.errors).toBeUndefined();
    expect(earlier.errors).toBeUndefined();
    expect(earlier.data).toEqual(current.data);
    const operatorShaped = Buffer.concat([Buffer.of(1), BSON.serialize({ l: body.l, v: [{ $gt: '' }, body.v[1]] })]).toString('base64url');
    const atIt = await run(query, { after: operatorShaped });
    expect(atIt.errors).toBeUndefined();
    expect(atIt.cost).toMatchObject({ roundTrips: 1 });
  });

  it('first over the cap is BAD_USER_INPUT; first: 0 still answers hasNextPage', async () => {
    const over = await run('{ books(first: 101) { totalCount } }');
    expect(over.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(over.cost).toMatchObject({ roundTrips: 0 });
    const none = await run('{ books(first: 0) { edges { cursor } pageInfo { hasNextPage endCursor } } }');
    expect(none.data).toEqual({ books: { edges: [], pageInfo: { hasNextPage: true, endCursor: null } } });
  });
});

it('an unknown sort or an operator object in a filter is BAD_USER_INPUT, with nothing sent', async () => {
  const id = shelves[5]!._id.toHexString();
  const query = 'query ($id: ID!, $order: BookOrder, $genre: Genre) { shelf(id: $id) { books(orderBy: $order, genre: $genre) { totalCount edges { cursor } } } }';
  for (const variables of [{ order: 'OLDEST' }, { genre: { $ne: null } }, { order: { $natural: 1 } }]) {
    const result = await run(query, { id, ...variables });
    expect([variables, result.errors?.map((error) => error.extensions?.code)]).toEqual([variables, ['BAD_USER_INPUT']]);
    expect(result.cost).toMatchObject({ roundTrips: 0 });
  }
});

describe('schema checks at startup', () => {
  const problemsOf = (sdl: string): string[] => {
    try {
      buildStorageMap(buildSchema(withDirectiveTypeDefs(sdl).join('\n')));
    } catch (error) {
      if (error instanceof StorageConfigError) return [...error.problems];
      throw error;
    }
    return [];
  };
  const types = /* GraphQL */ `
    type Query { shelves: [Shelf!]! @list }
    type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type BookEdge { cursor: String! node: Book! }
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Book @collection(name: "books") { id: ID! title: String! }
  `;

  it('a connection pages a reverse join, forward, without a join limit', () => {
    expect(problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! books: BookConnection! @join(localField: "bookIds") }`)).toEqual([
      'Shelf.books: a connection pages a reverse @join (foreignField other than _id); a join by key reads the keys the parent holds, so return [Book!]! instead',
    ]);
    expect(problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! books: BookConnection! @embedded }`)).toEqual([
      'Shelf.books: a connection pages a reverse @join; @embedded keeps the documents in the parent, so return [Book!]! there instead',
    ]);
    expect(problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! books: BookConnection! @join(localField: "_id", foreignField: "shelfId", limit: 5) }`)).toEqual([
      'Shelf.books: @join(limit: 5) bounds the list, but a connection pages through all of it; remove limit',
    ]);
    expect(problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! books(after: ID): BookConnection! @join(localField: "_id", foreignField: "shelfId") }`)).toEqual([
      'Shelf.books: argument "after" must be of type String',
    ]);
  });

  it("a connection orders by values the schema shows, since its cursors carry them: not a path no field declares, nor a whole embedded document", () => {
    const sorted = (sort: string, extra = '') =>
      problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! } extend type Query { books(after: String, orderBy: BookOrder): BookConnection! @list(sort: "${sort}") }
        enum BookOrder { BY_COVER @sort(by: "cover") BY_COVER_COLOUR @sort(by: "cover.colour") }
        extend type Book { cover: Cover @embedded ${extra} } type Cover { colour: String }`);
    expect(sorted('-internalScore')).toEqual([
      'Query.books: its cursors carry the values it is ordered by, which any client can decode, but its @list sorts by "internalScore", which no field of Book declares: the cursors would show its values; declare a field for it, or sort by a declared one',
      'Query.books: its cursors carry the values it is ordered by, which any client can decode, but orderBy: BY_COVER sorts by "cover", the whole Book.cover: the cursors would carry every field stored there, also those Cover does not declare; sort by fields inside it',
    ]);
    expect(sorted('-internalScore', 'score: Float @path(path: "internalScore")')).toEqual([
      'Query.books: its cursors carry the values it is ordered by, which any client can decode, but orderBy: BY_COVER sorts by "cover", the whole Book.cover: the cursors would carry every field stored there, also those Cover does not declare; sort by fields inside it',
    ]);
    // A list paged by `after: ID` keeps its values in the documents: its order is not checked so.
    expect(problemsOf(`${types} type Shelf @collection(name: "shelves") { id: ID! } extend type Query { bookList(after: ID): [Book!]! @list(sort: "-internalScore") }`)).toEqual([]);
  });

  it('the connection types must have the Relay shape', () => {
    expect(
      problemsOf(/* GraphQL */ `
        type Query { books(after: String): BookConnection! @list }
        type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int extra: String }
        type BookEdge { cursor: String node: Book! score: Float }
        type PageInfo { hasNextPage: Boolean! startCursor: String endCursor: String }
        type Book @collection(name: "books") { id: ID! title: String! }
      `),
    ).toEqual([
      'BookConnection.edges: edge type BookEdge needs cursor: String!',
      'BookConnection.edges: BookEdge.score: docjoin resolves an edge\'s node and cursor only; remove score',
      'BookConnection.pageInfo: PageInfo needs hasPreviousPage: Boolean!',
      'BookConnection.totalCount: must be Int!',
      'BookConnection.extra: docjoin resolves a connection\'s edges, pageInfo, totalCount and nodes only; remove extra (or resolve it in a type of its own)',
    ]);
  });
});
