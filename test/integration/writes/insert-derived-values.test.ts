import { ObjectId, type Db } from 'mongodb';
import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from 'docjoin';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A new document starts with the values the writes derive (counters, totals, inverse and bounded
 * arrays) true, each at its own path, and cannot give them itself: not through an input field stored
 * there, nor inside a JSON value around one, nor through a second type over the same documents. A
 * second type cannot write another type's snapshot copies either.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query { accounts(first: Int = 20): [Account!]! @list }
  type Mutation {
    createAccount(input: AccountInput!): Account! @create
    createEntry(input: EntryInput!): Entry! @create
    "Hand-written: another team's import, inserting through AccountImport what it is given."
    importAccount(name: String!, entryCount: Int): AccountImport!
  }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    stats: JSON
    entries(first: Int = 20): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    entryCount: Int! @counter(of: "Account.entries")
    weight: Float! @total(of: "Account.entries", field: "weight") @path(path: "stats.weight")
  }
  "Another team's view of the same documents."
  type AccountImport @collection(name: "accounts") {
    id: ID!
    name: String!
    entryCount: Int
  }
  type Entry @collection(name: "entries") {
    id: ID!
    weight: Float
    account: Account @join(localField: "accountId")
  }
  input AccountInput { name: String! stats: JSON }
  input EntryInput { account: ID! weight: Float }
