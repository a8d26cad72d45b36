import { directiveTypeDefs } from 'docjoin';
import { ObjectId, type CommandStartedEvent, type MongoClient } from 'mongodb';
import type { GraphQLResolveInfo } from 'graphql';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, type Gateway, type GatewayContext } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/** Join semantics on a tiny fixture with an inline schema: key order, dangling references, shared batches, $slice. */
const SDL = /* GraphQL */ `
  type Query { shelves: [Shelf!]! threads: [Thread!]! }
  type Shelf @collection(name: "shelves") {
    id: ID!
    label: String! @path(path: "meta.label")
    books: [Book!]! @join(localField: "bookIds")
    favourite: Book @join(localField: "favouriteId")
    pinned: [Book!]! @snapshot(path: "pinned", fields: ["id", "title"]) @join(localField: "pinned.id") @read(strategy: SNAPSHOT)
  }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    year: Int!
    notes: [Note!]! @join(localField: "_id", foreignField: "bookId", sort: "_id", limit: 5)
    tags: [Tag!]! @join(localField: "series", foreignField: "series", sort: "code", limit: 10)
  }
  type Note @collection(name: "notes") { id: ID! text: String! }
  type Tag @collection(name: "tags") { id: ID! code: String! }
  type Thread @collection(name: "threads") { id: ID! messages(first: Int = 2): [Message!]! @embedded(path: "msgs") }
  type Message { text: String! }
`;

const list = (typeName: string) => (_parent: unknown, _args: unknown, context: GatewayContext, info: GraphQLResolveInfo) =>
  context.documents.findMany(info, typeName, { first: 20 });

const [b1, b2, b3, b4, gone, gone2] = Array.from({ length: 6 }, (_, i) => new ObjectId(`65b00000000000000000000${i + 1}`));

