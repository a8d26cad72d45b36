import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'mongodb';
import { objectIdArgument, type GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * `User.city` is stored at `address.city`. MongoDB cannot set a field inside a value that is no
 * document, so an update of `city` on a user whose `address` is null (as a create may leave it) or a
 * string is BAD_USER_INPUT naming the field, the document left as it was; where `address` is missing
 * or a document, the update sets it. A write plan's `changeReference` of a key stored so is refused alike.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query { user(id: ID!): User @find }
  type Mutation { updateUser(id: ID!, input: UserPatch!): User! @update }
  type User @collection(name: "users") {
    id: ID!
    name: String!
    address: JSON
    city: String @path(path: "address.city")
  }
  input UserPatch { name: String city: String }
`;

const held = { nullAddress: new ObjectId(), stringAddress: new ObjectId(), noAddress: new ObjectId(), documentAddress: new ObjectId() };
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    dbPrefix: 'set_inside_non_document',
    typeDefs: TYPE_DEFS,
    prepare: async (db) => {
      await db.collection('users').insertMany([
        { _id: held.nullAddress, name: 'a', address: null },
        { _id: held.stringAddress, name: 'b', address: '1 Main St' },
        { _id: held.noAddress, name: 'c' },
        { _id: held.documentAddress, name: 'd', address: { zip: 'N1' } },
      ]);
    },
  });
}, 60_000);
afterAll(() => s?.stop());

const updateCity = (id: ObjectId) => s.gateway.execute({ query: `mutation { updateUser(id: "${id}", input: { name: "renamed", city: "Paris" }) { name city } }` });
const stored = (id: ObjectId) => s.db.collection('users').findOne({ _id: id }, { projection: { _id: 0 } });

it.each([
  ['null', held.nullAddress, { name: 'a', address: null }],
  ['a string', held.stringAddress, { name: 'b', address: '1 Main St' }],
])('refuses setting a field inside a value that is %s, naming the field, and writes nothing', async (_, id, before) => {
  const result = await updateCity(id);
  expect(result.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([
    [
      'Mutation.updateUser: User.city (at address.city) is stored inside a value this document holds as no document (null, a scalar or a list), where MongoDB cannot set a field, so nothing was written; set the value around it whole first',
      'BAD_USER_INPUT',
    ],
  ]);
  expect(await stored(id)).toEqual(before);
});

it.each([
  ['missing', held.noAddress, { name: 'renamed', address: { city: 'Paris' } }],
  ['a document', held.documentAddress, { name: 'renamed', address: { zip: 'N1', city: 'Paris' } }],
])('sets a field inside a value that is %s', async (_, id, after) => {
  const result = await updateCity(id);
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ updateUser: { name: 'renamed', city: 'Paris' } });
  expect(await stored(id)).toEqual(after);
});

it("refuses a write plan's changeReference of a key stored inside a null value, naming the reference, and writes nothing", async () => {
  const order = new ObjectId();
  const customer = new ObjectId();
  const setCustomer = async (_parent: unknown, args: { orderId: string; customerId: string }, context: GatewayContext, info: GraphQLResolveInfo) => {
    const id = objectIdArgument(args.orderId, 'orderId');
    await context.writes.run(info, (unit) => unit.changeReference('Order.customer', id, objectIdArgument(args.customerId, 'customerId')));
    return context.documents.findOne(info, 'Order', { _id: id });
  };
  const orders = await startSdlGateway({
    typeDefs: /* GraphQL */ `
      scalar JSON
      type Query { order(id: ID!): Order @find }
      type Mutation { setCustomer(orderId: ID!, customerId: ID!): Order! }
      type Customer @collection(name: "customers") { id: ID! name: String! }
      type Order @collection(name: "orders") { id: ID! buyer: JSON customer: Customer @join(localField: "buyer.customerId") }
    `,
    dbPrefix: 'change_reference_inside_null',
    gateway: { resolvers: { Mutation: { setCustomer } }, writePlans: { setCustomer: [{ kind: 'changeReference', coordinate: 'Order.customer' }] } },
    prepare: async (db) => {
      await db.collection('customers').insertOne({ _id: customer, name: 'Ada' });
      await db.collection('orders').insertMany([{ _id: order, buyer: null }, { buyer: { customerId: customer } }]);
    },
  });
  try {
    const result = await orders.gateway.execute({ query: `mutation { setCustomer(orderId: "${order}", customerId: "${customer}") { id } }` });
    expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      [
        'BAD_USER_INPUT',
        'Mutation.setCustomer: Order.customer (at buyer.customerId) is stored inside a value this document holds as no document (null, a scalar or a list), where MongoDB cannot set a field, so nothing was written; set the value around it whole first',
      ],
    ]);
    expect(await orders.db.collection('orders').findOne({ _id: order }, { projection: { _id: 0 } })).toEqual({ buyer: null });
  } finally {
    await orders.stop();
  }
});
