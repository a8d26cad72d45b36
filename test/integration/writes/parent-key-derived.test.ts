import type { Db } from 'mongodb';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Derived values keyed by another field than `_id` (Account.entryCount counts the entries whose
 * accountCode equals the account's code): entries may hold a code before any account does, so a new
 * account starts with what its children already are (their count, their sum, its newest copies), read
 * in one aggregate per child collection and one find per bounded array. Changing the key would leave
 * them as they were for the old one, so an update setting it is refused at startup.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { accounts(first: Int = 20): [Account!]! @list }
  type Mutation {
    createAccount(input: AccountInput!): Account! @create
    createEntry(input: EntryInput!): Entry! @create
  }
  type Account @collection(name: "accounts") {
    id: ID!
    code: String!
    entries(first: Int = 20): [Entry!]! @join(localField: "code", foreignField: "accountCode")
    entryCount: Int! @counter(of: "Account.entries")
    weight: Float! @total(of: "Account.entries", field: "weight")
    recentEntries: [Entry!]! @embedded @join(collection: "entries", localField: "code", foreignField: "accountCode", sort: "-weight", limit: 2) @read(strategy: EMBEDDED)
  }
  type Entry @collection(name: "entries") { id: ID! accountCode: String! weight: Float }
  input AccountInput { code: String! }
  input EntryInput { accountCode: String! weight: Float }
`;
const prepare = async (db: Db) => {
  await db.collection('accounts').createIndex({ code: 1 }, { unique: true });
  await db.collection('entries').createIndex({ accountCode: 1 });
};

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({ typeDefs: TYPE_DEFS, dbPrefix: 'parent_key_derived', prepare });
}, 60_000);
afterAll(() => s?.stop());

it('starts a new parent with the children already holding its key, in one aggregate and one find more', async () => {
  for (const weight of [2.5, 1, 4]) {
    const entry = await s.gateway.execute({ query: `mutation { createEntry(input: { accountCode: "X", weight: ${weight} }) { id } }` });
    expect(entry.errors).toBeUndefined();
  }
  const created = await s.gateway.execute({ query: 'mutation { createAccount(input: { code: "X" }) { entryCount weight recentEntries { weight } } }' });
  expect({ errors: created.errors, data: created.data }).toEqual({ errors: undefined, data: { createAccount: { entryCount: 3, weight: 7.5, recentEntries: [{ weight: 4 }, { weight: 2.5 }] } } });
  // The aggregate, the find, the insert, the read back.
  expect({ entries: created.cost?.collections?.entries, accounts: created.cost?.collections?.accounts?.roundTrips }).toEqual({ entries: { roundTrips: 2, documents: 3 }, accounts: 2 });
  const fresh = await s.gateway.execute({ query: 'mutation { createAccount(input: { code: "Y" }) { entryCount weight recentEntries { weight } } }' });
  expect({ errors: fresh.errors, data: fresh.data }).toEqual({ errors: undefined, data: { createAccount: { entryCount: 0, weight: 0, recentEntries: [] } } });
  const later = await s.gateway.execute({ query: 'mutation { createEntry(input: { accountCode: "X", weight: 3 }) { id } }' });
  expect(later.errors).toBeUndefined();
  const read = await s.gateway.execute({ query: '{ accounts { code entryCount weight recentEntries { weight } entries { weight } } }' });
  expect(read.data).toEqual({
    accounts: [
      { code: 'X', entryCount: 4, weight: 10.5, recentEntries: [{ weight: 4 }, { weight: 3 }], entries: [{ weight: 2.5 }, { weight: 1 }, { weight: 4 }, { weight: 3 }] },
      { code: 'Y', entryCount: 0, weight: 0, recentEntries: [], entries: [] },
    ],
  });
});

it('refuses at startup an update setting the key the derived values are found by', async () => {
  const updating = TYPE_DEFS.replace('createEntry(input: EntryInput!): Entry! @create', 'recode(id: ID!, input: CodePatch!): Account! @update').concat('input CodePatch { code: String }');
  expect(await startupOutcome(updating, 'parent_key_update', prepare)).toContain(
    'Mutation.recode: write plan updateSource(Account): Account.code is stored at code, the key Account.entryCount finds its children by, and an update setting it would leave Account.entryCount as it was for the old key; leave Account.code out of the update',
  );
});

it('counts every child when the parent is created while children holding its key are written (a lock of the key)', async () => {
  const drift: string[] = [];
  for (let round = 0; round < 8; round++) {
    const code = `race${round}`;
    const entry = () => s.gateway.execute({ query: `mutation { createEntry(input: { accountCode: "${code}", weight: 1 }) { id } }` });
    const results = await Promise.all([entry(), s.gateway.execute({ query: `mutation { createAccount(input: { code: "${code}" }) { id } }` }), entry(), entry()]);
    expect(results.map((result) => result.errors)).toEqual([undefined, undefined, undefined, undefined]);
    const account = await s.db.collection('accounts').findOne({ code });
    const children = await s.db.collection('entries').countDocuments({ accountCode: code });
    if (account?.entryCount !== children || account?.weight !== children) drift.push(`${code}: ${account?.entryCount} and ${account?.weight} for ${children}`);
  }
  expect(drift).toEqual([]);
}, 60_000);

describe('keys and sums a parent cannot take', () => {
  const JSON_KEYED = /* GraphQL */ `
    scalar JSON
    scalar Long
    type Query { accounts(first: Int = 20): [Account!]! @list }
    type Mutation {
      createAccount(input: AccountInput!): Account! @create
      createEntry(input: EntryInput!): Entry! @create
    }
    type Account @collection(name: "accounts") {
      id: ID!
      meta: JSON
      entries(first: Int = 20): [Entry!]! @join(localField: "meta.code", foreignField: "accountCode")
      entryCount: Int! @counter(of: "Account.entries")
      points: Long! @total(of: "Account.entries", field: "points")
      recentEntries: [Entry!]! @embedded @join(collection: "entries", localField: "meta.code", foreignField: "accountCode", sort: "-_id", limit: 2) @read(strategy: EMBEDDED)
    }
    type Entry @collection(name: "entries") { id: ID! accountCode: JSON points: Long }
    input AccountInput { meta: JSON }
    input EntryInput { accountCode: JSON points: Long }
  `;
  let keyed: SdlGateway;
  beforeAll(async () => {
    keyed = await startSdlGateway({
      typeDefs: JSON_KEYED,
      dbPrefix: 'parent_key_json',
      prepare: async (db) => {
        await db.collection('accounts').createIndex({ 'meta.code': 1 });
        await db.collection('entries').createIndex({ accountCode: 1 });
      },
    });
  }, 60_000);
  afterAll(() => keyed?.stop());
  const createEntry = (accountCode: unknown, points: string) =>
    keyed.gateway.execute({ query: 'mutation($code: JSON, $points: Long) { createEntry(input: { accountCode: $code, points: $points }) { id } }', variables: { code: accountCode, points } });
  const createAccount = (code: unknown) => keyed.gateway.execute({ query: 'mutation($meta: JSON) { createAccount(input: { meta: $meta }) { entryCount points recentEntries { points } } }', variables: { meta: { code } } });

  it('compares a key a JSON value gives ({ $gt: "" }) as a value, on the parent side and the child side', async () => {
    for (const code of ['A', 'B']) expect((await createEntry(code, '1')).errors).toBeUndefined();
    const created = await createAccount({ $gt: '' });
    expect({ errors: created.errors, data: created.data }).toEqual({ errors: undefined, data: { createAccount: { entryCount: 0, points: '0', recentEntries: [] } } });
    expect((await createAccount('A')).data).toEqual({ createAccount: { entryCount: 1, points: '1', recentEntries: [{ points: '1' }] } });
    // A child keyed by an operator object moves no other parent.
    expect((await createEntry({ $gt: '' }, '5')).errors).toBeUndefined();
    const stored = await keyed.db.collection('accounts').find({}, { projection: { _id: 0, 'meta.code': 1, entryCount: 1 }, sort: { _id: 1 } }).toArray();
    expect(stored).toEqual([
      { meta: { code: { $gt: '' } }, entryCount: 1 },
      { meta: { code: 'A' }, entryCount: 1 },
    ]);
  });

  it('refuses a new parent whose children already sum past what its Long total holds, writing nothing', async () => {
    for (let index = 0; index < 2; index++) expect((await createEntry('big', '6000000000000000000')).errors).toBeUndefined();
    const created = await createAccount('big');
    expect(created.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', 'Account.points would start at the sum of the Entry rows already holding its key, which a Long cannot hold'],
    ]);
    expect(await keyed.db.collection('accounts').countDocuments({ 'meta.code': 'big' })).toBe(0);
  });
});

it('refuses at startup a changeReference setting the key the derived values are found by', async () => {
  const repointed = /* GraphQL */ `
    type Query { shops(first: Int = 20): [Shop!]! @list }
    type Mutation { moveShop(id: ID!, region: ID!): Boolean! }
    type Region @collection(name: "regions") { id: ID! name: String! }
    type Shop @collection(name: "shops") {
      id: ID!
      region: Region @join(localField: "regionId")
      regionOrders(first: Int = 50): [Order!]! @join(collection: "orders", localField: "regionId", foreignField: "regionId")
      regionOrderCount: Int! @counter(of: "Shop.regionOrders")
    }
    type Order @collection(name: "orders") { id: ID! region: Region @join(localField: "regionId") }
  `;
  let started: SdlGateway | undefined;
  const refusal = await startSdlGateway({
    typeDefs: repointed,
    dbPrefix: 'parent_key_repoint',
    gateway: { resolvers: { Mutation: { moveShop: () => true } }, writePlans: { moveShop: [{ kind: 'changeReference', coordinate: 'Shop.region' }] } },
    prepare: async (db) => {
      await db.collection('shops').createIndex({ regionId: 1 });
      await db.collection('orders').createIndex({ regionId: 1 });
      await db.createCollection('regions');
    },
  })
    .then((gateway) => ((started = gateway), 'started'))
    .catch((error: Error) => error.message);
  await started?.stop();
  expect(refusal).toContain(
    `Mutation.moveShop: write plan changeReference(Shop.region): Shop.region's key "regionId" is the key Shop.regionOrderCount finds its children by, and changeReference does not recount them: it would stay as it was for the old key; replace the document (delete, then insert) to re-point it`,
  );
});
