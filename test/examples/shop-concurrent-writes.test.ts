import { resolve } from 'node:path';
import type { Db, MongoClient } from 'mongodb';
import { connectMongo, loadProject, type ExecutedOperation, type Gateway, type Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { buildWriteModelFromSdl } from '../../src/gateway/startup/write-model/build-write-model';
import { withDirectiveTypeDefs } from '../../src/gateway/startup/schema/schema-sources';
import { reconcile } from '../../src/reconcile/reconcile';
import { transactionsAtRegistration } from '../integration/writes/support/expected-writes';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

/**
 * Two mutations at once, one copying or pointing at a document and the other changing or deleting it
 * (found by a write fuzzer). MongoDB's transactions run on a snapshot, so two that write no common
 * document both commit: every trial left a stale copy or a dangling reference. Both now write the
 * document's lock (src/gateway/writes/source-locks.ts): one of them runs again and sees the other.
 */
const SHOP_CONFIG = resolve(__dirname, '../../examples/shop/docjoin.config.ts');
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };
const TRIALS = 4;
const grace = SHOP_IDS.grace.toHexString();
const { supported, skipReason } = transactionsAtRegistration();
const withTransactions = supported ? describe : describe.skip;

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let gateway: Gateway;
let typeDefs: readonly string[];
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('shop_races');
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  typeDefs = project.typeDefs;
  await project.config.seed!(db, { scale: 1, onProgress: () => undefined });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans, auth: project.config.auth!, mongoClient: client, db: db.databaseName, listen: false });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const run = (query: string, strategyHeader?: string): Promise<ExecutedOperation> => gateway.execute({ query }, { viewer: ADMIN, ...(strategyHeader && { strategyHeader }) });
const idOf = (result: ExecutedOperation, field: string) => (result.data as Record<string, { id: string }>)[field]!.id;
const createProduct = async (sku: string, name: string) => idOf(await run(`mutation { createProduct(input: { sku: "${sku}", name: "${name}", price: 5 }) { id } }`), 'createProduct');
const createOrder = (product: string) => run(`mutation { createOrder(input: { customer: "${grace}", status: PLACED, placedAt: "2026-11-20T10:00:00Z", total: 5, lines: [{ product: "${product}", quantity: 1 }] }) { id } }`);

withTransactions(`mutations racing over one document${skipReason}`, () => {
  afterEach(async () => {
    const report = await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(typeDefs)));
    expect([report.drifted, report.checks.reduce((sum, check) => sum + check.dangling, 0), report.mismatches]).toEqual([0, 0, []]);
  });

  it('an order placed while its product is deleted: one of them is refused, never an order line naming no product', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const product = await createProduct(`RACE-A-${trial}`, 'Temp');
      const [order, deleted] = await Promise.all([createOrder(product), run(`mutation { deleteProduct(id: "${product}") }`)]);
      const outcomes = [order.errors === undefined, deleted.errors === undefined];
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      // The refusal is the one a sequential run gives: the product is gone, or it is still in an order.
      expect([...(order.errors ?? []), ...(deleted.errors ?? [])].map((error) => error.extensions?.code)).toEqual([order.errors ? 'NOT_FOUND' : 'BAD_USER_INPUT']);
    }
  });

  it('an order placed while its product is renamed keeps the new name, under every strategy', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const product = await createProduct(`RACE-B-${trial}`, 'Old');
      const [order, renamed] = await Promise.all([createOrder(product), run(`mutation { updateProduct(id: "${product}", input: { name: "New" }) { id } }`)]);
      expect([order.errors, renamed.errors]).toEqual([undefined, undefined]);
      const query = `{ order(id: "${idOf(order, 'createOrder')}") { lines { product { name } } } }`;
      const [copy, joined] = await Promise.all([run(query), run(query, 'OrderLine.product=join')]);
      expect([copy.data, joined.data]).toEqual([{ order: { lines: [{ product: { name: 'New' } }] } }, { order: { lines: [{ product: { name: 'New' } }] } }]);
    }
  });

  it("a review deleted while an older one is edited: the product's newest reviews refilled with the older one hold its new text", async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const product = await createProduct(`RACE-C-${trial}`, 'Reviewed');
      const reviews: string[] = [];
      for (const day of [1, 2, 3, 4]) {
        reviews.push(idOf(await run(`mutation { createReview(input: { product: "${product}", rating: 3, text: "old", createdAt: "2026-11-0${day}T00:00:00Z" }) { id } }`), 'createReview'));
      }
      // The product keeps its three newest reviews: the oldest comes in when the newest goes.
      const [deleted, edited] = await Promise.all([run(`mutation { deleteReview(id: "${reviews[3]}") }`), run(`mutation { updateReview(id: "${reviews[0]}", input: { text: "new" }) { id } }`)]);
      expect([deleted.errors, edited.errors]).toEqual([undefined, undefined]);
      const query = `{ product(id: "${product}") { recentReviews { id text } } }`;
      const [copies, joined] = await Promise.all([run(query), run(query, 'Product.recentReviews=join')]);
      expect(copies.data).toEqual(joined.data);
      expect((copies.data as { product: { recentReviews: Array<{ id: string; text: string }> } }).product.recentReviews.find((review) => review.id === reviews[0])).toEqual({ id: reviews[0], text: 'new' });
    }
  });
});
