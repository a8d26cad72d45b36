import { Double, ObjectId, type Db } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A total sums the documents of its children's collection, whichever GraphQL type wrote them: a second
 * type over the same documents (`Refund` over `entries`) moves it as the first does, as counters
 * already were. An update that would set a summed value inside a field set whole (`meta`, a JSON
 * object holding `meta.weight`) is refused at startup, since it would change the value without
 * moving the total. Snapshots, bounded arrays and inverses are kept by type, so a write through a
 * second type over documents one of them copies is refused at startup.
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

it('refuses at startup a write through a second type over documents a bounded array holds', async () => {
  const bounded = TYPE_DEFS.replace(
    'weight: Float! @total(of: "Account.entries", field: "weight")',
    'weight: Float! @total(of: "Account.entries", field: "weight")\n    recentEntries: [Entry!]! @embedded @join(collection: "entries", localField: "_id", foreignField: "accountId", sort: "-_id", limit: 3) @read(strategy: EMBEDDED)',
  );
  await expect(startSdlGateway({ dbPrefix: 'totals_shared_bounded', typeDefs: bounded })).rejects.toThrow(
    'Mutation.createRefund: write plan insert(Refund): Refund shares the collection "entries" with Entry, whose documents Account.recentEntries holds, and a write through Refund would leave Account.recentEntries stale; write those documents through Entry\'s mutations',
  );
});
