import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Pages over an order whose field holds an array in some document. MongoDB sorts such a document by its
 * smallest element ascending (largest descending), so a cursor or `after:` anchor stands there
 * (sortPosition), and the next page holds neither it again nor a document another of whose elements
 * sorts before the position: walked page by page, every item comes once, in MongoDB's order. (The page
 * had held the whole array, and `$gt: ['z', 'a']` matches arrays only: every later item was lost.)
 */
const typeDefs = /* GraphQL */ `
  type Query {
    bookPage(first: Int = 2, after: String, orderBy: BookOrder): BookConnection! @list(sort: "title")
    bookList(first: Int = 2, after: ID, orderBy: BookOrder): [Book!]! @list(sort: "title")
    publisher(id: ID!): Publisher @find
  }
  enum BookOrder { RANK_DESC @sort(by: "-rank") }
  type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! }
  type BookEdge { cursor: String! node: Book! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Book @collection(name: "books") { id: ID! name: String! title: String rank: Float }
  type Publisher @collection(name: "publishers") {
    id: ID!
    bookPage(first: Int = 2, after: String, orderBy: BookOrder): BookConnection! @join(localField: "_id", foreignField: "publisherId", sort: "title")
  }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
const publisher = oid(0x101);
const books = [
  { _id: oid(1), name: 'b1', title: 'a', rank: 3, publisherId: publisher },
  { _id: oid(2), name: 'b2', title: ['z', 'a'], rank: [5, -5], publisherId: publisher },
  { _id: oid(3), name: 'b3', title: null, rank: null, publisherId: publisher },
  { _id: oid(4), name: 'b4', title: 'b', rank: 4, publisherId: publisher },
  { _id: oid(5), name: 'b5', title: 'c', rank: 2, publisherId: publisher },
];
// By title: b3 (null), b1 ('a'), b2 (at 'a', a later _id), b4, b5; by -rank: b2 (at 5), b4, b1, b5, b3.
const BY_TITLE = ['b3', 'b1', 'b2', 'b4', 'b5'];
const BY_RANK_DESC = ['b2', 'b4', 'b1', 'b5', 'b3'];

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'paging_array_sort_values',
    prepare: async (db) => {
      await db.collection('publishers').insertOne({ _id: publisher });
      await db.collection('books').createIndex({ title: 1, _id: 1 });
      await db.collection('books').createIndex({ rank: -1, _id: -1 });
      await db.collection('books').createIndex({ publisherId: 1, title: 1, _id: 1 });
      await db.collection('books').createIndex({ publisherId: 1, rank: -1, _id: -1 });
    },
  });
  // Written after the start, as later writes are: no startup sample warned of the arrays.
  await s.db.collection('books').insertMany(books);
}, 60_000);
afterAll(() => s?.stop());

interface Page {
  readonly edges: ReadonlyArray<{ readonly node: { readonly name: string } }>;
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
}

/** Every name a connection gives, page after page (at most 10 pages). */
async function walk(field: (after: string) => string, pageOf: (data: Record<string, unknown>) => Page): Promise<string[]> {
  const seen: string[] = [];
  let after = '';
  for (let pages = 0; pages < 10; pages++) {
    const result = await s.gateway.execute({ query: `{ ${field(after === '' ? '' : `, after: ${JSON.stringify(after)}`)} }` });
    expect(result.errors).toBeUndefined();
    const page = pageOf(result.data as Record<string, unknown>);
    seen.push(...page.edges.map((edge) => edge.node.name));
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor!;
  }
  return seen;
}

const SELECTION = '{ edges { node { name } } pageInfo { hasNextPage endCursor } }';
const CASES = [
  ['', BY_TITLE],
  [', orderBy: RANK_DESC', BY_RANK_DESC],
].flatMap(([order, names]) => [1, 2, 3].map((first) => [order as string, first, names as string[]] as const));

it.each(CASES)('a root connection%s, by pages of %i, gives every item once in MongoDB order', async (order, first, names) => {
  expect(await walk((after) => `bookPage(first: ${first}${order}${after}) ${SELECTION}`, (data) => data.bookPage as Page)).toEqual(names);
});

it.each(CASES)("a reverse join's connection%s, by pages of %i, gives every item once in MongoDB order", async (order, first, names) => {
  const pageOf = (data: Record<string, unknown>) => (data.publisher as { bookPage: Page }).bookPage;
  expect(await walk((after) => `publisher(id: "${publisher.toHexString()}") { bookPage(first: ${first}${order}${after}) ${SELECTION} }`, pageOf)).toEqual(names);
});

it('a plain list after the item holding an array goes on with the items MongoDB sorts after it', async () => {
  for (const [order, names] of [['', BY_TITLE], [', orderBy: RANK_DESC', BY_RANK_DESC]] as const) {
    const result = await s.gateway.execute({ query: `{ bookList(first: 5, after: "${oid(2).toHexString()}"${order}) { name } }` });
    expect(result.errors).toBeUndefined();
    expect((result.data as { bookList: Array<{ name: string }> }).bookList.map((book) => book.name)).toEqual(names.slice(names.indexOf('b2') + 1));
  }
});
