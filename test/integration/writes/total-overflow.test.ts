import { Double, Long, ObjectId, type Db } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';
import { transactionsAtRegistration } from './support/expected-writes';

/**
 * A total moves by `$inc`, and a sum can pass what its type holds even when each value fits. A Float
 * total past the largest double would be Infinity, stored without complaint, and then no read of the
 * parent could answer it (a GraphQL Float cannot be Infinity): a change that could take it there is
 * refused. A Long total past 2^63 - 1 is refused by MongoDB itself: the client's input, so
 * BAD_USER_INPUT, never INTERNAL_SERVER_ERROR. Either way nothing of the write is kept.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { accounts(first: Int = 20, after: ID): [Account!]! @list }
  type Mutation {
    createEntry(input: EntryInput!): Entry! @create
    updateEntry(id: ID!, input: EntryPatch!): Entry! @update
  }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    entries(first: Int = 20, after: ID): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    entryCount: Int! @counter(of: "Account.entries")
    weight: Float! @total(of: "Account.entries", field: "weight")
    points: Long! @total(of: "Account.entries", field: "points")
  }
  type Entry @collection(name: "entries") {
    id: ID!
    weight: Float
    points: Long
    account: Account @join(localField: "accountId")
  }
  input EntryInput { account: ID! weight: Float points: Long }
  input EntryPatch { weight: Float points: Long }
`;

const transactions = transactionsAtRegistration();
const account = new ObjectId();
let s: SdlGateway;
let db: Db;
beforeAll(async () => {
  s = await startSdlGateway({
    dbPrefix: 'total_overflow',
    typeDefs: TYPE_DEFS,
    prepare: async (fresh) => {
      await fresh.collection('accounts').insertOne({ _id: account, name: 'a', entryCount: 0, weight: new Double(0), points: Long.ZERO });
      await fresh.collection('entries').createIndex({ accountId: 1 });
    },
  });
  db = s.db;
}, 60_000);
afterAll(() => s?.stop());

const create = (fields: string) => s.gateway.execute({ query: `mutation { createEntry(input: { account: "${account}", ${fields} }) { id } }` });
const codes = (result: { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> }) => result.errors?.map((error) => error.extensions?.code);

(transactions.supported ? describe : describe.skip)(`with transactions${transactions.skipReason}`, () => {
  it('refuses a Float value that could take the total past the largest double; the account stays readable', async () => {
    expect((await create('weight: 1e291')).errors).toBeUndefined();
    const huge = await create('weight: 1.5e308');
    expect(codes(huge)).toEqual(['BAD_USER_INPUT']);
    expect(huge.errors![0]!.message).toBe('Account.weight would move by 1.5e+308; a change of a Float total must stay under 9.979e+291, or the total could pass the largest Float and no read could answer it');
    expect(await db.collection('entries').countDocuments()).toBe(1);
    const read = await s.gateway.execute({ query: '{ accounts { entryCount weight } }' });
    expect({ errors: read.errors, data: read.data }).toEqual({ errors: undefined, data: { accounts: [{ entryCount: 1, weight: 1e291 }] } });
  });

  it('answers BAD_USER_INPUT when a Long total would pass 2^63 - 1, and keeps nothing of the write', async () => {
    expect((await create('points: "9223372036854775807"')).errors).toBeUndefined();
    const before = { entries: await db.collection('entries').countDocuments(), account: await db.collection('accounts').findOne({ _id: account }) };
    const over = await create('points: "1"');
    expect(codes(over)).toEqual(['BAD_USER_INPUT']);
    expect(over.errors![0]!.message).toBe('Mutation.createEntry: a total this write moves would pass the largest Long (9223372036854775807), so nothing was written');
    expect({ entries: await db.collection('entries').countDocuments(), account: await db.collection('accounts').findOne({ _id: account }) }).toEqual(before);
  });
});
