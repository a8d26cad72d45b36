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
