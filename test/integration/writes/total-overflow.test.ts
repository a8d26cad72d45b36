import { Double, Long, ObjectId, type CommandStartedEvent, type Db } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';
import { MOVE_ENTRY } from './support/move-entry';
import { transactionsAtRegistration } from './support/expected-writes';

/**
 * A total moves by `$inc`, and a sum can pass what its type holds even when each value fits. A Float
 * total past the largest double would be Infinity, stored without complaint, and then no read of the
 * parent could answer it (a GraphQL Float cannot be Infinity): a change that could take it there is
 * refused. A Long total past 2^63 - 1 is refused by MongoDB itself: the client's input, so
 * BAD_USER_INPUT, never INTERNAL_SERVER_ERROR. Either way nothing of the write is kept. The Float
 * refusal looks at the value the client gives, before anything is written, and at the value the child
 * holds in the update's own filter, so it holds without transactions too; what a delete or a move takes
 * back from a total is never refused.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { accounts(first: Int = 20, after: ID): [Account!]! @list }
  type Mutation {
    createEntry(input: EntryInput!): Entry! @create
    updateEntry(id: ID!, input: EntryPatch!): Entry! @update
    deleteEntry(id: ID!): Boolean! @delete(type: "Entry")
    moveEntry(id: ID!, account: ID!): Boolean!
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
    gateway: MOVE_ENTRY,
    prepare: async (fresh) => {
      await fresh.collection('accounts').insertOne({ _id: account, name: 'a', entryCount: 0, weight: new Double(0), points: Long.ZERO });
      await fresh.collection('entries').createIndex({ accountId: 1 });
    },
  });
  db = s.db;
}, 60_000);
afterAll(() => s?.stop());

const weights = async () => ({
  entries: (await db.collection('entries').find({}, { sort: { _id: 1 } }).toArray()).map((entry) => entry.weight),
  account: (await db.collection('accounts').findOne({ _id: account }))!.weight,
});
const create = (fields: string) => s.gateway.execute({ query: `mutation { createEntry(input: { account: "${account}", ${fields} }) { id } }` });
const codes = (result: { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> }) => result.errors?.map((error) => error.extensions?.code);

describe('a Float total', () => {
  it('refuses a Float value that could take the total past the largest double; the account stays readable', async () => {
    expect((await create('weight: 1e291')).errors).toBeUndefined();
    const huge = await create('weight: 1.5e308');
    expect(codes(huge)).toEqual(['BAD_USER_INPUT']);
    expect(huge.errors![0]!.message).toBe('Account.weight would move by 1.5e+308; a change of a Float total must stay under 4.990e+291, or the total could pass the largest Float and no read could answer it');
    expect(await db.collection('entries').countDocuments()).toBe(1);
    const read = await s.gateway.execute({ query: '{ accounts { entryCount weight } }' });
    expect({ errors: read.errors, data: read.data }).toEqual({ errors: undefined, data: { accounts: [{ entryCount: 1, weight: 1e291 }] } });
  });

  it('refuses an update to such a value before writing anything, the entry and the total as they were', async () => {
    const [entry] = await db.collection('entries').find().toArray();
    const before = await weights();
    const commands: string[] = [];
    const record = (event: CommandStartedEvent) => commands.push(event.commandName);
    s.client.on('commandStarted', record);
    const huge = await s.gateway.execute({ query: `mutation { updateEntry(id: "${entry!._id}", input: { weight: -1.5e308 }) { id } }` }).finally(() => s.client.off('commandStarted', record));
    expect(codes(huge)).toEqual(['BAD_USER_INPUT']);
    // Refused before the first write: without a transaction to take it back, none went out.
    expect(commands.filter((name) => ['findAndModify', 'update', 'insert', 'delete'].includes(name))).toEqual([]);
    expect(huge.errors![0]!.message).toBe('Account.weight would move by -1.5e+308; a change of a Float total must stay under 4.990e+291, or the total could pass the largest Float and no read could answer it');
    expect(await weights()).toEqual(before);
  });

  it('deletes an entry stored with such a value before docjoin wrote it, taking it off the total', async () => {
    const [legacy, owner] = [new ObjectId(), new ObjectId()];
    await db.collection('accounts').insertOne({ _id: owner, name: 'legacy', entryCount: 1, weight: new Double(1.5e308), points: Long.ZERO });
    await db.collection('entries').insertOne({ _id: legacy, accountId: owner, weight: new Double(1.5e308) });
    const deleted = await s.gateway.execute({ query: `mutation { deleteEntry(id: "${legacy}") }` });
    expect({ errors: deleted.errors, data: deleted.data }).toEqual({ errors: undefined, data: { deleteEntry: true } });
    expect(await db.collection('accounts').findOne({ _id: owner }, { projection: { _id: 0, entryCount: 1, weight: 1 } })).toEqual({ entryCount: 0, weight: 0 });
    await db.collection('accounts').deleteOne({ _id: owner });
  });

  /** Accounts (deleted by the test) each holding one entry as an older writer stored it, their totals true. */
  async function legacyAccounts(...weights: number[]): Promise<Array<{ account: ObjectId; entry: ObjectId }>> {
    const created = weights.map((weight) => ({ account: new ObjectId(), entry: new ObjectId(), weight }));
    await db.collection('accounts').insertMany(created.map(({ account, weight }) => ({ _id: account, name: 'legacy', entryCount: 1, weight: new Double(weight), points: Long.ZERO })));
    await db.collection('entries').insertMany(created.map(({ account, entry, weight }) => ({ _id: entry, accountId: account, weight: new Double(weight) })));
    return created;
  }
  const stored = async (ids: ObjectId[]) => ({
    accounts: (await db.collection('accounts').find({ _id: { $in: ids } }, { sort: { _id: 1 }, projection: { weight: 1 } }).toArray()).map((doc) => doc.weight),
    entries: (await db.collection('entries').find({ accountId: { $in: ids } }, { sort: { _id: 1 }, projection: { accountId: 1, weight: 1 } }).toArray()),
  });
  const forget = async (ids: ObjectId[]) => {
    await db.collection('entries').deleteMany({ accountId: { $in: ids } });
    await db.collection('accounts').deleteMany({ _id: { $in: ids } });
  };

  it('refuses to re-point an entry stored with such a value: the other account would gain it whole', async () => {
    const [a, b, small] = await legacyAccounts(1.5e308, 1.5e308, 2);
    const ids = [a!.account, b!.account, small!.account];
    const before = await stored(ids);
    const moved = await s.gateway.execute({ query: `mutation { moveEntry(id: "${b!.entry}", account: "${a!.account}") }` });
    expect(codes(moved)).toEqual(['BAD_USER_INPUT']);
    expect(moved.errors![0]!.message).toBe('Account.weight would move by 1.5e+308; a change of a Float total must stay under 4.990e+291, or the total could pass the largest Float and no read could answer it');
    expect(await stored(ids)).toEqual(before);
    // Back to the account it is already in, it moves nothing; a small entry moves to the big account.
    expect((await s.gateway.execute({ query: `mutation { moveEntry(id: "${b!.entry}", account: "${b!.account}") }` })).errors).toBeUndefined();
    expect((await s.gateway.execute({ query: `mutation { moveEntry(id: "${small!.entry}", account: "${a!.account}") }` })).errors).toBeUndefined();
    expect((await stored(ids)).accounts).toEqual([1.5e308 + 2, 1.5e308, 0]);
    await forget(ids);
  });

  it('refuses an update between two accepted values whose difference could take the total past the largest Float', async () => {
    const [legacy] = await legacyAccounts(Number.MAX_VALUE);
    const created = await s.gateway.execute({ query: `mutation { createEntry(input: { account: "${legacy!.account}", weight: -4e291 }) { id } }` });
    expect(created.errors).toBeUndefined();
    const id = (created.data as { createEntry: { id: string } }).createEntry.id;
    const before = await stored([legacy!.account]);
    const updated = await s.gateway.execute({ query: `mutation { updateEntry(id: "${id}", input: { weight: 4e291 }) { id } }` });
    expect(codes(updated)).toEqual(['BAD_USER_INPUT']);
    expect(updated.errors![0]!.message).toBe('Account.weight would move by 8e+291; a change of a Float total must stay under 4.990e+291, or the total could pass the largest Float and no read could answer it');
    expect(await stored([legacy!.account])).toEqual(before);
    // A step under the bound is taken; the total, rounded at the largest double, stays finite.
    expect((await s.gateway.execute({ query: `mutation { updateEntry(id: "${id}", input: { weight: 0 }) { id } }` })).errors).toBeUndefined();
    expect((await stored([legacy!.account])).accounts).toEqual([Number.MAX_VALUE]);
    await forget([legacy!.account]);
  });

  it('updates an entry with no account by any step: it moves no total', async () => {
    const orphan = new ObjectId();
    await db.collection('entries').insertOne({ _id: orphan, weight: new Double(4e291) });
    const totalsBefore = await db.collection('accounts').find({}, { projection: { weight: 1 } }).toArray();
    const updated = await s.gateway.execute({ query: `mutation { updateEntry(id: "${orphan}", input: { weight: -4e291 }) { weight } }` });
    expect({ errors: updated.errors, data: updated.data }).toEqual({ errors: undefined, data: { updateEntry: { weight: -4e291 } } });
    expect(await db.collection('accounts').find({}, { projection: { weight: 1 } }).toArray()).toEqual(totalsBefore);
    await db.collection('entries').deleteOne({ _id: orphan });
  });

  it('re-points an entry holding an array where its weight goes: it adds nothing, and the step check reads the array as the totals do', async () => {
    const [a, b] = await legacyAccounts(0, 0);
    await db.collection('entries').updateOne({ _id: a!.entry }, { $set: { weight: [new Double(1e300)] } });
    const moved = await s.gateway.execute({ query: `mutation { moveEntry(id: "${a!.entry}", account: "${b!.account}") }` });
    expect({ errors: moved.errors, data: moved.data }).toEqual({ errors: undefined, data: { moveEntry: true } });
    expect(await stored([a!.account, b!.account])).toEqual({ accounts: [0, 0], entries: [{ _id: a!.entry, accountId: b!.account, weight: [1e300] }, { _id: b!.entry, accountId: b!.account, weight: 0 }] });
    await forget([a!.account, b!.account]);
  });

  it('re-points an entry whose summed path crosses an array (meta: [{ weight }] for meta.weight): it adds nothing, so the move is never refused nor retried', async () => {
    const nested = TYPE_DEFS.replace('    weight: Float\n    points: Long\n    account', '    weight: Float @path(path: "meta.weight")\n    points: Long\n    account');
    const [from, to, entry] = [new ObjectId(), new ObjectId(), new ObjectId()];
    const gateway = await startSdlGateway({
      dbPrefix: 'total_overflow_nested',
      typeDefs: nested,
      gateway: MOVE_ENTRY,
      prepare: async (fresh) => {
        await fresh.collection('accounts').insertMany([from, to].map((_id) => ({ _id, name: 'n', entryCount: 0, weight: new Double(0), points: Long.ZERO })));
        await fresh.collection('entries').insertOne({ _id: entry, accountId: from, meta: [{ weight: new Double(1e300) }] });
        await fresh.collection('entries').createIndex({ accountId: 1 });
      },
    });
    try {
      const moved = await gateway.gateway.execute({ query: `mutation { moveEntry(id: "${entry}", account: "${to}") }` });
      expect({ errors: moved.errors, data: moved.data, attempts: moved.cost?.writes?.attempts }).toEqual({ errors: undefined, data: { moveEntry: true }, attempts: 1 });
      expect({
        accounts: (await gateway.db.collection('accounts').find({}, { sort: { _id: 1 } }).toArray()).map((account) => account.weight),
        entry: await gateway.db.collection('entries').findOne({ _id: entry }),
      }).toEqual({ accounts: [0, 0], entry: { _id: entry, accountId: to, meta: [{ weight: 1e300 }] } });
    } finally {
      await gateway.stop();
    }
  });
});

(transactions.supported ? describe : describe.skip)(`a Long total, with transactions${transactions.skipReason}`, () => {

  it('answers BAD_USER_INPUT when a Long total would pass 2^63 - 1, and keeps nothing of the write', async () => {
    expect((await create('points: "9223372036854775807"')).errors).toBeUndefined();
    const before = { entries: await db.collection('entries').countDocuments(), account: await db.collection('accounts').findOne({ _id: account }) };
    const over = await create('points: "1"');
    expect(codes(over)).toEqual(['BAD_USER_INPUT']);
    expect(over.errors![0]!.message).toBe('Mutation.createEntry: a total or counter this write moves would pass the largest Long (9223372036854775807), so nothing was written');
    expect({ entries: await db.collection('entries').countDocuments(), account: await db.collection('accounts').findOne({ _id: account }) }).toEqual(before);
  });
});
