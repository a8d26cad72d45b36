import { Decimal128, Long, ObjectId, type Document } from 'mongodb';
import { buildWriteModel, reconcile, withDirectiveTypeDefs } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';
import { MOVE_ENTRY } from './support/move-entry';

/**
 * `@total`: a parent's running sum of a field of its children, kept by every generated write (create,
 * update of the summed field, delete) with the children's own numbers, in Decimal128 for a Decimal; read by
 * the list's aggregate with no command when it answers all the aggregate asks (an Int's or a Long's); and
 * summed again by reconcile.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    accounts(first: Int = 20, after: ID): [Account!]! @list
  }
  type Mutation {
    createEntry(input: EntryInput!): Entry! @create
    updateEntry(id: ID!, input: EntryPatch!): Entry! @update
    deleteEntry(id: ID!): Boolean! @delete(type: "Entry")
    "Hand-written: points an entry at another account."
    moveEntry(id: ID!, account: ID!): Boolean!
  }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    entries(first: Int = 20, after: ID): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    entryCount: Int! @counter(of: "Account.entries")
    balance: Decimal! @total(of: "Account.entries", field: "amount")
    units: Float! @total(of: "Account.entries", field: "units")
    weight: Float! @total(of: "Account.entries", field: "weight")
    points: Long! @total(of: "Account.entries", field: "points")
    entriesAggregate: EntryAggregate! @aggregate(of: "entries", fields: ["amount", "units", "weight", "points"])
  }
  type Entry @collection(name: "entries") {
    id: ID!
    amount: Decimal!
    units: Int!
    weight: Float!
    "Nullable: an entry without points adds nothing to the total, and is left out of the mean."
    points: Long
    note: String
    account: Account @join(localField: "accountId")
  }
  input EntryInput {
    account: ID!
    amount: Decimal!
    units: Int!
    weight: Float!
    points: Long
    note: String
  }
  input EntryPatch {
    amount: Decimal
    units: Int
    note: String
  }
`;

const savings = new ObjectId();
const spending = new ObjectId();

let ledger: SdlGateway;
beforeAll(async () => {
  ledger = await startSdlGateway({
    dbPrefix: 'totals',
    typeDefs: TYPE_DEFS,
    gateway: MOVE_ENTRY,
    prepare: async (db) => {
      const zero = { entryCount: 0, balance: Decimal128.fromString('0'), units: 0, weight: 0, points: Long.ZERO };
      await db.collection('accounts').insertMany([
        { _id: savings, name: 'savings', ...zero },
        { _id: spending, name: 'spending', ...zero },
      ]);
      await db.collection('entries').createIndex({ accountId: 1 });
    },
  });
}, 60_000);
afterAll(() => ledger?.stop());

async function run(query: string) {
  const result = await ledger.gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  return { data: result.data as Record<string, any>, cost: result.cost! };
}

/** Each account's sums as MongoDB's `$sum` computes them from the entries now. */
async function summed(): Promise<Map<string, Document>> {
  const groups = await ledger.mongo.client
    .db(ledger.db.databaseName)
    .collection('entries')
    .aggregate([{ $group: { _id: '$accountId', amount: { $sum: '$amount' }, units: { $sum: '$units' }, count: { $sum: 1 } } }])
    .toArray();
  return new Map(groups.map((group) => [String(group._id), group]));
}

async function stored(id: ObjectId): Promise<Document> {
  return (await ledger.mongo.client.db(ledger.db.databaseName).collection('accounts').findOne({ _id: id }))!;
}

const entryIds: string[] = [];

