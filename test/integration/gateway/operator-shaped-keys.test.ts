import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A stored reference shaped like an operator (`{ $oid: "…" }`, Extended JSON imported with JSON.parse)
 * cannot go in the batch's `$in`: MongoDB refuses the whole command. It finds nothing, as any other
 * dangling reference does, and its siblings in the batch resolve.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { orders(first: Int = 20): [Order!]! @list(sort: "ref") }
  type Customer @collection(name: "customers") { id: ID! name: String! }
  type Order @collection(name: "orders") { id: ID! ref: String! customer: Customer @join(localField: "customerId") }
`;

const ann = new ObjectId();
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'operator_keys',
    prepare: async (db) => {
      await db.collection('customers').insertOne({ _id: ann, name: 'Ann' });
      await db.collection('orders').insertMany([{ ref: 'a-imported', customerId: { $oid: ann.toHexString() } }, { ref: 'b-ok', customerId: ann }]);
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
