import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * graphql-js passes an explicit `first: null` to the resolver as null, not the argument's default.
 * docjoin's pages read it as the field's declared default, like a `first` left out: on a root list, a
 * root connection, a reverse join and an embedded array, inline and through a variable, in the
 * estimate (checked against what ran) as in the answer. Before, null read 20 whatever the SDL declared.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    shelves: [Shelf!]! @list
    bookList(first: Int = 4, after: ID): [Book!]! @list(sort: "title")
    bookPage(first: Int = 5, after: String): BookConnection! @list(sort: "title")
  }
  type Shelf @collection(name: "shelves") {
    id: ID!
    books(first: Int = 3, after: ID): [Book!]! @join(localField: "_id", foreignField: "shelfId", sort: "title")
    held(first: Int = 2): [Book!]! @embedded(path: "held")
  }
  type BookConnection { edges: [BookEdge!]! nodes: [Book!]! pageInfo: PageInfo! }
  type BookEdge { cursor: String! node: Book! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Book @collection(name: "books") { id: ID! title: String! }
`;

const shelf = new ObjectId('6955b90000000000000000f1');
const books = Array.from({ length: 8 }, (_, n) => ({ _id: new ObjectId(), shelfId: shelf, title: `T${n}` }));
let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'first_null',
    prepare: async (db) => {
      await db.collection('shelves').insertOne({ _id: shelf, held: books.map(({ _id, title }) => ({ _id, title })) });
      await db.collection('books').insertMany(books);
      await db.collection('books').createIndex({ shelfId: 1, title: 1, _id: 1 });
      await db.collection('books').createIndex({ title: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

const titles = (count: number) => books.slice(0, count).map(({ title }) => ({ title }));

it.each([
  ['a root list', '{ bookList(first: null) { title } }', 'query ($f: Int) { bookList(first: $f) { title } }', '{ bookList { title } }', { bookList: titles(4) }],
  ['a root connection', '{ bookPage(first: null) { nodes { title } } }', 'query ($f: Int) { bookPage(first: $f) { nodes { title } } }', '{ bookPage { nodes { title } } }', { bookPage: { nodes: titles(5) } }],
  ['a reverse join', '{ shelves { books(first: null) { title } } }', 'query ($f: Int) { shelves { books(first: $f) { title } } }', '{ shelves { books { title } } }', { shelves: [{ books: titles(3) }] }],
  ['an embedded array', '{ shelves { held(first: null) { title } } }', 'query ($f: Int) { shelves { held(first: $f) { title } } }', '{ shelves { held { title } } }', { shelves: [{ held: titles(2) }] }],
])('%s reads first: null as its declared default, as when first is left out', async (_name, inline, byVariable, omitted, expected) => {
  const answers = [await subject.gateway.execute({ query: inline }), await subject.gateway.execute({ query: byVariable, variables: { f: null } }), await subject.gateway.execute({ query: omitted })];
  for (const answer of answers) {
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual(expected);
  }
  // The same commands and the same estimate, whichever spelling.
  expect(new Set(answers.map((answer) => JSON.stringify([answer.cost?.roundTrips, answer.cost?.documents, answer.cost?.estimatedDocuments]))).size).toBe(1);
});

it('a reverse join read by lookup reads first: null as its declared default too', async () => {
  const byLookup = await subject.gateway.execute({ query: '{ shelves { books(first: null) { title } } }' }, { strategyHeader: 'Shelf.books=lookup' });
  expect(byLookup.errors).toBeUndefined();
  expect(byLookup.data).toEqual({ shelves: [{ books: titles(3) }] });
  expect(byLookup.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
});