`;

async function importAccount(_parent: unknown, args: { name: string; entryCount?: number | null }, context: GatewayContext, info: GraphQLResolveInfo) {
  const document = { _id: new ObjectId(), name: args.name, ...(args.entryCount !== undefined && { entryCount: args.entryCount }) };
  await context.writes.run(info, (unit) => unit.insert('AccountImport', document));
  return context.documents.findOne(info, 'AccountImport', { _id: document._id });
}

const prepareIndexes = async (db: Db) => {
  await db.collection('accounts').createIndex({ _id: 1 });
  await db.collection('entries').createIndex({ accountId: 1 });
};

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'insert_derived',
    gateway: { resolvers: { Mutation: { importAccount } }, writePlans: { importAccount: [{ kind: 'insert', typeName: 'AccountImport' }] } },
    prepare: prepareIndexes,
  });
}, 60_000);
afterAll(() => s?.stop());
beforeEach(async () => {
  await s.db.collection('accounts').deleteMany({});
  await s.db.collection('entries').deleteMany({});
});

const createAccount = (stats: string) => s.gateway.execute({ query: `mutation { createAccount(input: { name: "a", stats: ${stats} }) { entryCount weight stats } }` });
const storedAccounts = () => s.db.collection('accounts').find({}, { projection: { _id: 0 } }).toArray();

it('keeps a total inside a JSON field at its path: made when absent or null, beside what the input gave', async () => {
  const given = await createAccount('{ note: "x" }');
  const absent = await s.gateway.execute({ query: 'mutation { createAccount(input: { name: "b" }) { weight } }' });
  const empty = await createAccount('null');
  expect([given, absent, empty].map((result) => ({ errors: result.errors, data: result.data }))).toEqual([
    { errors: undefined, data: { createAccount: { entryCount: 0, weight: 0, stats: { note: 'x', weight: 0 } } } },
    { errors: undefined, data: { createAccount: { weight: 0 } } },
    { errors: undefined, data: { createAccount: { entryCount: 0, weight: 0, stats: { weight: 0 } } } },
  ]);
  expect(await storedAccounts()).toEqual([
    { name: 'a', stats: { note: 'x', weight: 0 }, entryCount: 0 },
    { name: 'b', stats: { weight: 0 }, entryCount: 0 },
    { name: 'a', stats: { weight: 0 }, entryCount: 0 },
  ]);
  // The stored total is read, not joined: one trip for the create's own read back.
  expect(given.cost?.fields).toEqual({});
});

it('refuses a create whose JSON value gives the total, or is no object where it goes, writing nothing', async () => {
  const forged = await createAccount('{ weight: 999 }');
  const scalar = await createAccount('5');
  const list = await createAccount('[{ weight: 1 }]');
  expect([forged, scalar, list].map((result) => result.errors?.map((error) => [error.extensions?.code, error.message]))).toEqual([
    [['BAD_USER_INPUT', 'the new Account gives a value at stats.weight, where the writes keep Account.weight; leave it out (a new document starts with it true)']],
    [['BAD_USER_INPUT', 'the new Account gives a value other than an object at stats, where the writes keep Account.weight inside, at stats.weight; give an object there, or leave it out']],
    [['BAD_USER_INPUT', 'the new Account gives a list at stats, where the writes keep Account.weight inside, at stats.weight; give an object there, or leave it out']],
  ]);
  expect(await storedAccounts()).toEqual([]);
});

it('refuses an insert through a second type giving the counter, and starts an omitted one at 0', async () => {
  const forged = await s.gateway.execute({ query: 'mutation { importAccount(name: "c", entryCount: 5) { id } }' });
  const nulled = await s.gateway.execute({ query: 'mutation { importAccount(name: "c", entryCount: null) { id } }' });
  expect([forged, nulled].map((result) => result.errors?.map((error) => [error.extensions?.code, error.message]))).toEqual([
    [['BAD_USER_INPUT', 'the new AccountImport gives a value at entryCount, where the writes keep Account.entryCount; leave it out (a new document starts with it true)']],
    [['BAD_USER_INPUT', 'the new AccountImport gives a value at entryCount, where the writes keep Account.entryCount; leave it out (a new document starts with it true)']],
  ]);
  const plain = await s.gateway.execute({ query: 'mutation { importAccount(name: "d") { name entryCount } }' });
  expect({ errors: plain.errors, data: plain.data }).toEqual({ errors: undefined, data: { importAccount: { name: 'd', entryCount: 0 } } });
  expect(await storedAccounts()).toEqual([{ name: 'd', entryCount: 0, stats: { weight: 0 } }]);
});


it('refuses at startup a generated create whose input sets a value the writes derive, through a second type', async () => {
  const generated = TYPE_DEFS.replace('importAccount(name: String!, entryCount: Int): AccountImport!', 'importAccount(input: ImportInput!): AccountImport! @create').concat(
    'input ImportInput { name: String! entryCount: Int }',
  );
  expect(await startupOutcome(generated, 'insert_derived_generated', ['accounts', 'entries'])).toContain(
    'Mutation.importAccount: ImportInput.entryCount: AccountImport.entryCount is stored at entryCount, where the writes keep Account.entryCount; remove it from the input',
  );
  // Non-null there, the second type's field need not (and may not) be given: a new document starts with it.
  const required = generated.replace('    name: String!\n    entryCount: Int\n', '    name: String!\n    entryCount: Int!\n');
  expect(await startupOutcome(required.replace('input ImportInput { name: String! entryCount: Int }', 'input ImportInput { name: String! }'), 'insert_derived_required', prepareIndexes)).toBe('started');
});

describe("another type's snapshot copies", () => {
  const SNAPSHOT = /* GraphQL */ `
    scalar JSON
    type Query { posts(first: Int = 20): [Post!]! @list }
    type Mutation { MUTATION }
    type Author @collection(name: "authors") { id: ID! name: String! }
    type Post @collection(name: "posts") {
      id: ID!
      title: String!
      info: Info @embedded
    }
    type Info {
      author: Author! @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    }
    "Another team's drafts, stored with the posts."
    type Draft @collection(name: "posts") { id: ID! title: String! FIELD }
    input DraftInput { title: String! INPUT }
  `;
  const draft = (field: string, input: string) =>
    SNAPSHOT.replace('MUTATION', 'createDraft(input: DraftInput!): Draft! @create').replace('FIELD', field).replace('INPUT', input);

  it('refuses at startup an insert through a second type storing a field at, inside or around where the copies go', async () => {
    expect(await startupOutcome(draft('author: JSON @path(path: "info.author")', 'author: JSON'), 'foreign_copies_at', ['authors', 'posts'])).toContain(
      'Mutation.createDraft: DraftInput.author: Draft.author is stored at info.author, where the writes keep Post.info.author; remove it from the input',
    );
    expect(await startupOutcome(draft('info: JSON', 'info: JSON'), 'foreign_copies_around', ['authors', 'posts'])).toContain(
      'Mutation.createDraft: write plan insert(Draft): Draft shares the collection "posts" with Post, whose documents hold Post.info.author\'s copies at info.author, and Draft stores a field there, so an insert through Draft could write a copy docjoin never filled from its Author; insert those documents through Post\'s mutations, or store Draft\'s field elsewhere',
    );
  });

  it('refuses at startup an insert through a second type embedding a document where the copies go', async () => {
    const embedded = draft('byline: Byline @embedded(path: "info.author")', 'byline: BylineInput').concat('type Byline { name: String }\ninput BylineInput { name: String }');
    expect(await startupOutcome(embedded, 'foreign_copies_embedded', ['authors', 'posts'])).toContain(
      'Mutation.createDraft: write plan insert(Draft): Draft shares the collection "posts" with Post, whose documents hold Post.info.author\'s copies at info.author, and Draft stores a field there',
    );
  });

  it('lets a second type insert when it stores nothing where the copies go, or fills the same copies itself', async () => {
    expect(await startupOutcome(draft('note: String', 'note: String'), 'foreign_copies_beside', ['authors', 'posts'])).toBe('started');
    const sameCopies = draft('info: Info @embedded', 'info: InfoInput').concat('input InfoInput { author: ID! }');
    expect(await startupOutcome(sameCopies, 'foreign_copies_same', ['authors', 'posts'])).toBe('started');
    // One field fewer: Draft's copy would lack the name Post reads from it.
    const fewer = draft('info: DraftInfo @embedded', 'info: InfoInput').concat('input InfoInput { author: ID! }\n').concat(
      'type DraftInfo { author: Author! @snapshot(path: "author", fields: ["id"]) @join(localField: "author.id") @read(strategy: SNAPSHOT) }',
    );
    expect(await startupOutcome(fewer, 'foreign_copies_fewer', ['authors', 'posts'])).toContain('Draft shares the collection "posts" with Post, whose documents hold Post.info.author\'s copies at info.author');
    // A list of copies where Post keeps one: an update of the author would find an array where it sets a copy's field.
    const list = draft('info: DraftInfo @embedded', 'info: ListInput').concat('input ListInput { author: [ID!]! }\n').concat(
      'type DraftInfo { author: [Author!]! @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT) }',
    );
    expect(await startupOutcome(list, 'foreign_copies_list', ['authors', 'posts'])).toContain('Draft shares the collection "posts" with Post, whose documents hold Post.info.author\'s copies at info.author');
  });
});

describe('a snapshot copy inside a JSON field of its own type', () => {
  const OWN_COPY = /* GraphQL */ `
    scalar JSON
    type Query { posts(first: Int = 20): [Post!]! @list }
    type Mutation { createPost(input: PostInput!): Post! @create }
    type Author @collection(name: "authors") { id: ID! name: String! }
    type Post @collection(name: "posts") {
      id: ID!
      title: String!
      meta: JSON
      author: Author @snapshot(path: "meta.author", fields: ["id", "name"]) @join(localField: "meta.author.id") @read(strategy: SNAPSHOT)
    }
    input PostInput { title: String! meta: JSON author: ID }
  `;
  const ann = new ObjectId();
  let own: SdlGateway;
  beforeAll(async () => {
    own = await startSdlGateway({
      typeDefs: OWN_COPY,
      dbPrefix: 'insert_own_copy',
      prepare: async (db) => {
        await db.collection('authors').insertOne({ _id: ann, name: 'Ann' });
        await db.collection('posts').createIndex({ 'meta.author.id': 1 });
      },
    });
  }, 60_000);
  afterAll(() => own?.stop());

  it('refuses a copy the JSON value gives without its key, and fills one named by its id from the author (at a dotted path, which inserts never filled)', async () => {
    const forged = await own.gateway.execute({ query: 'mutation { createPost(input: { title: "f", meta: { author: { name: "Mallory" } } }) { id } }' });
    expect(forged.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', "the new Post gives a copy at meta.author without its id, where the writes keep Post.author's copies of a Author; name the Author by its id, or leave the copy out"],
    ]);
    const named = await own.gateway.execute({ query: `mutation { createPost(input: { title: "n", meta: { note: "x" }, author: "${ann}" }) { meta author { id name } } }` });
    const none = await own.gateway.execute({ query: 'mutation { createPost(input: { title: "o", meta: { note: "y" }, author: null }) { meta author { name } } }' });
    expect([named, none].map((result) => ({ errors: result.errors, data: result.data }))).toEqual([
      { errors: undefined, data: { createPost: { meta: { note: 'x', author: { id: ann, name: 'Ann' } }, author: { id: String(ann), name: 'Ann' } } } },
      { errors: undefined, data: { createPost: { meta: { note: 'y', author: null }, author: null } } },
    ]);
    expect(await own.db.collection('posts').countDocuments({ title: 'f' })).toBe(0);
  });
});
