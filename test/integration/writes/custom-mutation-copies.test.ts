import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type CommandStartedEvent, type Db } from 'mongodb';
import type { Gateway, GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Issue 38: a hand-written mutation written when `Order.customer` copied `[id, name, tier]` keeps
 * working after a migration widens the snapshot with `email`. The write unit fills every copied field
 * from its sources whatever projection the resolver asked for: `requireOne` reads the fields the
 * snapshots copy too (same round trip); a source the resolver read elsewhere without them is refused,
 * naming the mutation and the field, before anything is written.
 */
const SDL = /* GraphQL */ `
  type Query { order(id: ID!): Order @find }
  type Mutation {
    placeOrder(customer: ID!): Order!
    placeOrderFromOwnRead(customer: ID!, fields: [String!]!): Order!
    placeOrderReadingAddress(customer: ID!): Order!
  }
  type Order @collection(name: "orders") {
    id: ID!
    customer: Customer! @snapshot(path: "customer", fields: ["id", "name", "tier", "email", "nickname", "city"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
  }
  type Customer @collection(name: "customers") {
    id: ID!
    name: String!
    tier: String!
    email: String!
    nickname: String
    city: String @path(path: "address.city")
  }
`;
const ada = { _id: new ObjectId('6955b90000000000000000a1'), name: 'Ada', tier: 'GOLD', email: 'ada@example.com' };
const grace = { _id: new ObjectId('6955b90000000000000000a2'), name: 'Grace', tier: 'STANDARD', email: 'grace@example.com', address: { city: 'Arlington', street: 'Main' } };

/** What placeOrder's resolver code was given of the customer. */
let handedOut: string[] = [];

/** As the team wrote it: the customer read with the fields the snapshot held then. */
async function placeOrder(_parent: unknown, args: { customer: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const order = { _id: new ObjectId(), customer: { id: new ObjectId(args.customer) } };
  await context.writes.run(info, async (unit) => {
    const customer = await unit.requireOne('Customer', { _id: order.customer.id }, ['name', 'tier'], 'with that id');
    handedOut = Object.keys(customer).sort();
    await unit.insert('Order', order, [customer]);
  });
  return order;
}

/** The same with a customer it read itself, outside the write unit, with the projection `fields`. */
async function placeOrderFromOwnRead(_parent: unknown, args: { customer: string; fields: string[] }, context: GatewayContext, info: GraphQLResolveInfo) {
  const order = { _id: new ObjectId(), customer: { id: new ObjectId(args.customer) } };
  const customer = (await db.collection('customers').findOne({ _id: order.customer.id }, { projection: Object.fromEntries(args.fields.map((field) => [field, 1])) }))!;
  await context.writes.run(info, async (unit) => {
    await unit.insert('Order', order, [customer]);
  });
  return order;
}

/** A resolver asking for the whole `address` while the snapshot copies `address.city`: one projection path, not two colliding ones. */
async function placeOrderReadingAddress(_parent: unknown, args: { customer: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const order = { _id: new ObjectId(), customer: { id: new ObjectId(args.customer) } };
  await context.writes.run(info, async (unit) => {
    const customer = await unit.requireOne('Customer', { _id: order.customer.id }, ['address'], 'with that id');
    await unit.insert('Order', order, [customer]);
  });
  return order;
}

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'custom_mutation_copies',
    async prepare(fresh) {
      await fresh.collection('customers').insertMany([ada, grace]);
      await fresh.createCollection('orders');
    },
    gateway: {
      resolvers: { Mutation: { placeOrder, placeOrderFromOwnRead, placeOrderReadingAddress } },
      writePlans: {
        placeOrder: [{ kind: 'requireOne', typeName: 'Customer' }, { kind: 'insert', typeName: 'Order', preloaded: ['Order.customer'] }],
        placeOrderFromOwnRead: [{ kind: 'insert', typeName: 'Order', preloaded: ['Order.customer'] }],
        placeOrderReadingAddress: [{ kind: 'requireOne', typeName: 'Customer' }, { kind: 'insert', typeName: 'Order', preloaded: ['Order.customer'] }],
      },
    },
  });
  ({ db, gateway } = fixture);
}, 60_000);
afterAll(() => fixture?.stop());

const SELECTION = '{ customer { name tier email nickname } }';
const STORED = { id: ada._id, name: 'Ada', tier: 'GOLD', email: 'ada@example.com', nickname: null, city: null };

it("requireOne with the resolver's old projection still fills every copied field, in the same one read", async () => {
  const result = await gateway.execute({ query: `mutation { placeOrder(customer: "${ada._id.toHexString()}") ${SELECTION} }` });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ placeOrder: { customer: { name: 'Ada', tier: 'GOLD', email: 'ada@example.com', nickname: null } } });
  expect((await db.collection('orders').findOne({}, { sort: { _id: -1 } }))!.customer).toEqual(STORED);
  // No read more than the plan says: the customer's, widened, then the insert.
  expect(result.cost?.estimateExceeded).toBeUndefined();
  // The resolver's code holds what it asked for, not the fields read for the copies (email).
  expect(handedOut).toEqual(['_id', 'name', 'tier']);
});

it('a source the resolver read elsewhere without a copied field is refused before anything is written, naming the mutation and the field', async () => {
  const before = await db.collection('orders').countDocuments();
  const result = await gateway.execute({ query: `mutation { placeOrderFromOwnRead(customer: "${ada._id.toHexString()}", fields: ["name", "tier"]) ${SELECTION} }` });
  expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    [
      'INTERNAL_SERVER_ERROR',
      `placeOrderFromOwnRead: the customers document ${ada._id.toHexString()} given to insert Order has no "email", which Order.customer copies; pass what requireOne or requireMany returned (they read every field the snapshots copy), or read "email" too`,
    ],
  ]);
  expect(await db.collection('orders').countDocuments()).toBe(before);
});

it('a source read elsewhere that lacks only a nullable copied field is taken: the data may lack it too (Ada has no nickname)', async () => {
  const result = await gateway.execute({ query: `mutation { placeOrderFromOwnRead(customer: "${ada._id.toHexString()}", fields: ["name", "tier", "email"]) ${SELECTION} }` });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ placeOrderFromOwnRead: { customer: { name: 'Ada', tier: 'GOLD', email: 'ada@example.com', nickname: null } } });
  expect((await db.collection('orders').findOne({}, { sort: { _id: -1 } }))!.customer).toEqual(STORED);
});

it("asks MongoDB for `address`, not `address` and `address.city` together (a path collision MongoDB refuses), and copies the city", async () => {
  const projections: unknown[] = [];
  const listener = (event: CommandStartedEvent) => {
    if (event.commandName === 'find' && event.command.find === 'customers') projections.push(event.command.projection);
  };
  fixture.client.on('commandStarted', listener);
  try {
    const result = await gateway.execute({ query: `mutation { placeOrderReadingAddress(customer: "${grace._id.toHexString()}") { customer { city } } }` });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ placeOrderReadingAddress: { customer: { city: 'Arlington' } } });
  } finally {
    fixture.client.off('commandStarted', listener);
  }
  // The write unit's read (the answer's join reads the customer again, for the object the resolver returns).
  expect(projections[0]).toEqual({ address: 1, email: 1, name: 1, nickname: 1, tier: 1 });
  expect((await db.collection('orders').findOne({ 'customer.id': grace._id }))!.customer).toMatchObject({ name: 'Grace', city: 'Arlington' });
});
