import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A reverse join with a bound (`@join(limit: 3)`) paged with `after`: the list ends after its bound
 * items, whichever page reaches them, with either strategy that serves the join.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    author(id: ID!): Author @find
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    top3(first: Int = 20, after: ID, name: String): [Book!]! @join(localField: "_id", foreignField: "authorId", sort: "score", limit: 3)
    firstBook(after: ID): Book @join(localField: "_id", foreignField: "authorId", sort: "score")
  }
  type Book @collection(name: "books") {
    id: ID!
    name: String!
  }
`;

const authorId = new ObjectId('00000000000000000000a001');
const otherAuthorId = new ObjectId('00000000000000000000a002');
const bookId = (n: number) => new ObjectId(`00000000000000000000b${String(n).padStart(3, '0')}`);

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'bounded_pages',
    prepare: async (db) => {
      await db.collection('authors').insertMany([
        { _id: authorId, name: 'A1' },
        { _id: otherAuthorId, name: 'A2' },
      ]);
      // Scores in the reverse order of the ids, so the sort is not the _id order.
      await db.collection('books').insertMany([
        ...[1, 2, 3, 4, 5, 6].map((n) => ({ _id: bookId(n), name: `b${n}`, authorId, score: 10 - n })),
        { _id: bookId(7), name: 'other', authorId: otherAuthorId, score: 0 },
      ]);
      await db.collection('books').createIndex({ authorId: 1, score: 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

const PAGE = 'query ($id: ID!, $after: ID, $first: Int) { author(id: $id) { top3(first: $first, after: $after) { name } } }';

async function page(after: string | null, first: number, strategyHeader?: string) {
  const result = await s.gateway.execute({ query: PAGE, variables: { id: authorId.toHexString(), after, first } }, strategyHeader === undefined ? {} : { strategyHeader });
  return result;
}

const names = (result: Awaited<ReturnType<typeof page>>) => (result.data as { author: { top3: Array<{ name: string }> } }).author.top3.map((book) => book.name);

describe.each([
  ['join', undefined],
  ['lookup', 'Author.top3=lookup'],
])('a @join(limit: 3) paged by after (%s)', (_strategy, strategyHeader) => {
  it('pages 2 at a time through the three items of the list, and no further', async () => {
    const first = await page(null, 2, strategyHeader);
    expect(first.errors).toBeUndefined();
    expect(names(first)).toEqual(['b6', 'b5']);
    const second = await page(bookId(5).toHexString(), 2, strategyHeader);
    expect(second.errors).toBeUndefined();
    expect(names(second)).toEqual(['b4']);
    // The author, the anchor, one aggregate.
    expect([second.cost?.roundTrips, second.cost?.estimatedRoundTrips]).toEqual([3, 3]);
    const third = await page(bookId(4).toHexString(), 2, strategyHeader);
    expect(third.errors).toBeUndefined();
    expect(names(third)).toEqual([]);
  });

  it("after an item of this author's beyond the bound: an empty page", async () => {
    const result = await page(bookId(2).toHexString(), 2, strategyHeader);
    expect(result.errors).toBeUndefined();
    expect(names(result)).toEqual([]);
  });

  it('a filtered page after an item the filter leaves out starts after its place in the order', async () => {
    const result = await s.gateway.execute(
      { query: 'query ($id: ID!, $after: ID) { author(id: $id) { top3(name: "b4", after: $after) { name } } }', variables: { id: authorId.toHexString(), after: bookId(5).toHexString() } },
      strategyHeader === undefined ? {} : { strategyHeader },
    );
    expect(result.errors).toBeUndefined();
    expect(names(result)).toEqual(['b4']);
  });

  it("after another author's item: BAD_USER_INPUT, as on an unbounded list", async () => {
    const result = await page(bookId(7).toHexString(), 2, strategyHeader);
    expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});

it('a single-valued reverse join after an item reads the next one', async () => {
  const result = await s.gateway.execute({
    query: 'query ($id: ID!, $after: ID) { author(id: $id) { firstBook(after: $after) { name } } }',
    variables: { id: authorId.toHexString(), after: bookId(4).toHexString() },
  });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ author: { firstBook: { name: 'b3' } } });
});
