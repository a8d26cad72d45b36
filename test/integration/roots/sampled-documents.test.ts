import { ObjectId, type Db } from 'mongodb';
import { mongoForFile } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';
import { capturedLogger } from '../../support/captured-logger';

/**
 * The startup sample: documents that disagree with the schema warn (the start goes on), and snapshot
 * copies kept without their key refuse it, since every miss, fan-out and reconcile goes by that key.
 * The shape is the one a team first tried: the key beside the copy (`customerId`), not inside it.
 */
const SDL = /* GraphQL */ `
  type Query { orders(first: Int = 20): [Order!]! @list customers(first: Int = 20): [Customer!]! @list }
  type Customer @collection(name: "customers") {
    id: ID!
    name: String!
    tier: String!
    age: Int
    orderCount: Int! @counter(of: "Customer.orders")
    spent: Float! @total(of: "Customer.orders", field: "total")
    orders: [Order!]! @join(localField: "_id", foreignField: "customer.id")
  }
  type Order @collection(name: "orders") {
    id: ID!
    total: Float!
    customer: Customer @snapshot(path: "customer", fields: ["id", "name", "tier"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
  }
`;

const ada = new ObjectId('66c000000000000000000001');
const bob = new ObjectId('66c000000000000000000002');

const file = mongoForFile();

async function freshDb(orders: ReadonlyArray<Record<string, unknown>>): Promise<Db> {
  const db = file.mongo.freshDb('sample');
  await db.collection('customers').insertMany([
    { _id: ada, name: 'Ada', tier: 'gold', age: 36, orderCount: 1, spent: 10 },
    { _id: bob, name: 'Bob', tier: 'silver', age: 'forty', spent: 0 },
    { _id: new ObjectId(), tier: 'bronze', orderCount: 0 },
  ]);
  await db.collection('orders').insertMany(orders.map((order) => ({ ...order })));
  await db.collection('orders').createIndex({ 'customer.id': 1 });
  return db;
}

const start = async (db: Db, warnings: string[] = []) => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: file.client, db, listen: false, onWarning: (message) => warnings.push(message) });
  await gateway.stop();
  return warnings;
};

it('warns about a missing non-null field, a value of another type, and a counter or total not computed yet', async () => {
  const db = await freshDb([{ total: 10, customer: { id: ada, name: 'Ada', tier: 'gold' } }]);
  expect(await start(db)).toEqual([
    'Customer.name is non-null, but "name" is missing in 1 of 3 sampled customers documents; reading them fails with "Cannot return null"',
    'Customer.age is Int, but "age" holds "forty" in 1 of 3 sampled customers documents: reading it fails ("Int cannot represent non-integer value: "forty""), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
    'Customer.orderCount: the counter is missing in 1 of 3 sampled customers documents; reads count it by query for every Customer, and the estimates count that query, until docjoin restarts after `docjoin reconcile --fix` computes it',
    'Customer.spent: the total is missing in 1 of 3 sampled customers documents; reads sum it by query for every Customer, and the estimates count that query, until docjoin restarts after `docjoin reconcile --fix` computes it',
  ]);
});

it('counts a counter or total the sample found missing by query, and the estimate counts that query: it is no upper bound otherwise', async () => {
  const db = await freshDb([{ total: 10, customer: { id: ada, name: 'Ada', tier: 'gold' } }]);
  const gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: file.client, db, listen: false, onWarning: () => undefined });
  try {
    const result = await gateway.execute({ query: '{ customers { tier orderCount spent } }' });
    // Bob has no orderCount, the bronze customer no spent: each counted from the orders (none).
    expect(result.data).toEqual({ customers: [{ tier: 'gold', orderCount: 1, spent: 10 }, { tier: 'silver', orderCount: 0, spent: 0 }, { tier: 'bronze', orderCount: 0, spent: 0 }] });
    // The customers, then ONE aggregate on orders counting and summing for all three (the estimate had left it out: 1).
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  } finally {
    await gateway.stop();
  }
});

it('refuses snapshot copies that keep their key beside the copy instead of inside it', async () => {
  const db = await freshDb([
    { total: 10, customerId: ada, customer: { name: 'Ada', tier: 'gold' } },
    { total: 12, customer: { id: bob, name: 'Bob', tier: 'silver' } },
  ]);
  await expect(start(db)).rejects.toThrow(
    'Order.customer: 1 of 2 sampled orders documents keep a snapshot at "customer" without its key "id"; snapshot misses, write fan-out and reconcile all go by "customer.id", so store the key inside each copy',
  );
});

it('logs the field of a stored value its type cannot answer, and where to look, beside graphql-js\'s message', async () => {
  const db = await freshDb([{ total: 10, customer: { id: ada, name: 'Ada', tier: 'gold' } }]);
  const { logger, lines } = capturedLogger();
  const gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: file.client, db, listen: false, logger, metrics: false });
  try {
    const result = await gateway.execute({ query: 'query { people: customers { tier ...Years } } fragment Years on Customer { years: age }' });
    expect(result.errors?.map((error) => [error.message, error.path])).toEqual([['Int cannot represent non-integer value: "forty"', ['people', 1, 'years']]]);
    const logged = lines.filter((line) => line.msg === 'an operation failed with an internal error');
    expect(logged.map((line) => [line.field, line.hint])).toEqual([
      ['Customer.age', 'a stored Customer.age value is not of the type the schema declares: fix the data or the type (the startup check warns of such documents)'],
    ]);
  } finally {
    await gateway.stop();
  }
});
