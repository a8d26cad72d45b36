import { ObjectId, type MongoClient } from 'mongodb';
import { connectMongo, type Gateway } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Filters and orderBy on reverse-join lists: they go into the batched aggregate the field already
 * sends, so the round trips stay one per level and each parent gets exactly its own page.
 */
const SDL = /* GraphQL */ `
  type Query { shelves(first: Int = 100): [Shelf!]! @list shelf(id: ID!): Shelf @find }
  enum Genre { FICTION SCIENCE }
  enum BookOrder { NEWEST @sort(by: "-year") TITLE @sort(by: "title") }
  type Shelf @collection(name: "shelves") {
    id: ID!
    name: String!
    books(first: Int = 10, after: ID, genre: Genre, minYear: Int @filter(field: "year", op: GTE), orderBy: BookOrder): [Book!]!
      @join(localField: "_id", foreignField: "shelfId", sort: "title")
    "By key: the shelf keeps the ids, in its own order."
    featured(genre: Genre, minYear: Int @filter(field: "year", op: GTE), orderBy: BookOrder): [Book!]! @join(localField: "featuredIds")
    "A snapshot of title and genre: filters and orders on those are served from the copies."
    picks(genre: Genre, orderBy: BookOrder): [Book!]! @snapshot(path: "picks", fields: ["id", "title", "genre"]) @join(localField: "picks.id") @read(strategy: SNAPSHOT)
    labels(first: Int = 2, text: String @filter(field: "text", op: PREFIX), orderBy: LabelOrder): [Label!]! @embedded
  }
  type Label { text: String! rank: Int! }
  enum LabelOrder { RANK @sort(by: "rank") }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    year: Int!
    genre: Genre!
    notes(first: Int = 5, minStars: Int @filter(field: "stars", op: GTE)): [Note!]! @join(localField: "_id", foreignField: "bookId", sort: "-stars")
    "The two best notes, kept in the book: a filter needs them all, so it goes to the join."
    topNotes(minStars: Int @filter(field: "stars", op: GTE)): [Note!]!
      @embedded @join(collection: "notes", localField: "_id", foreignField: "bookId", sort: "-stars", limit: 2) @read(strategy: EMBEDDED)
  }
  type Note @collection(name: "notes") { id: ID! stars: Int! }
`;

interface BookRow { _id: ObjectId; shelfId: ObjectId; title: string; year: number; genre: string }
interface NoteRow { _id: ObjectId; bookId: ObjectId; stars: number }
const shelves = Array.from({ length: 50 }, (_, i) => ({ _id: new ObjectId(), name: `Shelf ${String(i).padStart(2, '0')}` }));
const books: BookRow[] = shelves.flatMap((shelf, i) =>
  Array.from({ length: 4 }, (_, j) => ({ _id: new ObjectId(), shelfId: shelf._id, title: `Book ${String.fromCharCode(65 + ((i + j) % 4))}${j}`, year: 2000 + ((i * 3 + j) % 5), genre: j % 2 === 0 ? 'FICTION' : 'SCIENCE' })),
);
const LABELS = [
  { text: 'alpha', rank: 3 },
  { text: 'beta', rank: 1 },
  { text: 'alpine', rank: 2 },
];
// Each shelf features, and keeps a snapshot of, the four books of the next shelf, last first.
const nextShelfBooks = (i: number) => books.filter((book) => book.shelfId.equals(shelves[(i + 1) % shelves.length]!._id)).reverse();
const notes: NoteRow[] = books.flatMap((book, i) => Array.from({ length: 3 }, (_, j) => ({ _id: new ObjectId(), bookId: book._id, stars: 1 + ((i + j * 2) % 5) })));

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
let dbName: string;
const warnings: string[] = [];
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('relation_filters');
  dbName = db.databaseName;
  await db.collection('shelves').insertMany(
    shelves.map((shelf, i) => ({ ...shelf, labels: LABELS, featuredIds: nextShelfBooks(i).map((book) => book._id), picks: nextShelfBooks(i).map((book) => ({ id: book._id, title: book.title, genre: book.genre })) })),
  );
  const bestNotes = (book: BookRow) =>
    notes
      .filter((note) => note.bookId.equals(book._id))
      .sort((a, b) => b.stars - a.stars || (b._id.toHexString() < a._id.toHexString() ? -1 : 1))
      .slice(0, 2);
  await db.collection('books').insertMany(books.map((book) => ({ ...book, topNotes: bestNotes(book) })));
  await db.collection('notes').insertMany(notes);
  await db.collection('books').createIndex({ shelfId: 1, title: 1, _id: 1 });
  await db.collection('notes').createIndex({ bookId: 1, stars: -1, _id: -1 });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: dbName, listen: false, onWarning: (message) => warnings.push(message) });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const byYearThenId = (a: BookRow, b: BookRow) => b.year - a.year || (b._id.toHexString() < a._id.toHexString() ? -1 : 1);