describe('writes keep each parent total exact', () => {
  it('adds each new entry to its account, in Decimal128 for a Decimal', async () => {
    for (const [account, amount, units, points] of [
      [savings, '0.1', 2 ** 31 - 1, '"9007199254740993"'],
      [savings, '0.2', 2 ** 31 - 1, 'null'],
      [savings, '1234567890123456789.01', 1, '"2"'],
      [spending, '-5.5', 3, '"1"'],
    ] as const) {
      const { data } = await run(`mutation { createEntry(input: { account: "${account.toHexString()}", amount: "${amount}", units: ${units}, weight: 0.5, points: ${points} }) { id } }`);
      entryIds.push(data.createEntry.id);
    }
    const sums = await summed();
    const account = await stored(savings);
    expect(account.balance).toBeInstanceOf(Decimal128);
    expect(account.balance.toString()).toBe('1234567890123456789.31');
    expect(account.balance.toString()).toBe(sums.get(String(savings))!.amount.toString());
    // Two Ints at the int32 maximum: the Float total is a double, which does not overflow.
    expect(account.units).toBe(2 * (2 ** 31 - 1) + 1);
    expect((await stored(spending)).balance.toString()).toBe('-5.5');
    // A Long past 2^53, exact: the entry without points added nothing.
    expect(account.points).toEqual(Long.fromString('9007199254740995'));
    const { data } = await run('{ accounts { name entryCount balance units weight points } }');
    expect(data.accounts).toEqual([
      { name: 'savings', entryCount: 3, balance: '1234567890123456789.31', units: 2 * (2 ** 31 - 1) + 1, weight: 1.5, points: '9007199254740995' },
      { name: 'spending', entryCount: 1, balance: '-5.5', units: 3, weight: 0.5, points: '1' },
    ]);
  });

  it('moves the total by the difference when the summed field changes, and not at all when another does', async () => {
    const before = await stored(savings);
    await run(`mutation { updateEntry(id: "${entryIds[0]}", input: { amount: "0.15" }) { amount } }`);
    expect((await stored(savings)).balance.toString()).toBe('1234567890123456789.36');
    await run(`mutation { updateEntry(id: "${entryIds[0]}", input: { note: "lunch" }) { note } }`);
    const after = await stored(savings);
    expect(after.balance.toString()).toBe('1234567890123456789.36');
    expect(after.units).toBe(before.units);
    const changed = await run(`mutation { updateEntry(id: "${entryIds[1]}", input: { units: 7, amount: "0.2" }) { units } }`);
    // The entry is updated by ONE findAndModify returning it as it was, then its account by one update, then the commit.
    expect(changed.cost.writes).toMatchObject({ roundTrips: 3, fanOut: { accounts: 1, entries: 1 } });
    expect(changed.cost).toMatchObject({ estimatedRoundTrips: changed.cost.roundTrips });
    const sums = await summed();
    expect((await stored(savings)).units).toBe(sums.get(String(savings))!.units);
    expect((await stored(savings)).balance.toString()).toBe(sums.get(String(savings))!.amount.toString());
  });

  it('moves an entry re-pointed at another account from one total and count to the other, by what it held as the update found it', async () => {
    const moved = await run(`mutation { moveEntry(id: "${entryIds[3]}", account: "${savings.toHexString()}") }`);
    expect(moved.cost).toMatchObject({ estimatedRoundTrips: moved.cost.roundTrips });
    // The entry updated by ONE findAndModify, both accounts by one update command, then the commit.
    expect(moved.cost.writes).toMatchObject({ roundTrips: 5, fanOut: { accounts: 2 } });
    const sums = await summed();
    expect((await stored(savings)).balance.toString()).toBe(sums.get(String(savings))!.amount.toString());
    expect((await stored(savings)).entryCount).toBe(4);
    expect((await stored(spending)).balance.toString()).toBe('0.0');
    expect((await stored(spending)).entryCount).toBe(0);
    await run(`mutation { moveEntry(id: "${entryIds[3]}", account: "${spending.toHexString()}") }`);
    expect((await stored(spending)).balance.toString()).toBe('-5.5');
    expect((await stored(savings)).entryCount).toBe(3);
  });

  it('takes a deleted entry away from its account', async () => {
    await run(`mutation { deleteEntry(id: "${entryIds[2]}") }`);
    const account = await stored(savings);
    expect(account.balance.toString()).toBe('0.35');
    expect(account.entryCount).toBe(2);
    expect(account.balance.toString()).toBe((await summed()).get(String(savings))!.amount.toString());
  });
});

