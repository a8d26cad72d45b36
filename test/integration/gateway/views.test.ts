import { ObjectId, type Db } from 'mongodb';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/** A type stored in a MongoDB view: read as a collection, its indexes those of the collection it is a view on. */
const SDL = /* GraphQL */ `
  type Query { authors: [Author!]! @list activeBooks: [ActiveBook!]! @list }
  type Author @collection(name: "authors") { id: ID! name: String! active(first: Int = 5): [ActiveBook!]! @join(localField: "_id", foreignField: "authorId", sort: "title") }
  type ActiveBook @collection(name: "activeBooks") { id: ID! title: String! }
`;
const ann = new ObjectId('65e000000000000000000001');

async function startOver(indexed: boolean): Promise<{ subject: SdlGateway; warnings: string[] }> {
  const warnings: string[] = [];
  const subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'views',
    prepare: async (db) => {
      await db.collection('authors').insertOne({ _id: ann, name: 'Ann' });
      await db.collection('books').insertMany([
        { title: 'b', authorId: ann, active: true },
        { title: 'a', authorId: ann, active: false },
        { title: 'c', authorId: ann, active: true },
      ]);
      if (indexed) await db.collection('books').createIndex({ authorId: 1, title: 1, _id: 1 });
      await db.createCollection('activeBooks', { viewOn: 'books', pipeline: [{ $match: { active: true } }] });
    },
    gateway: { onWarning: (warning) => warnings.push(warning) },
  });
  return { subject, warnings };
}

it('starts over a view, reads it at the root and by a reverse join, and checks its indexes on the collection it is a view on', async () => {
  const { subject, warnings } = await startOver(true);
  try {
    const result = await subject.gateway.execute({ query: '{ authors { name active { title } } activeBooks { title } }' });
    expect([result.errors, result.data]).toEqual([undefined, { authors: [{ name: 'Ann', active: [{ title: 'b' }, { title: 'c' }] }], activeBooks: [{ title: 'b' }, { title: 'c' }] }]);
    expect(warnings.filter((warning) => warning.includes('Author.active'))).toEqual([]);
  } finally {
    await subject.stop();
  }
  // Unindexed, startup names the collection to index: the view has no indexes of its own.
  await expect(startOver(false)).rejects.toThrow(
    'Author.active: no index on books.authorId (activeBooks is a view on books); create one with db.books.createIndex({ authorId: 1, title: 1, _id: 1 })',
  );
});

it('refuses at startup a mutation whose write unit writes a view, naming the view and what it is a view on', async () => {
  const typeDefs = /* GraphQL */ `
    type Query { activeBooks: [ActiveBook!]! @list }
    type Mutation {
      renameActiveBook(id: ID!, input: ActiveBookPatch!): ActiveBook! @update
      deleteActiveBook(id: ID!): ID! @delete(type: "ActiveBook")
    }
    input ActiveBookPatch { title: String }
    type ActiveBook @collection(name: "activeBooks") { id: ID! title: String! }
  `;
  const start = startSdlGateway({
    typeDefs,
    dbPrefix: 'views_written',
    prepare: async (db) => {
      await db.collection('books').insertOne({ title: 'b', active: true });
      await db.createCollection('activeBooks', { viewOn: 'books', pipeline: [{ $match: { active: true } }] });
    },
  });
  const fix = 'a MongoDB view on books, which MongoDB cannot write; remove the mutation, or store ActiveBook in a collection';
  await expect(start).rejects.toThrow(`Mutation.renameActiveBook: its write unit writes activeBooks (ActiveBook), ${fix}`);
  await expect(start).rejects.toThrow(`Mutation.deleteActiveBook: its write unit writes activeBooks (ActiveBook), ${fix}`);
});

it('refuses at startup a counter, a snapshot or a bounded array derived from a view: writes to the collection beneath cannot tell which rows it shows', async () => {
  const typeDefs = /* GraphQL */ `
    type Query { authors: [Author!]! @list }
    type Author @collection(name: "authors") {
      id: ID!
      active(first: Int = 5): [ActiveBook!]! @join(localField: "_id", foreignField: "authorId", sort: "title")
      activeCount: Int! @counter(of: "Author.active")
      latest: [ActiveBook!]! @embedded @join(collection: "activeBooks", localField: "_id", foreignField: "authorId", sort: "title", limit: 2) @read(strategy: EMBEDDED)
      favourite: ActiveBook @snapshot(path: "favourite", fields: ["id", "title"]) @join(localField: "favourite.id") @read(strategy: SNAPSHOT)
    }
    type ActiveBook @collection(name: "activeBooks") { id: ID! title: String! }
  `;
  const start = startSdlGateway({
    typeDefs,
    dbPrefix: 'views_derived',
    prepare: async (db) => {
      await db.collection('authors').insertOne({ _id: ann, activeCount: 0, latest: [] });
      await db.collection('books').createIndex({ authorId: 1, title: 1, _id: 1 });
      await db.createCollection('activeBooks', { viewOn: 'books', pipeline: [{ $match: { active: true } }] });
    },
  });
  const drift = (coordinate: string, what: string) =>
    `${coordinate}: its ${what} is derived from activeBooks, a MongoDB view on books; docjoin writes no view, and a write to books cannot tell which rows the view shows, so the ${what} would drift; derive it from a type stored in a collection, or remove it`;
  await expect(start).rejects.toThrow(drift('Author.activeCount', 'counter'));
  await expect(start).rejects.toThrow(drift('Author.latest', 'bounded array'));
  await expect(start).rejects.toThrow(drift('Author.favourite', 'snapshot'));
});