const notesOf = (book: BookRow, minStars: number) =>
  notes
    .filter((note) => note.bookId.equals(book._id) && note.stars >= minStars)
    .sort((a, b) => b.stars - a.stars || (b._id.toHexString() < a._id.toHexString() ? -1 : 1))
    .slice(0, 5)
    .map((note) => ({ stars: note.stars }));

it('a filtered and sorted reverse join, two levels deep over 50 parents: one aggregate per level', async () => {
  const result = await gateway.execute({
    query: '{ shelves(first: 50) { name books(genre: FICTION, minYear: 2001, orderBy: NEWEST, first: 2) { title year notes(minStars: 3) { stars } } } }',
  });
  expect(result.errors).toBeUndefined();
  expect(result.cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 3 });
  const expected = shelves.map((shelf) => ({
    name: shelf.name,
    books: books
      .filter((book) => book.shelfId.equals(shelf._id) && book.genre === 'FICTION' && book.year >= 2001)
      .sort(byYearThenId)
      .slice(0, 2)
      .map((book) => ({ title: book.title, year: book.year, notes: notesOf(book, 3) })),
  }));
  expect(result.data).toEqual({ shelves: expected });
});

it('two aliases of one relation with different filters still batch: each parent gets exactly its own page of each', async () => {
  const result = await gateway.execute({ query: '{ shelves(first: 50) { fiction: books(genre: FICTION) { title } science: books(genre: SCIENCE, orderBy: TITLE) { title } } }' });
  expect(result.errors).toBeUndefined();
  // The shelves, then ONE aggregate for both pages of every shelf (a tagged $unionWith branch each).
  expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  const titles = (shelf: { _id: ObjectId }, genre: string) =>
    books
      .filter((book) => book.shelfId.equals(shelf._id) && book.genre === genre)
      .map((book) => book.title)
      .sort()
      .map((title) => ({ title }));
  expect(result.data).toEqual({ shelves: shelves.map((shelf) => ({ fiction: titles(shelf, 'FICTION'), science: titles(shelf, 'SCIENCE') })) });
});

it('pages after an item in the chosen order, reading that item first', async () => {
  const shelf = shelves[7]!;
  const ordered = books.filter((book) => book.shelfId.equals(shelf._id)).sort(byYearThenId);
  const result = await gateway.execute({ query: `{ shelf(id: "${shelf._id.toHexString()}") { books(orderBy: NEWEST, first: 2, after: "${ordered[0]!._id.toHexString()}") { title } } }` });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ shelf: { books: ordered.slice(1, 3).map((book) => ({ title: book.title })) } });
  // The shelf, the anchor, the page.
  expect(result.cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 3 });
});