describe('the aggregate reads what the totals answer', () => {
  it('answers an unfiltered count, sum and mean of Int and Long fields from the parent, with no command, equal to the aggregate', async () => {
    const { data, cost } = await run(
      '{ accounts { stored: entriesAggregate { count sum { amount units } avg { amount units } } queried: entriesAggregate { count sum { amount units } avg { amount units } min { amount } } } }',
    );
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    for (const account of data.accounts) {
      const { min: _min, ...queried } = account.queried;
      expect(account.stored).toEqual(queried);
    }
    expect(data.accounts[0].stored).toEqual({ count: 2, sum: { amount: '0.35', units: 2 ** 31 - 1 + 7 }, avg: { amount: '0.175', units: (2 ** 31 - 1 + 7) / 2 } });
    const alone = await run('{ accounts { entriesAggregate { count sum { units } avg { units } } } }');
    expect(alone.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(alone.cost.fields['Account.entriesAggregate']).toMatchObject({ strategy: 'embedded', roundTrips: 0 });
  });

  it('still queries a Decimal field summed by a total: Decimal128 rounds a running sum to 34 digits, where a fresh $sum may not (decimal-totals.test.ts)', async () => {
    const { data, cost } = await run('{ accounts { entriesAggregate { sum { amount } } } }');
    expect(data.accounts.map((account: { entriesAggregate: unknown }) => account.entriesAggregate)).toEqual([{ sum: { amount: '0.35' } }, { sum: { amount: '-5.5' } }]);
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('answers the sum of a nullable field from its total, but queries its mean ($avg leaves out the entries without one, which the counter counts)', async () => {
    const summedOnly = await run('{ accounts { entriesAggregate { count sum { points } } } }');
    expect(summedOnly.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    const averaged = await run('{ accounts { entriesAggregate { count sum { points } avg { points } } } }');
    expect(averaged.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(averaged.data.accounts.map((account: { entriesAggregate: unknown }) => account.entriesAggregate)).toEqual([
      ...summedOnly.data.accounts.map((account: { entriesAggregate: { count: number; sum: unknown } }) => ({ ...account.entriesAggregate, avg: expect.anything() })),
    ]);
    // Savings: one entry with points left, one without; the mean is over the one (a double, as $avg gives it).
    expect(averaged.data.accounts[0].entriesAggregate).toEqual({ count: 2, sum: { points: '9007199254740993' }, avg: { points: 9007199254740992 } });
  });

  it('still sends the aggregate for a selection of no figure (max { __typename }), as the estimate says', async () => {
    const { data, cost } = await run('{ accounts { entriesAggregate { max { __typename } } } }');
    expect(data.accounts[0].entriesAggregate).toEqual({ max: { __typename: 'EntryMaxima' } });
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('still queries a Float field summed by a total: a running sum of doubles can differ from $sum in its last digits', async () => {
    const { data, cost } = await run('{ accounts { entriesAggregate { sum { weight } } } }');
    expect(data.accounts.map((account: { entriesAggregate: unknown }) => account.entriesAggregate)).toEqual([{ sum: { weight: 1 } }, { sum: { weight: 0.5 } }]);
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });
});

describe('reconcile', () => {
  it('finds a drifted total, sums it again with --fix, and then finds none', async () => {
    const db = ledger.mongo.client.db(ledger.db.databaseName);
    await db.collection('accounts').updateOne({ _id: spending }, { $set: { balance: Decimal128.fromString('99') } });
    await db.collection('accounts').updateOne({ _id: savings }, { $unset: { units: '' } });
    const model = buildWriteModel(withDirectiveTypeDefs([TYPE_DEFS]));
    const found = await reconcile(db, model);
    const totals = found.checks.filter((check) => check.kind === 'total');
    expect(totals.map((check) => [check.coordinate, check.drifted])).toEqual([
      ['Account.balance', 1],
      ['Account.units', 1],
      ['Account.weight', 0],
      ['Account.points', 0],
    ]);
    await reconcile(db, model, { fix: true });
    expect((await stored(spending)).balance.toString()).toBe('-5.5');
    expect((await stored(savings)).units).toBe(2 ** 31 - 1 + 7);
    expect((await reconcile(db, model)).drifted).toBe(0);
  });

  it('takes a Float total that differs from $sum only by the rounding of its running sum for no drift, and one off by a value for drift', async () => {
    const db = ledger.mongo.client.db(ledger.db.databaseName);
    const model = buildWriteModel(withDirectiveTypeDefs([TYPE_DEFS]));
    const weightDrift = async () => (await reconcile(db, model)).checks.find((check) => check.kind === 'total' && check.coordinate === 'Account.weight')!.drifted;
    const { data } = await run(`mutation { createEntry(input: { account: "${savings}", amount: "0", units: 0, weight: 0.7 }) { id } }`);
    const { weight } = await stored(savings);
    try {
      // What 0.1 + 0.2 + 0.7 + 0.5 kept by $inc holds where $sum of the same values gives 1.5.
      await db.collection('accounts').updateOne({ _id: savings }, { $set: { weight: weight + 2 ** -52 * weight } });
      expect((await stored(savings)).weight).not.toBe(weight);
      expect(await weightDrift()).toBe(0);
      await db.collection('accounts').updateOne({ _id: savings }, { $set: { weight: weight + 0.001 } });
      expect(await weightDrift()).toBe(1);
      // Entries that cancel out leave a small sum of large magnitudes: a lost 1.5 is still drift.
      await db.collection('accounts').updateOne({ _id: savings }, { $set: { weight } });
      const { data: big } = await run(`mutation { a: createEntry(input: { account: "${savings}", amount: "0", units: 0, weight: 1e9 }) { id } b: createEntry(input: { account: "${savings}", amount: "0", units: 0, weight: -1e9 }) { id } }`);
      try {
        expect(await weightDrift()).toBe(0);
        await db.collection('accounts').updateOne({ _id: savings }, { $inc: { weight: -1.5 } });
        expect(await weightDrift()).toBe(1);
        await db.collection('accounts').updateOne({ _id: savings }, { $inc: { weight: 1.5 } });
      } finally {
        await run(`mutation { a: deleteEntry(id: "${big.a.id}") b: deleteEntry(id: "${big.b.id}") }`);
      }
    } finally {
      await db.collection('accounts').updateOne({ _id: savings }, { $set: { weight } });
      await run(`mutation { deleteEntry(id: "${data.createEntry.id}") }`);
    }
  });
});

describe('while docjoin migrate backfills a total', () => {
  let backfilling: SdlGateway;
  beforeAll(async () => {
    backfilling = await startSdlGateway({
      dbPrefix: 'totals_backfill',
      typeDefs: TYPE_DEFS,
      gateway: MOVE_ENTRY,
      prepare: async (db) => {
        // A total a write started from nothing, not yet backfilled.
        await db.collection('accounts').insertOne({ _id: savings, name: 'savings', entryCount: 2, balance: Decimal128.fromString('0.1'), units: 0, weight: 0 });
        await db.collection('entries').insertMany([
          { accountId: savings, amount: Decimal128.fromString('2.5'), units: 1, weight: 1 },
          { accountId: savings, amount: Decimal128.fromString('0.1'), units: 1, weight: 1 },
        ]);
        await db.collection('entries').createIndex({ accountId: 1 });
        await db.collection('docjoin_migrations').insertOne({ _id: 'Account.balance' as never, kind: 'total-backfill', startedAt: new Date(), resumeAfter: null });
      },
    });
  }, 60_000);
  afterAll(() => backfilling?.stop());

  it('sums the total by query, and does not answer the aggregate from it, in one aggregate command the estimate counts', async () => {
    const result = await backfilling.gateway.execute({ query: '{ accounts { balance units entriesAggregate { count sum { amount } } } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ accounts: [{ balance: '2.6', units: 0, entriesAggregate: { count: 2, sum: { amount: '2.6' } } }] });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });
});