it('refuses at startup what reads a view by _id as one row where its pipeline may repeat _id: a @find by id, a join by id, pages after a row; first alone is served', async () => {
  const typeDefs = (paging: string) => /* GraphQL */ `
    type Query {
      tagged(first: Int = 20${paging}): [Tagged!]! @list
      ${paging === '' ? '' : 'taggedById(id: ID!): Tagged @find'}
    }
    type Pick @collection(name: "picks") { id: ID! ${paging === '' ? '' : 'tagged: Tagged @join(localField: "taggedId")'} }
    type Tagged @collection(name: "taggedBooks") { id: ID! title: String! tags: String! }
  `;
  const prepare = async (db: Db) => {
    await db.collection('books').insertMany([{ _id: ann, title: 'A', tags: ['x', 'y'] }]);
    await db.collection('picks').insertOne({ taggedId: ann });
    await db.createCollection('unwound', { viewOn: 'books', pipeline: [{ $unwind: '$tags' }] });
    await db.createCollection('taggedBooks', { viewOn: 'unwound', pipeline: [{ $match: {} }] });
  };
  const unwound = " (a $lookup's one match is taken by a $set: { field: { $first: '$field' } }, which repeats nothing; add a $match on the field where rows without a match are to go, as $unwind drops them)";
  const repeats = 'but Tagged is stored in the view taggedBooks, which may hold several rows of one _id (unwound\'s $unwind)';
  const refused = await startupOutcome(typeDefs(', after: ID'), 'views_repeating_ids', prepare);
  expect(refused).toContain(`Query.taggedById: @find picks one document by its id, ${repeats}; find it in the collection beneath, or give each row of the view an _id of its own${unwound}`);
  expect(refused).toContain(`Pick.tagged: its @join takes one document per id, ${repeats}; join the collection beneath, or give each row of the view an _id of its own${unwound}`);
  expect(refused).toContain(`Query.tagged: a page after a row (a cursor, or after) starts past every row of its _id, ${repeats}; page it with first alone, or give each row of the view an _id of its own${unwound}`);
  const served = await startSdlGateway({ typeDefs: typeDefs(''), dbPrefix: 'views_repeating_ids_first', prepare });
  try {
    const result = await served.gateway.execute({ query: '{ tagged { tags } }' });
    expect([result.errors, result.data]).toEqual([undefined, { tagged: [{ tags: 'x' }, { tags: 'y' }] }]);
  } finally {
    await served.stop();
  }
});

it('serves by id and by cursor a view whose rows are one per _id again after its last repeating stage: a $group (its key is the _id), also after an $unwind', async () => {
  const typeDefs = /* GraphQL */ `
    type Query { stats(first: Int = 20, after: ID): [AuthorStat!]! @list stat(id: ID!): AuthorStat @find authors: [Author!]! @list }
    type Author @collection(name: "authors") { id: ID! name: String! stat: AuthorStat @join(localField: "_id") }
    type AuthorStat @collection(name: "authorStats") { id: ID! books: Int! }
  `;
  const outcome = (pipeline: object[]) =>
    startupOutcome(typeDefs, 'views_grouped_ids', async (db) => {
      await db.collection('authors').insertOne({ _id: ann, name: 'Ann' });
      await db.collection('books').insertMany([{ authorId: ann, tags: ['x', 'y'] }]);
      await db.createCollection('authorStats', { viewOn: 'books', pipeline });
    });
  expect(await outcome([{ $group: { _id: '$authorId', books: { $sum: 1 } } }])).toBe('started');
  expect(await outcome([{ $unwind: '$tags' }, { $group: { _id: '$authorId', books: { $sum: 1 } } }])).toBe('started');
  const cut = await outcome([{ $unwind: '$tags' }, { $group: { _id: { author: '$authorId', tag: '$tags' }, books: { $sum: 1 } } }, { $unset: '_id.tag' }]);
  expect(cut).toMatch(/Query\.stat: @find picks one document by its id, but AuthorStat is stored in the view authorStats, which may hold several rows of one _id \(authorStats's \$unset of _id\)/);
  expect(await outcome([{ $group: { _id: '$authorId', books: { $sum: 1 } } }, { $unwind: '$tags' }])).toMatch(/Query\.stat: @find picks one document by its id, but AuthorStat is stored in the view authorStats, which may hold several rows of one _id \(authorStats's \$unwind\)/);
});
