import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * An embedded list whose elements may be null (`[Line]`): MongoDB's projection of fields inside an array
 * drops the elements that are no documents, so such a list is read whole, and its nulls answer null as
 * graphql-js answers them, under every strategy, in place.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { orders(first: Int = 20): [Order!]! @list(sort: "ref") }
  type Line { sku: String qty: Int }
  type Order @collection(name: "orders") { id: ID! ref: String! lines: [Line] @embedded }
`;

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'embedded_null_elements',
    prepare: async (db) => {
      await db.collection('orders').insertMany([
        { _id: new ObjectId(), ref: 'a', lines: [null, { sku: 'd', qty: 2 }, { sku: 'e', qty: 1 }] },
        { _id: new ObjectId(), ref: 'b', lines: [{ sku: 'f', qty: 3 }] },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

it('keeps the null elements in place when some of the fields are selected', async () => {
  const some = await s.gateway.execute({ query: '{ orders { ref lines { sku } } }' });
  expect(some.errors).toBeUndefined();
  expect(some.data).toEqual({ orders: [{ ref: 'a', lines: [null, { sku: 'd' }, { sku: 'e' }] }, { ref: 'b', lines: [{ sku: 'f' }] }] });
  expect(some.cost?.roundTrips).toBe(1);
});
