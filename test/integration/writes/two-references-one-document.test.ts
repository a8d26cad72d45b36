import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * An order whose plain reference (`referrer`) and snapshot reference (`customer`) name the same
 * customer. The write unit reads the referrer first, with `_id` alone; the snapshot must read the
 * customer again for the fields it copies, not take that read as its source (the copy held nulls).
 */
const typeDefs = /* GraphQL */ `
  type Query { orders(first: Int = 20): [Order!]! @list }
  type Mutation { createOrder(input: OrderInput!): Order! @create }
  type Customer @collection(name: "customers") { id: ID! name: String! }
  type Order @collection(name: "orders") {
    id: ID!
    referrer: Customer @join(localField: "referrerId")
    customer: Customer! @snapshot(path: "customer", fields: ["id", "name"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
  }
  input OrderInput { referrer: ID customer: ID! }
`;
const ada = new ObjectId('0000000000000000000000c1');

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'two_references',
    prepare: async (db) => {
      await db.collection('customers').insertOne({ _id: ada, name: 'Ada' });
      await db.collection('orders').createIndex({ referrerId: 1 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

it('copies the customer named by both references with every field the snapshot holds', async () => {
  const created = await s.gateway.execute({ query: `mutation { createOrder(input: { referrer: "${ada.toHexString()}", customer: "${ada.toHexString()}" }) { referrer { name } customer { name } } }` });
  expect({ data: created.data, errors: created.errors }).toEqual({ data: { createOrder: { referrer: { name: 'Ada' }, customer: { name: 'Ada' } } }, errors: undefined });
  expect((await s.db.collection('orders').findOne({}))!.customer).toEqual({ id: ada, name: 'Ada' });
});
