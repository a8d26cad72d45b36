import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A reference's key is a value of the row that holds it, which that row's rule governs: a document the
 * role may not read answers null, as if absent, while a filter or an order by the key answers as one by
 * any field the role reads (the key is hidden by hiding the relation). A group by such a reference is
 * refused, since it would count the referenced documents: unless every row the role reads points at a
 * document it reads, as when both rules pin the key to the same claim (a customer's orders name that
 * customer).
 */
const typeDefs = /* GraphQL */ `
  type Query {
    users(first: Int = 20, favourite: ID, orderBy: UserOrder): [User!]! @list(sort: "name")
    userStats(favourite: ID): UserAggregate! @aggregate(of: "users", groupBy: ["favourite"])
    orders(customer: ID, orderBy: OrderOrder): [Order!]! @list(sort: "label")
    orderStats(customer: ID): OrderAggregate! @aggregate(of: "orders", groupBy: ["customer"])
  }
  enum UserOrder { BY_FAVOURITE @sort(by: "favouriteId") }
  enum OrderOrder { BY_CUSTOMER @sort(by: "customerId,label") }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    favourite: Note @join(localField: "favouriteId")
  }
  type Note @collection(name: "notes") @access(roles: ["member"], allow: [READ], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    owner: String!
    text: String!
  }
  type Order @collection(name: "orders") @access(roles: ["member"], allow: [READ], where: [{ field: "customer", claim: "sub" }]) {
    id: ID!
    label: String!
    customer: Customer! @join(localField: "customerId")
  }
  type Customer @collection(name: "customers") @access(roles: ["member"], allow: [READ], where: [{ field: "id", claim: "sub" }]) {
    id: ID!
    name: String!
  }
`;

const [mine, theirs] = [new ObjectId('aaaaaaaaaaaaaaaaaaaaaaaa'), new ObjectId('bbbbbbbbbbbbbbbbbbbbbbbb')];
const [ann, bob] = [new ObjectId('cccccccccccccccccccccccc'), new ObjectId('dddddddddddddddddddddddd')];
const member: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: ann.toHexString(), claims: { sub: ann.toHexString() } };

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_reference_keys',
    prepare: async (db) => {
      await db.collection('notes').insertMany([
        { _id: mine, owner: ann.toHexString(), text: 'mine' },
        { _id: theirs, owner: bob.toHexString(), text: 'theirs' },
      ]);
      await db.collection('users').insertMany([{ name: 'a', favouriteId: theirs }, { name: 'b', favouriteId: mine }, { name: 'c' }]);
      await db.collection('customers').insertMany([
        { _id: ann, name: 'Ann' },
        { _id: bob, name: 'Bob' },
      ]);
      await db.collection('orders').insertMany([
        { label: 'o1', customerId: ann },
        { label: 'o2', customerId: bob },
        { label: 'o3', customerId: ann },
      ]);
      await db.collection('notes').createIndex({ owner: 1 });
      for (const [collection, key] of [['users', 'name'], ['users', 'favouriteId'], ['orders', 'label'], ['orders', 'customerId']] as const) {
        await db.collection(collection).createIndex({ [key]: 1, _id: 1 });
      }
      await db.collection('orders').createIndex({ customerId: 1, label: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined, checkEstimates: false },
  });
}, 60_000);
afterAll(() => s?.stop());

async function run(query: string): Promise<{ data: unknown; errors: string[] | undefined }> {
  const result = await s.gateway.execute({ query }, { viewer: member });
  return { data: result.data, errors: result.errors?.map((error) => `${String(error.extensions?.code)}: ${error.message}`) };
}

it('shows a reference to a hidden document as null, like no reference at all', async () => {
  expect(await run('{ users { name favourite { id } } }')).toEqual({
    data: { users: [{ name: 'a', favourite: null }, { name: 'b', favourite: { id: mine.toHexString() } }, { name: 'c', favourite: null }] },
    errors: undefined,
  });
});

it("filters, counts and orders by the key as by any field of the rows the role reads", async () => {
  expect(await run(`{ users(favourite: "${theirs.toHexString()}") { name favourite { id } } }`)).toEqual({ data: { users: [{ name: 'a', favourite: null }] }, errors: undefined });
  expect(await run(`{ userStats(favourite: "${theirs.toHexString()}") { count } }`)).toEqual({ data: { userStats: { count: 1 } }, errors: undefined });
  expect(await run('{ users(orderBy: BY_FAVOURITE) { name } }')).toEqual({ data: { users: [{ name: 'c' }, { name: 'b' }, { name: 'a' }] }, errors: undefined });
});

it('refuses a group by that reference, which would count the documents it points at', async () => {
  expect((await run('{ userStats { groupBy(by: [FAVOURITE]) { count } } }')).errors).toEqual([
    'FORBIDDEN: Query.userStats groups by User.favourite, whose Note documents role "member" reads only in part',
  ]);
});

it('filters, counts, orders and groups by a key both rules pin to the same claim: every row read points at a document read', async () => {
  expect(await run(`{ orders(customer: "${ann.toHexString()}", orderBy: BY_CUSTOMER) { label customer { name } } }`)).toEqual({
    data: { orders: [{ label: 'o1', customer: { name: 'Ann' } }, { label: 'o3', customer: { name: 'Ann' } }] },
    errors: undefined,
  });
  expect(await run(`{ orderStats(customer: "${bob.toHexString()}") { count } }`)).toEqual({ data: { orderStats: { count: 0 } }, errors: undefined });
  expect(await run('{ orderStats { count groupBy(by: [CUSTOMER]) { key { customer } count } } }')).toEqual({
    data: { orderStats: { count: 2, groupBy: [{ key: { customer: ann.toHexString() }, count: 2 }] } },
    errors: undefined,
  });
});