describe('by key and from a snapshot', () => {
  const expectedFor = (i: number, keep: (book: BookRow) => boolean, order?: (a: BookRow, b: BookRow) => number) => {
    const listed = nextShelfBooks(i).filter(keep);
    return (order ? listed.sort(order) : listed).map((book) => ({ title: book.title }));
  };
  const byTitle = (a: BookRow, b: BookRow) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a._id.toHexString() < b._id.toHexString() ? -1 : 1);

  it('a by-key list filters and orders the documents of the one batched find (key order without orderBy)', async () => {
    const result = await gateway.execute({ query: '{ shelves(first: 50) { featured(minYear: 2002, orderBy: NEWEST) { title } all: featured(genre: SCIENCE) { title } } }' });
    expect(result.errors).toBeUndefined();
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(result.data).toEqual({
      shelves: shelves.map((_, i) => ({ featured: expectedFor(i, (book) => book.year >= 2002, byYearThenId), all: expectedFor(i, (book) => book.genre === 'SCIENCE') })),
    });
  });

  it('a snapshot serves a filter and an order on copied fields from the copies; another order falls back to the join, with the same answer', async () => {
    const copies = await gateway.execute({ query: '{ shelves(first: 50) { picks(genre: FICTION, orderBy: TITLE) { title } } }' });
    expect(copies.errors).toBeUndefined();
    expect(copies.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1, fields: { 'Shelf.picks': { snapshotHits: 200 } } });
    expect(copies.data).toEqual({ shelves: shelves.map((_, i) => ({ picks: expectedFor(i, (book) => book.genre === 'FICTION', byTitle) })) });
    const joined = await gateway.execute({ query: '{ shelves(first: 50) { picks(genre: FICTION, orderBy: TITLE) { title } } }' }, { strategyHeader: 'Shelf.picks=join' });
    expect(joined.data).toEqual(copies.data);
    expect(joined.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    const fallback = await gateway.execute({ query: '{ shelves(first: 50) { picks(orderBy: NEWEST) { title } } }' });
    expect(fallback.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Shelf.picks': { snapshotMisses: 200 } } });
    expect(fallback.data).toEqual({ shelves: shelves.map((_, i) => ({ picks: expectedFor(i, () => true, byYearThenId) })) });
  });
});

it('warns at startup about each declared order and filter of a reverse join that no index serves, with the index that would (Book.notes is served)', () => {
  expect(warnings).toEqual([
    'Shelf.books: no index serves its order { year: -1, _id: -1 } for each parent; create one with db.books.createIndex({ shelfId: 1, year: -1, _id: -1 })',
    'Shelf.books: argument "genre" filters books.genre, which no index on shelfId covers; create one with db.books.createIndex({ shelfId: 1, genre: 1, title: 1, _id: 1 })',
    'Shelf.books: argument "minYear" filters books.year, which no index on shelfId covers; create one with db.books.createIndex({ shelfId: 1, year: 1, title: 1, _id: 1 })',
  ]);
});

it('bad arguments are BAD_USER_INPUT with nothing sent for the field', async () => {
  for (const args of ['first: 101', 'after: "nope"']) {
    const result = await gateway.execute({ query: `{ shelves(first: 1) { books(genre: FICTION, ${args}) { title } } }` });
    expect([args, result.errors?.[0]?.extensions?.code, result.cost?.roundTrips]).toEqual([args, 'BAD_USER_INPUT', 1]);
  }
});

it('an embedded array is filtered, ordered and cut in place; an embedded copy of a join hands a filter to its join', async () => {
  const labels = await gateway.execute({ query: '{ shelves(first: 2) { labels(text: "al", orderBy: RANK, first: 1) { text } all: labels { text } } }' });
  expect(labels.errors).toBeUndefined();
  expect(labels.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  expect(labels.data).toEqual({ shelves: [0, 1].map(() => ({ labels: [{ text: 'alpine' }], all: [{ text: 'alpha' }, { text: 'beta' }] })) });

  const query = (args: string) => `{ shelves(first: 2) { books(first: 1) { topNotes${args} { stars } } } }`;
  const embedded = await gateway.execute({ query: query('') });
  expect(embedded.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Book.topNotes': { strategy: 'embedded' } } });
  const filtered = await gateway.execute({ query: query('(minStars: 4)') });
  expect(filtered.errors).toBeUndefined();
  expect(filtered.cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 3, fields: { 'Book.topNotes': { strategy: 'join' } } });
  const firstBook = (shelf: { _id: ObjectId }) => books.filter((book) => book.shelfId.equals(shelf._id)).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a._id.toHexString() < b._id.toHexString() ? -1 : 1))[0]!;
  expect(filtered.data).toEqual({ shelves: shelves.slice(0, 2).map((shelf) => ({ books: [{ topNotes: notesOf(firstBook(shelf), 4).slice(0, 2) }] })) });
});
