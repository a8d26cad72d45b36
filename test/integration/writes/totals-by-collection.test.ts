import { Double, Long, ObjectId, type Db } from 'mongodb';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A total sums the documents of its children's collection, whichever GraphQL type wrote them: a second
 * type over the same documents (`Refund` over `entries`) moves it as the first does, as counters
 * already were. An update that would set a summed value inside a field set whole (`meta`, a JSON
 * object holding `meta.weight`) is refused at startup, since it would change the value without
 * moving the total, and a value a Long total cannot take (a Float given through a second type). Snapshot
 * fan-out and bounded arrays' updates go by type, so a write through a second type that would leave
 * their copies stale is refused at startup; the rest (inserts, an update of a field nothing copies) runs.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query { accounts(first: Int = 20, after: ID): [Account!]! @list }
  type Mutation {
    createRefund(input: RefundInput!): Refund! @create
    updateRefund(id: ID!, input: RefundPatch!): Refund! @update
    deleteRefund(id: ID!): Boolean! @delete(type: "Refund")
  }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    entries(first: Int = 20, after: ID): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    entryCount: Int! @counter(of: "Account.entries")
    weight: Float! @total(of: "Account.entries", field: "weight")
  }
  type Entry @collection(name: "entries") {
    id: ID!
    weight: Float @path(path: "meta.weight")
    account: Account @join(localField: "accountId")
  }
  "The same documents, written by another team's mutations."
  type Refund @collection(name: "entries") {
    id: ID!
    meta: JSON
    weight: Float @path(path: "meta.weight")
    account: Account @join(localField: "accountId")
  }
  input RefundInput { account: ID! weight: Float }
  input RefundPatch { weight: Float }
