import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A reverse join whose parent holds its key (the join's localField) as an array: the parent has the
 * children of each key, each once, as MongoDB's `$lookup` matches an array localField, in its order and
 * page, by join and by lookup alike, and a connection's totalCount and an aggregate's figures count each
 * of them once. A null in the array names nothing, as a null reference does (the children without a key
 * belong to no parent), and so does an array inside it.
 */
const SDL = /* GraphQL */ `
  type Query { accounts: [Account!]! @list }
  type Account @collection(name: "accounts") {
    id: ID!
    name: String!
    entries(first: Int = 5): [Entry!]! @join(localField: "codes", foreignField: "code", sort: "amount")
    firstEntry: Entry @join(localField: "codes", foreignField: "code", sort: "amount", limit: 1)
    entriesConnection(first: Int = 1, after: String): EntryConnection! @join(localField: "codes", foreignField: "code", sort: "amount")
    entriesAggregate: EntryAggregate! @aggregate(of: "entries", fields: ["amount"])
  }
  type EntryConnection { edges: [EntryEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type EntryEdge { cursor: String! node: Entry! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Entry @collection(name: "entries") { id: ID! amount: Int! }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'array_parent_keys',
    prepare: async (db) => {
      await db.collection('accounts').insertMany([
        { _id: oid(1), name: 'both', codes: ['x', 'y'] },
        { _id: oid(2), name: 'x alone', codes: 'x' },
        { _id: oid(3), name: 'none', codes: [] },
        { _id: oid(4), name: 'null and x', codes: [null, 'x'] },
        { _id: oid(5), name: 'null', codes: [null] },
        { _id: oid(6), name: 'nested', codes: [['x', 'y']] },
      ]);
      await db.collection('entries').insertMany([
        { _id: oid(11), amount: 1, code: 'x' },
        { _id: oid(12), amount: 2, code: ['x', 'y'] },
        { _id: oid(13), amount: 3, code: 'y' },
        { _id: oid(14), amount: 4, code: 'z' },
        { _id: oid(15), amount: 0, code: null },
        { _id: oid(16), amount: 0 },
      ]);
      await db.collection('entries').createIndex({ code: 1, amount: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

const ids = (...numbers: number[]) => numbers.map((n) => ({ id: oid(n).toHexString() }));

it('lists the children of each of its keys once, in order and page, by join and by lookup', async () => {
  const query = '{ accounts { name entries { id } one: entries(first: 1) { id } firstEntry { id } } }';
  const expected = {
    accounts: [
      { name: 'both', entries: ids(11, 12, 13), one: ids(11), firstEntry: ids(11)[0] },
      { name: 'x alone', entries: ids(11, 12), one: ids(11), firstEntry: ids(11)[0] },
      { name: 'none', entries: [], one: [], firstEntry: null },
      { name: 'null and x', entries: ids(11, 12), one: ids(11), firstEntry: ids(11)[0] },
      { name: 'null', entries: [], one: [], firstEntry: null },
      { name: 'nested', entries: [], one: [], firstEntry: null },
    ],
  };
  for (const strategyHeader of ['', 'Account.entries=lookup,Account.firstEntry=lookup']) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, expected]);
  }
});

it('counts and aggregates each of those children once', async () => {
  const result = await subject.gateway.execute({ query: '{ accounts { name entriesConnection { totalCount edges { node { id } } pageInfo { hasNextPage } } entriesAggregate { count sum { amount } } } }' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({
    accounts: [
      { name: 'both', entriesConnection: { totalCount: 3, edges: [{ node: ids(11)[0] }], pageInfo: { hasNextPage: true } }, entriesAggregate: { count: 3, sum: { amount: 6 } } },
      { name: 'x alone', entriesConnection: { totalCount: 2, edges: [{ node: ids(11)[0] }], pageInfo: { hasNextPage: true } }, entriesAggregate: { count: 2, sum: { amount: 3 } } },
      { name: 'none', entriesConnection: { totalCount: 0, edges: [], pageInfo: { hasNextPage: false } }, entriesAggregate: { count: 0, sum: { amount: 0 } } },
      { name: 'null and x', entriesConnection: { totalCount: 2, edges: [{ node: ids(11)[0] }], pageInfo: { hasNextPage: true } }, entriesAggregate: { count: 2, sum: { amount: 3 } } },
      { name: 'null', entriesConnection: { totalCount: 0, edges: [], pageInfo: { hasNextPage: false } }, entriesAggregate: { count: 0, sum: { amount: 0 } } },
      { name: 'nested', entriesConnection: { totalCount: 0, edges: [], pageInfo: { hasNextPage: false } }, entriesAggregate: { count: 0, sum: { amount: 0 } } },
    ],
  });
});

it('counts each child once in its field\'s documents, however many parents share its keys', async () => {
  const result = await subject.gateway.execute({ query: '{ accounts { entries { id } } }' }, { strategyHeader: 'Account.entries=join' });
  expect(result.errors).toBeUndefined();
  // Three children (11, 12, 13) for three parents holding x, y or both; the reply brought 12 twice, in x's and y's page.
  expect(result.cost!.fields['Account.entries']).toMatchObject({ strategy: 'join', documents: 3 });
  expect(result.cost!.collections.entries).toMatchObject({ documents: 4 });
});
