import { Decimal128, Long, ObjectId } from 'mongodb';
import { buildWriteModel, reconcile, withDirectiveTypeDefs } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A Decimal `@total` is kept with MongoDB's Decimal128 `$inc`, which rounds the running sum to 34
 * significant digits: the aggregate's sum is queried instead of read from it, and reconcile repairs the
 * rounding it keeps. A value that could take it past the largest Decimal128 is refused before any write.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { accounts(first: Int = 20): [Account!]! @list }
  type Mutation {
    createEntry(input: EntryInput!): Entry! @create
    updateEntry(id: ID!, input: EntryPatch!): Entry! @update
    deleteEntry(id: ID!): Boolean! @delete(type: "Entry")
  }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    entries(first: Int = 20): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    entryCount: Int! @counter(of: "Account.entries")
    balance: Decimal! @total(of: "Account.entries", field: "amount")
    points: Long! @total(of: "Account.entries", field: "points")
    entriesAggregate: EntryAggregate! @aggregate(of: "entries", fields: ["amount", "points"])
  }
  type Entry @collection(name: "entries") {
    id: ID!
    amount: Decimal!
    points: Long
    account: Account @join(localField: "accountId")
  }
  input EntryInput { account: ID! amount: Decimal! points: Long }
  input EntryPatch { amount: Decimal }
`;

const drifting = new ObjectId('0000000000000000000000a1');
const bounded = new ObjectId('0000000000000000000000a2');

let ledger: SdlGateway;
beforeAll(async () => {
  ledger = await startSdlGateway({
    dbPrefix: 'decimal_totals',
    typeDefs: TYPE_DEFS,
    prepare: async (db) => {
      const zero = { entryCount: 0, balance: Decimal128.fromString('0'), points: Long.ZERO };
      await db.collection('accounts').insertMany([{ _id: drifting, name: 'drifting', ...zero }, { _id: bounded, name: 'bounded', ...zero }]);
      await db.collection('entries').createIndex({ accountId: 1 });
    },
  });
}, 60_000);
afterAll(() => ledger?.stop());

async function run(query: string) {
  const result = await ledger.gateway.execute({ query });
  return { data: result.data as Record<string, any>, errors: result.errors, cost: result.cost! };
}

const database = () => ledger.mongo.client.db(ledger.db.databaseName);

it('answers the sum a fresh $sum gives after the running total kept a rounding, and reconcile repairs the total', async () => {
  const large = await run(`mutation { createEntry(input: { account: "${drifting}", amount: "1E+40" }) { id } }`);
  const small = await run(`mutation { createEntry(input: { account: "${drifting}", amount: "0.01" }) { id } }`);
  const removed = await run(`mutation { deleteEntry(id: "${large.data.createEntry.id}") }`);
  expect([large.errors, small.errors, removed.errors]).toEqual([undefined, undefined, undefined]);
  // 1E+40 + 0.01 needs 43 digits: the total kept 1E+40, and taking it away left 0.
  expect(String((await database().collection('accounts').findOne({ _id: drifting }))!.balance)).toBe('0');

  const read = await run(`{ accounts { name entriesAggregate { count sum { amount } } } }`);
  expect(read.errors).toBeUndefined();
  expect(read.data.accounts[0]).toEqual({ name: 'drifting', entriesAggregate: { count: 1, sum: { amount: '0.01' } } });
  expect(read.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });

  const model = buildWriteModel(withDirectiveTypeDefs([TYPE_DEFS]));
  const found = await reconcile(database(), model);
  expect(found.checks.find((check) => check.coordinate === 'Account.balance')).toMatchObject({ drifted: 1, fixed: 0 });
  const repaired = await reconcile(database(), model, { fix: true });
  expect(repaired.checks.find((check) => check.coordinate === 'Account.balance')).toMatchObject({ drifted: 1, fixed: 1 });
  expect((await run(`{ accounts { balance } }`)).data.accounts[0]).toEqual({ balance: '0.01' });
});

describe('a value that could take the total past the largest Decimal128', () => {
  const entries = () => database().collection('entries').countDocuments({ accountId: bounded });
  const balance = async () => String((await database().collection('accounts').findOne({ _id: bounded }))!.balance);

  it.each(['1E+6110', '-1E+6110', '9.999999999999999999999999999999999E+6144'])('is refused when created (%s), nothing written', async (amount) => {
    const result = await run(`mutation { createEntry(input: { account: "${bounded}", amount: "${amount}" }) { id } }`);
    expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', 'Account.balance sums Decimals, and amount values of 1E+6110 or more either way could take it past the largest Decimal128, where no read could answer it; give amount a smaller value'],
    ]);
    expect([await entries(), await balance()]).toEqual([0, '0']);
  });

  it('is refused when an update sets it; a value under the bound is taken', async () => {
    const created = await run(`mutation { createEntry(input: { account: "${bounded}", amount: "9.9E+6109" }) { id } }`);
    expect(created.errors).toBeUndefined();
    const updated = await run(`mutation { updateEntry(id: "${created.data.createEntry.id}", input: { amount: "1E+6110" }) { id } }`);
    expect(updated.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    // Decimal128 rounds 0 + 9.9E+6109 to its 34 digits.
    expect([await entries(), await balance()]).toEqual([1, '9.900000000000000000000000000000000E+6109']);
  });
});
