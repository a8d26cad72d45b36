import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ObjectId, type Db, type MongoClient } from 'mongodb';
import { connectMongo, loadProject, type ExecutedOperation, type Gateway, type Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { runExplainCli } from '../../src/cli/explain/run-explain';
import { runReconcileCli } from '../../src/reconcile/cli';
import { captureIo } from '../unit/cli/capture-io';
import { serverSupportsTransactions } from '../integration/writes/support/expected-writes';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

/**
 * The second example, which is not the demo: examples/shop, loaded through its docjoin.config.ts as the
 * CLI loads it, served on a handful of documents. Generated reads and writes, a snapshot inside an
 * embedded array, custom resolvers with a plan beside them, reconcile, explain and codegen on it.
 */
const SHOP_CONFIG = resolve(__dirname, '../../examples/shop/docjoin.config.ts');
const BIN = resolve(__dirname, '../../src/cli/bin/docjoin.ts');
const { tea, sencha, matcha, mug, ada, grace, firstOrder } = SHOP_IDS;
const hex = (id: ObjectId) => id.toHexString();
/** The shop's access rules let an admin do everything; test/examples/shop-access.test.ts tries the other roles. */
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let gateway: Gateway;
let commit: number;
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('shop');
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  await project.config.seed!(db, { scale: 1, onProgress: () => undefined });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans, auth: project.config.auth!, mongoClient: client, db: db.databaseName, listen: false, onWarning: (message) => { throw new Error(message); } });
  commit = (await serverSupportsTransactions(mongo.client)) ? 1 : 0;
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

async function run(query: string): Promise<ExecutedOperation> {
  const result = await gateway.execute({ query }, { viewer: ADMIN });
  expect(result.errors).toBeUndefined();
  return result;
}

const reconcileArgs = () => ['--config', SHOP_CONFIG, '--mongo-uri', mongo.uri, '--db', db.databaseName];