`;

const account = new ObjectId();
let s: SdlGateway;
let db: Db;
beforeAll(async () => {
  s = await startSdlGateway({
    dbPrefix: 'totals_by_collection',
    typeDefs: TYPE_DEFS,
    prepare: async (fresh) => {
      await fresh.collection('accounts').insertOne({ _id: account, name: 'a', entryCount: 0, weight: new Double(0) });
      await fresh.collection('entries').createIndex({ accountId: 1 });
    },
  });
  db = s.db;
}, 60_000);
afterAll(() => s?.stop());

const stored = async () => db.collection('accounts').findOne({ _id: account }, { projection: { _id: 0, entryCount: 1, weight: 1 } });

it('moves the total for a child written through a second type over the children, as its counter', async () => {
  const created = await s.gateway.execute({ query: `mutation { createRefund(input: { account: "${account}", weight: 2.5 }) { id } }` });
  expect(created.errors).toBeUndefined();
  expect(await stored()).toEqual({ entryCount: 1, weight: 2.5 });
  const id = (created.data as { createRefund: { id: string } }).createRefund.id;
  expect((await s.gateway.execute({ query: `mutation { updateRefund(id: "${id}", input: { weight: 4 }) { id } }` })).errors).toBeUndefined();
  expect(await stored()).toEqual({ entryCount: 1, weight: 4 });
  expect((await s.gateway.execute({ query: `mutation { deleteRefund(id: "${id}") }` })).errors).toBeUndefined();
  expect(await stored()).toEqual({ entryCount: 0, weight: 0 });
});

it('refuses an oversized value given through the second type, before anything is written', async () => {
  const created = await s.gateway.execute({ query: `mutation { createRefund(input: { account: "${account}", weight: 1.5e308 }) { id } }` });
  expect(created.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  expect({ account: await stored(), entries: await db.collection('entries').countDocuments() }).toEqual({ account: { entryCount: 0, weight: 0 }, entries: 0 });
});

it('refuses at startup an update that sets a summed value inside a field it sets whole', async () => {
  await expect(
    startSdlGateway({ dbPrefix: 'totals_whole_set', typeDefs: TYPE_DEFS.replace('input RefundPatch { weight: Float }', 'input RefundPatch { meta: JSON }') }),
  ).rejects.toThrow(
    'Mutation.updateRefund: write plan updateSource(Refund): Refund.meta is stored at meta, which holds meta.weight that Account.weight is derived from, and an update setting meta whole would leave Account.weight wrong; update the field stored at meta.weight itself, and leave Refund.meta out of the update',
  );
});

it('refuses a value a Long total cannot take, given through a second type declaring a Float there, before anything is written', async () => {
  const other = new ObjectId();
  const longTotal = await startSdlGateway({
    dbPrefix: 'totals_shared_long',
    typeDefs: TYPE_DEFS.replace('weight: Float! @total', 'points: Long! @total(of: "Account.entries", field: "points")\n    weight: Float! @total')
      .replace('weight: Float @path(path: "meta.weight")\n    account', 'weight: Float @path(path: "meta.weight")\n    points: Long\n    account')
      .replace('input RefundInput { account: ID! weight: Float }', 'input RefundInput { account: ID! weight: Float points: Float }')
      .replace('meta: JSON\n    weight: Float @path(path: "meta.weight")', 'meta: JSON\n    weight: Float @path(path: "meta.weight")\n    points: Float'),
    prepare: async (fresh) => {
      await fresh.collection('accounts').insertOne({ _id: other, name: 'b', entryCount: 0, weight: new Double(0), points: Long.ZERO });
      await fresh.collection('entries').createIndex({ accountId: 1 });
    },
  });
  try {
    const create = (points: string) => longTotal.gateway.execute({ query: `mutation { createRefund(input: { account: "${other}", points: ${points} }) { id } }` });
    const cut = await create('2.5');
    expect(cut.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', 'Account.points sums 64-bit integers, and 2.5 is not one; give points a whole number between -2^63 and 2^63 - 1'],
    ]);
    expect((await create('1e20')).errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(await longTotal.db.collection('entries').countDocuments()).toBe(0);
    expect((await create('3')).errors).toBeUndefined();
    expect(await longTotal.db.collection('accounts').findOne({ _id: other }, { projection: { _id: 0, entryCount: 1, points: 1 } })).toEqual({ entryCount: 1, points: 3 });
  } finally {
    await longTotal.stop();
  }
});

const starts = (typeDefs: string, dbPrefix: string, collections: readonly string[] = ['accounts', 'entries']) => startupOutcome(typeDefs, dbPrefix, collections);

it('refuses at startup an update that sets a field holding the total itself, or an alias of it', async () => {
  const withStats = TYPE_DEFS.replace('updateRefund(id: ID!, input: RefundPatch!): Refund! @update', 'updateAccount(id: ID!, input: AccountPatch!): Account! @update')
    .replace('    name: String!\n    entries', '    name: String!\n    stats: JSON\n    rawWeight: Float @path(path: "stats.weight")\n    entries')
    .replace('weight: Float! @total(of: "Account.entries", field: "weight")', 'weight: Float! @total(of: "Account.entries", field: "weight") @path(path: "stats.weight")');
  expect(await starts(withStats.replace('input RefundPatch { weight: Float }', 'input AccountPatch { stats: JSON }'), 'totals_parent_stats')).toContain(
    'Mutation.updateAccount: write plan updateSource(Account): Account.stats is stored at stats, which holds stats.weight, where the writes keep Account.weight, and an update setting it would overwrite Account.weight; leave Account.stats out of the update',
  );
  expect(await starts(withStats.replace('input RefundPatch { weight: Float }', 'input AccountPatch { rawWeight: Float }'), 'totals_parent_alias')).toContain(
    'Mutation.updateAccount: AccountPatch.rawWeight: Account.rawWeight is stored at stats.weight, where the writes keep Account.weight; remove it from the input',
  );
});

describe('a bounded array over the children', () => {
  const bounded = TYPE_DEFS.replace(
    'weight: Float! @total(of: "Account.entries", field: "weight")',
    'weight: Float! @total(of: "Account.entries", field: "weight")\n    recentEntries: [Entry!]! @embedded @join(collection: "entries", localField: "_id", foreignField: "accountId", sort: "-_id", limit: 3) @read(strategy: EMBEDDED)',
  );

  it('is kept true by inserts and deletes through a second type (they push and refill by collection)', async () => {
    const other = new ObjectId();
    const withoutUpdate = await startSdlGateway({
      dbPrefix: 'totals_shared_bounded_inserts',
      typeDefs: bounded.replace('updateRefund(id: ID!, input: RefundPatch!): Refund! @update', ''),
      prepare: async (fresh) => {
        await fresh.collection('accounts').insertOne({ _id: other, name: 'b', entryCount: 0, weight: new Double(0), recentEntries: [] });
        await fresh.collection('entries').createIndex({ accountId: 1 });
      },
    });
    try {
      const ids: string[] = [];
      for (const weight of [1, 2, 3, 4]) {
        const created = await withoutUpdate.gateway.execute({ query: `mutation { createRefund(input: { account: "${other}", weight: ${weight} }) { id } }` });
        expect(created.errors).toBeUndefined();
        ids.push((created.data as { createRefund: { id: string } }).createRefund.id);
      }
      expect((await withoutUpdate.gateway.execute({ query: `mutation { deleteRefund(id: "${ids[3]}") }` })).errors).toBeUndefined();
      const read = await withoutUpdate.gateway.execute({ query: '{ accounts { entryCount weight recentEntries { weight } } }' });
      expect({ errors: read.errors, data: read.data }).toEqual({ errors: undefined, data: { accounts: [{ entryCount: 3, weight: 6, recentEntries: [{ weight: 3 }, { weight: 2 }, { weight: 1 }] }] } });
    } finally {
      await withoutUpdate.stop();
    }
  });

  it('refuses at startup an update through a second type (the array holds whole copies, updated by type)', async () => {
    expect(await starts(bounded, 'totals_shared_bounded')).toContain(
      'Mutation.updateRefund: write plan updateSource(Refund): Refund shares the collection "entries" with Entry, whose documents Account.recentEntries holds, and an update through Refund would leave Account.recentEntries stale; write those documents through Entry\'s mutations',
    );
  });
});

describe('a snapshot of the documents', () => {
  const SNAPSHOT = /* GraphQL */ `
    type Query { posts(first: Int = 20, after: ID): [Post!]! @list }
    type Mutation {
      createPost(input: PostInput!): Post! @create
      MUTATION
    }
    type Author @collection(name: "authors") {
      id: ID!
      name: String!
      visits: Int
    }
    "A sign-up form's view of the same documents."
    type Signup @collection(name: "authors") {
      id: ID!
      name: String!
      visits: Int
    }
    type Post @collection(name: "posts") {
      id: ID!
      title: String!
      author: Author! @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    }
    input PostInput { title: String! author: ID! }
    input SignupInput { name: String! }
    input NamePatch { name: String }
    input VisitsPatch { visits: Int }
  `;
  const withMutation = (mutation: string) => SNAPSHOT.replace('MUTATION', mutation);

  it('lets a second type insert documents (a new one has no copies) and update a field no snapshot copies', async () => {
    expect(await starts(withMutation('signUp(input: SignupInput!): Signup! @create'), 'shared_snapshot_insert', ['authors', 'posts'])).toBe('started');
    expect(await starts(withMutation('countVisit(id: ID!, input: VisitsPatch!): Signup! @update'), 'shared_snapshot_visits', ['authors', 'posts'])).toBe('started');
  });

  it('lets an update set a field beside a snapshot inside an embedded object (the copy is at info.author, not all of info)', async () => {
    const embedded = /* GraphQL */ `
      type Query { posts(first: Int = 20, after: ID): [Post!]! @list }
      type Mutation { editSummary(id: ID!, input: SummaryPatch!): PostSummary! @update }
      type Author @collection(name: "authors") { id: ID! name: String! }
      type Post @collection(name: "posts") { id: ID! title: String! info: Info @embedded }
      type Info {
        summary: String
        author: Author @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
      }
      type PostSummary @collection(name: "posts") { id: ID! summary: String @path(path: "info.summary") }
      input SummaryPatch { summary: String }
    `;
    expect(await starts(embedded, 'shared_snapshot_embedded', ['authors', 'posts'])).toBe('started');
  });

  it('refuses at startup an update of a copied field, or a delete, through a second type', async () => {
    expect(await starts(withMutation('rename(id: ID!, input: NamePatch!): Signup! @update'), 'shared_snapshot_rename', ['authors', 'posts'])).toContain(
      'Mutation.rename: write plan updateSource(Signup): Signup shares the collection "authors" with Author, whose documents Post.author copies, and an update through Signup would leave Post.author stale',
    );
    expect(await starts(withMutation('withdraw(id: ID!): Boolean! @delete(type: "Signup")'), 'shared_snapshot_delete', ['authors', 'posts'])).toContain(
      'Mutation.withdraw: write plan delete(Signup): Signup shares the collection "authors" with Author, whose documents Post.author copies, and a delete through Signup would leave Post.author stale',
    );
  });
});

describe('an inverse list over the documents', () => {
  const INVERSE = /* GraphQL */ `
    type Query { people(first: Int = 20, after: ID): [Person!]! @list }
    type Mutation {
      createTask(input: TaskInput!): Task! @create
      MUTATION
    }
    type Person @collection(name: "people") {
      id: ID!
      name: String!
      tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
    }
    type Task @collection(name: "tasks") {
      id: ID!
      title: String!
      owner: Person @join(localField: "ownerId")
    }
    "Another team's form over the same documents, holding the owner by a reference."
    type QuickTask @collection(name: "tasks") {
      id: ID!
      title: String!
      owner: Person @join(localField: "ownerId")
    }
    input TaskInput { title: String! owner: ID }
    input QuickTaskInput { title: String! owner: ID }
  `;

  it('refuses at startup an insert through a second type whose reference holds the truth (the list is kept by type)', async () => {
    expect(await starts(INVERSE.replace('MUTATION', 'createQuickTask(input: QuickTaskInput!): QuickTask! @create'), 'shared_inverse_insert', ['people', 'tasks'])).toContain(
      'Mutation.createQuickTask: write plan insert(QuickTask): QuickTask shares the collection "tasks" with Task, whose documents Person.tasks lists, and an insert through QuickTask would leave Person.tasks stale',
    );
  });
});