let mongo: TestMongo;
let client: MongoClient;
let gateway: Gateway;
let databaseName: string;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('joins');
  databaseName = db.databaseName;
  await db.collection('books').insertMany([
    { _id: b1!, title: 'One', year: 2001 },
    { _id: b2!, title: 'Two', year: 2002 },
    { _id: b3!, title: 'Three', year: 2003 },
    { _id: b4!, title: 'Four', year: 2004 },
  ]);
  await db.collection('shelves').insertMany([
    { _id: new ObjectId('65c000000000000000000001'), meta: { label: 'A' }, bookIds: [b3, b1, gone, b2], favouriteId: b4, pinned: [{ id: b2, title: 'Two' }, { id: gone, title: 'Ghost' }] },
    { _id: new ObjectId('65c000000000000000000002'), meta: { label: 'B' }, bookIds: [b1, b1], favouriteId: gone2, pinned: [] },
  ]);
  await db.collection('notes').insertMany([
    { bookId: b1, text: 'on one' },
    { bookId: b1, text: 'more on one' },
    { bookId: b4, text: 'on four' },
    { bookId: [b2, b3], text: 'on two and three' },
  ]);
  await db.collection('notes').createIndex({ bookId: 1, _id: 1 });
  // Tags of a series, a key that is not _id: a tag of no series is no tag of a book of none.
  await db.collection('tags').insertMany([{ series: 'sf', code: 'b' }, { series: 'sf', code: 'a' }, { code: 'stray' }]);
  await db.collection('tags').createIndex({ series: 1, code: 1, _id: 1 });
  await db.collection('books').updateOne({ _id: b1! }, { $set: { series: 'sf' } });
  await db.collection('threads').insertOne({ _id: new ObjectId('65d000000000000000000001'), msgs: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({
    db: client.db(db.databaseName),
    mongoClient: client,
    mongoKind: 'embedded',
    ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
    typeDefs: [directiveTypeDefs, SDL],
    resolvers: { Query: { shelves: list('Shelf'), threads: list('Thread') } },
    listen: false,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

describe('join by key', () => {
  it('keeps the order of the key array, drops dangling references from lists, nulls them for single fields, and counts them', async () => {
    const { data, errors, cost } = await gateway.execute({ query: '{ shelves { label books { title } favourite { title } } }' });
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      shelves: [
        { label: 'A', books: [{ title: 'Three' }, { title: 'One' }, { title: 'Two' }], favourite: { title: 'Four' } },
        { label: 'B', books: [{ title: 'One' }, { title: 'One' }], favourite: null },
      ],
    });
    // Shelf.books and Shelf.favourite join books by _id in the same tick: one shared $in query.
    expect(cost!.roundTrips).toBe(2);
    expect(cost!.collections).toEqual({ shelves: { roundTrips: 1, documents: 2 }, books: { roundTrips: 1, documents: 4 } });
    expect(cost!.fields).toEqual({
      'Shelf.books': { strategy: 'join', roundTrips: 1, documents: 3, keys: 6, dangling: 1 },
      'Shelf.favourite': { strategy: 'join', roundTrips: 1, documents: 1, keys: 2, dangling: 1 },
    });
  });

  it('counts in naiveRoundTrips every parent with a key, dangling or not: a naive resolver sends its query either way', async () => {
    const third = new ObjectId('65c000000000000000000003');
    const collection = client.db(databaseName).collection('shelves');
    await collection.insertOne({ _id: third, meta: { label: 'C' }, bookIds: [gone, gone2], favouriteId: gone, pinned: [] });
    try {
      const books = await gateway.execute({ query: '{ shelves { books { title } } }' });
      expect(books.data).toEqual({ shelves: [{ books: [{ title: 'Three' }, { title: 'One' }, { title: 'Two' }] }, { books: [{ title: 'One' }, { title: 'One' }] }, { books: [] }] });
      expect(books.cost).toMatchObject({ roundTrips: 2, naiveRoundTrips: 1 + 3, fields: { 'Shelf.books': { keys: 8, dangling: 3 } } });
      const favourites = await gateway.execute({ query: '{ shelves { favourite { title } } }' });
      expect(favourites.data).toEqual({ shelves: [{ favourite: { title: 'Four' } }, { favourite: null }, { favourite: null }] });
      expect(favourites.cost).toMatchObject({ roundTrips: 2, naiveRoundTrips: 1 + 3, fields: { 'Shelf.favourite': { keys: 3, dangling: 2 } } });
    } finally {
      await collection.deleteOne({ _id: third });
    }
  });

  it('a snapshot is a copy: it keeps serving an entry whose target was deleted, where the join (and the snapshot\'s own fallback) drops and counts it', async () => {
    // Shelf A's pinned copy lists `gone`, deleted from books without the copy being maintained (drift).
    // Reading the copy sends no query, so it cannot know; the join sees the reference dangle.
    const fits = await gateway.execute({ query: '{ shelves { pinned { id title } } }' });
    expect(fits.data).toEqual({ shelves: [{ pinned: [{ id: b2!.toHexString(), title: 'Two' }, { id: gone!.toHexString(), title: 'Ghost' }] }, { pinned: [] }] });
    expect(fits.cost!.roundTrips).toBe(1);
    expect(fits.cost!.fields['Shelf.pinned']).toEqual({ strategy: 'snapshot', roundTrips: 0, documents: 0, keys: 0, snapshotHits: 2, snapshotMisses: 0 });

    const joined = await gateway.execute({ query: '{ shelves { pinned { id title } } }' }, { strategyHeader: 'Shelf.pinned=join' });
    expect(joined.data).toEqual({ shelves: [{ pinned: [{ id: b2!.toHexString(), title: 'Two' }] }, { pinned: [] }] });
    expect(joined.cost!.fields['Shelf.pinned']).toEqual({ strategy: 'join', roundTrips: 1, documents: 1, keys: 2, dangling: 1 });

    const misses = await gateway.execute({ query: '{ shelves { pinned { title year } } }' });
    expect(misses.data).toEqual({ shelves: [{ pinned: [{ title: 'Two', year: 2002 }] }, { pinned: [] }] });
    expect(misses.cost!.roundTrips).toBe(2);
    expect(misses.cost!.fields['Shelf.pinned']).toEqual({ strategy: 'snapshot', roundTrips: 1, documents: 1, keys: 2, snapshotHits: 0, snapshotMisses: 2, dangling: 1 });
  });
});

describe('a copy without its key', () => {
  // Startup refuses sampled copies without their key; a write after it can still store one.
  const shelfC = new ObjectId('65c000000000000000000003');
  beforeAll(() => client.db(databaseName).collection('shelves').insertOne({ _id: shelfC, meta: { label: 'C' }, bookIds: [], pinned: [{ id: b2, title: 'Two' }, { id: null, title: 'nullkey' }, { title: 'nokey' }] }));
  afterAll(() => client.db(databaseName).collection('shelves').deleteOne({ _id: shelfC }));

  it('names no target: the snapshot leaves it out, as the join and the lookup skip a null reference', async () => {
    for (const strategyHeader of ['', 'Shelf.pinned=join', 'Shelf.pinned=lookup']) {
      const result = await gateway.execute({ query: '{ shelves { label pinned { id title } } }' }, { strategyHeader });
      expect([strategyHeader, result.errors, (result.data as { shelves: Array<{ label: string }> }).shelves.find((shelf) => shelf.label === 'C')]).toEqual([
        strategyHeader,
        undefined,
        { label: 'C', pinned: [{ id: b2!.toHexString(), title: 'Two' }] },
      ]);
    }
  });
});

describe('embedded with first', () => {
  it('projects a $slice and returns the first n', async () => {
    const started: CommandStartedEvent[] = [];
    const listener = (event: CommandStartedEvent) => started.push(event);
    client.on('commandStarted', listener);
    try {
      const result = await gateway.execute({ query: '{ threads { messages { text } one: messages(first: 1) { text } } }' });
      expect(result.data).toEqual({ threads: [{ messages: [{ text: 'a' }, { text: 'b' }], one: [{ text: 'a' }] }] });
    } finally {
      client.off('commandStarted', listener);
    }
    expect(started.map((event) => event.command.projection)).toEqual([{ _id: 1, msgs: { $slice: 2 } }]);
  });

  it('plans the $slice of a variable anew for each request of the same document (a literal one is planned once per plan)', async () => {
    const query = 'query ($n: Int) { threads { messages(first: $n) { text } } }';
    const projections = async (variables: Record<string, unknown>) => {
      const started: CommandStartedEvent[] = [];
      const listener = (event: CommandStartedEvent) => started.push(event);
      client.on('commandStarted', listener);
      try {
        const result = await gateway.execute({ query, variables });
        return { texts: (result.data as { threads: Array<{ messages: Array<{ text: string }> }> }).threads[0]!.messages.map((message) => message.text), projections: started.map((event) => event.command.projection) };
      } finally {
        client.off('commandStarted', listener);
      }
    };
    expect(await projections({ n: 1 })).toEqual({ texts: ['a'], projections: [{ _id: 1, msgs: { $slice: 1 } }] });
    expect(await projections({ n: 3 })).toEqual({ texts: ['a', 'b', 'c'], projections: [{ _id: 1, msgs: { $slice: 3 } }] });
    expect(await projections({ n: 1 })).toEqual({ texts: ['a'], projections: [{ _id: 1, msgs: { $slice: 1 } }] });
  });

  it('rejects first over the cap', async () => {
    const result = await gateway.execute({ query: '{ threads { messages(first: 101) { text } } }' });
    expect(result.errors![0]).toMatchObject({ message: 'first must be between 0 and 100, got 101', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('read by lookup, as the join reads', () => {
  const query = '{ shelves { books { title notes { text } tags { code } } favourite { title notes { text } } } }';

  it('answers what the join answers: key order and repeats, a child holding an array of keys (a child of each, as MongoDB matches it), a parent without its key', async () => {
    const joined = await gateway.execute({ query });
    const looked = await gateway.execute({ query }, { strategyHeader: 'Book.notes=lookup,Book.tags=lookup' });
    expect(looked.errors).toBeUndefined();
    expect(looked.data).toEqual(joined.data);
    const shelves = (looked.data as { shelves: Array<{ books: Array<{ title: string; notes: unknown[]; tags: Array<{ code: string }> }> }> }).shelves;
    expect(shelves[0]!.books.map((book) => [book.title, book.notes.length, book.tags.map((tag) => tag.code)])).toEqual([['Three', 1, []], ['One', 2, ['a', 'b']], ['Two', 1, []]]);
    // The books of no series looked up no tag (the stray one has no series either): only One's two, sent once in the
    // books' command, which reads One once for its three places.
    expect(looked.cost!.fields['Book.tags']).toMatchObject({ strategy: 'lookup', documents: 2 });
  });

  it('a shared batch whose loads look up different things is read apart: the documents of one are not looked up for the other', async () => {
    const looked = await gateway.execute({ query: '{ shelves { books { title notes { text } } favourite { title } } }' }, { strategyHeader: 'Book.notes=lookup', costHeader: 'commands' });
    expect(looked.errors).toBeUndefined();
    const commands = looked.cost!.commands!.map((command) => `${command.command} ${command.collection}`);
    // The shelves, then the books with their notes, and the favourites apart (a find): the estimate counts both.
    expect(commands).toEqual(['find shelves', 'aggregate books', 'find books']);
    expect(looked.cost).toMatchObject({ roundTrips: 3, estimatedRoundTrips: 3 });
  });
});