describe('generated reads', () => {
  it('serves a snapshot inside an embedded array and the customer snapshot from the order itself: one round trip', async () => {
    const result = await run(`{ orders(first: 1) { total customer { name tier } lines { quantity product { name price } } } }`);
    expect(result.data).toEqual({
      orders: [
        { total: 54, customer: { name: 'Ada Lovelace', tier: 'GOLD' }, lines: [{ quantity: 2, product: { name: 'Sencha', price: 12 } }, { quantity: 1, product: { name: 'Matcha', price: 30 } }] },
      ],
    });
    expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });

  it('falls back to one batched join when the selection leaves the snapshot', async () => {
    const result = await run(`{ order(id: "${hex(firstOrder)}") { lines { product { name reviewCount } } } }`);
    expect(result.data).toEqual({ order: { lines: [{ product: { name: 'Sencha', reviewCount: 0 } }, { product: { name: 'Matcha', reviewCount: 1 } }] } });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('filters, orders and looks up by a unique field', async () => {
    expect((await run(`{ products(category: "${hex(tea)}", orderBy: DEAREST) { name } }`)).data).toEqual({ products: [{ name: 'Matcha' }, { name: 'Sencha' }] });
    expect((await run('{ products(maxPrice: 15) { name } }')).data).toEqual({ products: [{ name: 'Mug' }, { name: 'Sencha' }] });
    expect((await run('{ customerByEmail(email: "grace@example.com") { name addresses { city } } }')).data).toEqual({ customerByEmail: { name: 'Grace Hopper', addresses: [] } });
    expect((await run('{ customers(tier: GOLD, first: 1) { name orderCount orders { total } } }')).data).toEqual({ customers: [{ name: 'Ada Lovelace', orderCount: 1, orders: [{ total: 54 }] }] });
    const filtered = await run('{ customers(first: 2) { name shipped: orders(status: SHIPPED) { total } placed: orders(status: PLACED) { total } } }');
    expect(filtered.data).toEqual({
      customers: [
        { name: 'Ada Lovelace', shipped: [{ total: 54 }], placed: [] },
        { name: 'Alan Turing', shipped: [{ total: 72 }], placed: [{ total: 60 }, { total: 39 }] },
      ],
    });
    // The customers, then ONE aggregate for both filtered pages of every customer.
    expect(filtered.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('runs the hand-written query through the same API', async () => {
    const result = await run(`{ cheapest(category: "${hex(tea)}") { name price } }`);
    expect(result).toMatchObject({ data: { cheapest: { name: 'Sencha', price: 12 } }, cost: { roundTrips: 1, estimatedRoundTrips: 1 } });
  });
});

describe('generated writes keep every copy true', () => {
  it('createOrder checks the references, fills the customer snapshot and each line\'s product snapshot, and counts the order', async () => {
    const result = await run(`mutation {
      createOrder(input: { customer: "${hex(grace)}", status: PLACED, placedAt: "2026-11-20T10:00:00Z", total: 57,
        lines: [{ product: "${hex(mug)}", quantity: 1 }, { product: "${hex(matcha)}", quantity: 1 }, { product: "${hex(sencha)}", quantity: 1 }] }) {
        id customer { name } lines { product { name price } }
      }
    }`);
    expect(result.data).toMatchObject({ createOrder: { customer: { name: 'Grace Hopper' }, lines: [{ product: { name: 'Mug', price: 15 } }, { product: { name: 'Matcha', price: 30 } }, { product: { name: 'Sencha', price: 12 } }] } });
    // The customer, the three products in ONE find, in a transaction the products' locks (updateProduct and deleteProduct
    // change what the lines copy: writes/reference-locks.ts), the insert, the customer's counter, the commit.
    expect(result.cost?.writes).toMatchObject({ roundTrips: 4 + 2 * commit, documentsModified: 2, fanOut: { orders: 1, customers: 1 } });
    expect(result.cost).toMatchObject({ estimatedRoundTrips: result.cost!.roundTrips });
    const id = new ObjectId((result.data as { createOrder: { id: string } }).createOrder.id);
    expect(await db.collection('orders').findOne({ _id: id }, { projection: { _id: 0, customer: 1, 'lines.product': 1 } })).toEqual({
      customer: { id: grace, name: 'Grace Hopper', tier: 'STANDARD' },
      lines: [{ product: { id: mug, name: 'Mug', price: 15 } }, { product: { id: matcha, name: 'Matcha', price: 30 } }, { product: { id: sencha, name: 'Sencha', price: 12 } }],
    });
    expect((await run(`{ customer(id: "${hex(grace)}") { orderCount } }`)).data).toEqual({ customer: { orderCount: 1 } });
  });

  it('a reference to nothing is NOT_FOUND with nothing written', async () => {
    const before = await db.collection('orders').countDocuments();
    const result = await gateway.execute({ query: `mutation { createOrder(input: { customer: "${hex(grace)}", status: PLACED, placedAt: "2026-11-20T10:00:00Z", total: 1, lines: [{ product: "${hex(new ObjectId())}", quantity: 1 }] }) { id } }` }, { viewer: ADMIN });
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await db.collection('orders').countDocuments()).toBe(before);
  });

  it('placeOrder reads every product of the order in one round trip and prices it', async () => {
    const result = await run(`mutation { placeOrder(customerId: "${hex(ada)}", lines: [{ product: "${hex(mug)}", quantity: 2 }, { product: "${hex(matcha)}", quantity: 1 }, { product: "${hex(sencha)}", quantity: 3 }]) { total lines { product { name } } } }`);
    expect(result.data).toEqual({ placeOrder: { total: 96, lines: [{ product: { name: 'Mug' } }, { product: { name: 'Matcha' } }, { product: { name: 'Sencha' } }] } });
    // The products (one find), the customer (read by the insert for its snapshot), the products' locks, the insert, the counter, the commit.
    expect(result.cost?.writes).toMatchObject({ roundTrips: 4 + 2 * commit, fanOut: { orders: 1, customers: 1 } });
    expect(result.cost).toMatchObject({ estimatedRoundTrips: result.cost!.roundTrips });
  });

  it('updateProduct renames the product and every line snapshot of it, inside the orders\' embedded arrays', async () => {
    const holding = await db.collection('orders').countDocuments({ 'lines.product.id': matcha });
    const result = await run(`mutation { updateProduct(id: "${hex(matcha)}", input: { name: "Ceremonial Matcha" }) { name price } }`);
    expect(result.data).toEqual({ updateProduct: { name: 'Ceremonial Matcha', price: 30 } });
    // In a transaction the product's locks first: the name is copied by orders that may be in flight.
    expect(result.cost?.writes).toMatchObject({ roundTrips: 2 + 2 * commit, fanOut: { products: 1, orders: holding } });
    expect(await db.collection('orders').countDocuments({ lines: { $elemMatch: { 'product.id': matcha, 'product.name': { $ne: 'Ceremonial Matcha' } } } })).toBe(0);
    const first = await run(`{ order(id: "${hex(firstOrder)}") { lines { product { name } } } }`);
    expect(first.data).toEqual({ order: { lines: [{ product: { name: 'Sencha' } }, { product: { name: 'Ceremonial Matcha' } }] } });
  });

  it('updateCustomer renames the customer snapshot of each of their orders', async () => {
    const result = await run(`mutation { updateCustomer(id: "${hex(ada)}", input: { name: "Ada King" }) { name } }`);
    expect(result.cost?.writes).toMatchObject({ fanOut: { customers: 1, orders: 2 } });
    expect((await run(`{ customer(id: "${hex(ada)}") { orders { customer { name } } } }`)).data).toEqual({ customer: { orders: [{ customer: { name: 'Ada King' } }, { customer: { name: 'Ada King' } }] } });
  });

  it('createReview counts the review and keeps the product\'s newest three; deleteReview undoes both', async () => {
    const created = await run(`mutation { createReview(input: { product: "${hex(matcha)}", rating: 4, text: "Good.", createdAt: "2026-11-21T09:00:00Z" }) { id } }`);
    const id = (created.data as { createReview: { id: string } }).createReview.id;
    expect((await run(`{ product(id: "${hex(matcha)}") { reviewCount recentReviews { text } } }`)).data).toEqual({ product: { reviewCount: 2, recentReviews: [{ text: 'Good.' }, { text: 'Bright and grassy.' }] } });
    const deleted = await run(`mutation { deleteReview(id: "${id}") }`);
    expect(deleted.data).toEqual({ deleteReview: true });
    expect(deleted.cost).toMatchObject({ estimatedRoundTrips: deleted.cost!.roundTrips });
    expect((await run(`{ product(id: "${hex(matcha)}") { reviewCount recentReviews { text } } }`)).data).toEqual({ product: { reviewCount: 1, recentReviews: [{ text: 'Bright and grassy.' }] } });
  });


  it('updateReview changes the review and its copy in the product\'s recent reviews', async () => {
    const result = await run(`mutation { updateReview(id: "${hex(SHOP_IDS.review)}", input: { text: "Bright, grassy, sweet." }) { text } }`);
    // In a transaction the review's locks first: deleteReview refills recentReviews with copies of the next reviews (writes/reference-locks.ts).
    expect(result.cost?.writes).toMatchObject({ roundTrips: 2 + 2 * commit, fanOut: { reviews: 1, products: 1 } });
    expect(result.cost).toMatchObject({ estimatedRoundTrips: result.cost!.roundTrips });
    expect((await run(`{ product(id: "${hex(matcha)}") { recentReviews { text } } }`)).data).toEqual({ product: { recentReviews: [{ text: 'Bright, grassy, sweet.' }] } });
  });

  it('deleteProduct is refused while orders or reviews reference the product, and deletes one nothing references', async () => {
    const refused = await gateway.execute({ query: `mutation { deleteProduct(id: "${hex(matcha)}") }` }, { viewer: ADMIN });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0]?.message).toMatch(/^Product [0-9a-f]{24} is still referenced by (orders [0-9a-f]{24} at lines\.product\.id|reviews [0-9a-f]{24} at productId); delete or re-point those first$/);
    expect(await db.collection('products').countDocuments({ _id: matcha })).toBe(1);
    const created = await run('mutation { createProduct(input: { sku: "CUP-BWL", name: "Bowl", price: 22 }) { id } }');
    const id = (created.data as { createProduct: { id: string } }).createProduct.id;
    expect((await run(`mutation { deleteProduct(id: "${id}") }`)).data).toEqual({ deleteProduct: id });
    expect(await db.collection('products').countDocuments({ _id: new ObjectId(id) })).toBe(0);
  });

  it('refuses bad input with BAD_USER_INPUT: a duplicate unique value, a null for a non-null field, an empty patch, a Float literal past a double', async () => {
    const before = await db.collection('products').findOne({ _id: sencha });
    const cases = [
      'mutation { createProduct(input: { sku: "TEA-SEN", name: "Again", price: 1 }) { id } }',
      `mutation { updateProduct(id: "${hex(sencha)}", input: { name: null }) { id } }`,
      `mutation { updateProduct(id: "${hex(sencha)}", input: {}) { id } }`,
      'mutation { updateProduct(id: "nope", input: { price: 1 }) { id } }',
      // graphql-js reads these literals as -Infinity and Infinity.
      `mutation { updateProduct(id: "${hex(sencha)}", input: { price: -1e999 }) { id } }`,
      'mutation { createProduct(input: { sku: "TEA-INF", name: "Endless", price: 1e400 }) { id } }',
    ];
    for (const query of cases) expect([query, (await gateway.execute({ query }, { viewer: ADMIN })).errors?.[0]?.extensions?.code]).toEqual([query, 'BAD_USER_INPUT']);
    expect(await db.collection('products').findOne({ _id: sencha })).toEqual(before);
    expect(await db.collection('products').countDocuments({ sku: 'TEA-INF' })).toBe(0);
  });

  it('leaves no drift: reconcile checks every copy of the shop', async () => {
    const { io, out, err } = captureIo();
    expect(await runReconcileCli(reconcileArgs(), {}, io)).toBe(0);
    expect(err()).toBe('');
    expect(out()).toMatch(/\nNo drift\.\n$/);
  });
});

describe('reconcile refuses a database that does not match the schema', () => {
  const reconcileOn = async (target: Db) => {
    const { io, out, err } = captureIo();
    const code = await runReconcileCli(['--config', SHOP_CONFIG, '--mongo-uri', mongo.uri, '--db', target.databaseName], {}, io);
    return { code, out: out(), err: err() };
  };

  it('fails when collections the schema names are missing (another database?)', async () => {
    const other = mongo.freshDb('other');
    await other.collection('products').insertOne({ name: 'Lonely' });
    const result = await reconcileOn(other);
    expect(result.code).toBe(1);
    const name = other.databaseName;
    expect(result.err).toBe(
      `reconcile: checking ${name} on ${mongo.uri.replace(/\/\/[^@/]*@/, '//***@')} failed: the database does not match the schema: ` +
        `collection "orders" (Order.customer) does not exist in database "${name}"; collection "customers" (Order.customer) does not exist in database "${name}"; ` +
        `collection "reviews" (Product.recentReviews) does not exist in database "${name}"\n`,
    );
  });

  it('fails, after its report, when every snapshot copy dangles (the keys are kept beside the copies)', async () => {
    const keyless = mongo.freshDb('keyless');
    await (await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG })).config.seed!(keyless, { scale: 1, onProgress: () => undefined });
    await keyless.collection('orders').updateMany({}, [{ $set: { customerId: '$customer.id', customer: { name: '$customer.name', tier: '$customer.tier' } } }]);
    const result = await reconcileOn(keyless);
    expect(result.code).toBe(1);
    const orders = await keyless.collection('orders').countDocuments();
    expect(result.out).toMatch(new RegExp(`Order\\.customer +snapshot +${orders} scanned +0 drifted, ${orders} dangling`));
    expect(result.err).toBe(`reconcile: every one of the ${orders} Order.customer copies points at no customers document: are the keys kept inside the copies, and is this the database the schema describes?\n`);
  });
});

describe('the CLI on the shop', () => {
  it('explains an operation of the shop', async () => {
    const { io, out } = captureIo();
    expect(await runExplainCli(['--config', SHOP_CONFIG, '{ orders(first: 10) { customer { name orderCount } } }'], {}, io)).toBe(0);
    expect(out().split('\n')[0]).toBe('query (anonymous): estimated before execution 2 round trips, at most 20 documents, depth 2');
  });

  it('finds its generated files up to date (docjoin codegen --check, as a process: graphql-codegen loads ES modules jest cannot)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), BIN, 'codegen', '--check', '--config', SHOP_CONFIG]);
    expect(stdout).toBe('codegen: 7 generated files are up to date\n');
  });
});
