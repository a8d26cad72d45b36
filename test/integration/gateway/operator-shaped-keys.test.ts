import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A stored reference shaped like an operator (`{ $oid: "…" }`, Extended JSON imported with JSON.parse)
 * cannot go in the batch's `$in`: MongoDB refuses the whole command. It finds nothing, as any other
 * dangling reference does, and its siblings in the batch resolve; by join and by lookup alike, and so
 * does a parent key shaped like one in a reverse join, which must never match as an operator would.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { orders(first: Int = 20): [Order!]! @list(sort: "ref") accounts(first: Int = 20, name: String): [Account!]! @list(sort: "name") }
  type Customer @collection(name: "customers") { id: ID! name: String! }
  type Order @collection(name: "orders") { id: ID! ref: String! customer: Customer @join(localField: "customerId") customers: [Customer!]! @join(localField: "customerIds") }
  type Account @collection(name: "accounts") {
    name: String!
    latest(first: Int = 5): [Entry!]! @join(localField: "code", foreignField: "accountCode", sort: "n")
    entries: [Entry!]! @join(localField: "code", foreignField: "accountCode", sort: "n")
    entriesAggregate: EntryAggregate! @aggregate(of: "entries", fields: ["n"])
    page(first: Int = 5, after: String): EntryConnection! @join(localField: "code", foreignField: "accountCode", sort: "n")
  }
  type EntryConnection { edges: [EntryEdge!]! nodes: [Entry!]! pageInfo: PageInfo! totalCount: Int! }
  type EntryEdge { cursor: String! node: Entry! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Entry @collection(name: "entries") { id: ID! n: Int! }
`;

const ann = new ObjectId();
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'operator_keys',
    prepare: async (db) => {
      await db.collection('customers').insertOne({ _id: ann, name: 'Ann' });
      await db.collection('orders').insertMany([
        { ref: 'a-imported', customerId: { $oid: ann.toHexString() }, customerIds: [{ $oid: ann.toHexString() }, ann] },
        { ref: 'b-ok', customerId: ann, customerIds: [ann] },
      ]);
      await db.collection('accounts').insertMany([{ name: 'a plain', code: 'A' }, { name: 'b operator', code: { $gt: '' } }, { name: 'c imported', code: { $oid: ann.toHexString() } }]);
      await db.collection('entries').insertMany([{ accountCode: 'A', n: 1 }, { accountCode: 'B', n: 2 }]);
      await db.collection('entries').createIndex({ accountCode: 1, n: 1, _id: 1 });
      await db.collection('accounts').createIndex({ name: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

it('answers null for the operator-shaped key and resolves the others of its batch, in one read', async () => {
  const result = await s.gateway.execute({ query: '{ orders { ref customer { name } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ orders: [{ ref: 'a-imported', customer: null }, { ref: 'b-ok', customer: { name: 'Ann' } }] });
  expect(result.cost?.roundTrips).toBe(2);
});

it('sends no read when every key of the batch is operator-shaped', async () => {
  const result = await s.gateway.execute({ query: '{ orders(first: 1) { ref customer { name } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ orders: [{ ref: 'a-imported', customer: null }] });
  expect(result.cost?.roundTrips).toBe(1);
});

it('reads a list of references holding one by join and by lookup alike: the others resolve', async () => {
  for (const strategyHeader of ['Order.customer=join,Order.customers=join', 'Order.customer=lookup,Order.customers=lookup']) {
    const result = await s.gateway.execute({ query: '{ orders { ref customer { name } customers { name } } }' }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([
      strategyHeader,
      undefined,
      { orders: [{ ref: 'a-imported', customer: null, customers: [{ name: 'Ann' }] }, { ref: 'b-ok', customer: { name: 'Ann' }, customers: [{ name: 'Ann' }] }] },
    ]);
  }
});

it('gives a parent key shaped like an operator no children in a reverse join, bounded or not, by join and by lookup, and matches nothing with it', async () => {
  const expected = { accounts: ['a plain', 'b operator', 'c imported'].map((name, index) => ({ name, latest: index === 0 ? [{ n: 1 }] : [], entries: index === 0 ? [{ n: 1 }] : [] })) };
  for (const strategyHeader of ['Account.latest=join', 'Account.latest=lookup']) {
    const result = await s.gateway.execute({ query: '{ accounts { name latest { n } entries { n } } }' }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, expected]);
  }
});

it('counts and adds up no children for a parent key shaped like an operator, and those of the others', async () => {
  const result = await s.gateway.execute({ query: '{ accounts { name entriesAggregate { count sum { n } } page { totalCount nodes { n } } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({
    accounts: ['a plain', 'b operator', 'c imported'].map((name, index) => ({
      name,
      entriesAggregate: { count: index === 0 ? 1 : 0, sum: { n: index === 0 ? 1 : 0 } },
      page: { totalCount: index === 0 ? 1 : 0, nodes: index === 0 ? [{ n: 1 }] : [] },
    })),
  });
});


it('sends no aggregate, count or page when every parent key of the level is shaped like an operator', async () => {
  const result = await s.gateway.execute({ query: '{ accounts(name: "b operator") { name entriesAggregate { count } page { totalCount nodes { n } } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ accounts: [{ name: 'b operator', entriesAggregate: { count: 0 }, page: { totalCount: 0, nodes: [] } }] });
  // The accounts, and nothing for their children.
  expect(result.cost?.roundTrips).toBe(1);
});
