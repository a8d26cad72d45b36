import { ObjectId, type Db, type Document } from 'mongodb';
import { buildWriteModel, withDirectiveTypeDefs } from '../../../src/index';
import { reconcile, reconcileChecks } from '../../../src/reconcile/reconcile';
import { scanInBatches, type Check } from '../../../src/reconcile/scan-batches';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * reconcile --fix and the copies of a @counter a snapshot keeps (`Order.product` copies `reviewCount`).
 *
 * A snapshot widened with a copied @counter (`reviewCount`): copies lacking the field are skipped by the
 * writes' `$inc` (`$exists` in planCounterCopyUpdates), so a review written while the snapshot fix (or
 * migrate's backfill, which is that fix) fills the copy leaves the copy's document untouched and the
 * fix's guard holds. Its first write is the count it read before the review; reading the copy and the
 * product again, it writes the count after it, so every later $inc moves the copy from a true base.
 */
const typeDefs = /* GraphQL */ `
  type Query { order(id: ID!): Order @find }
  type Mutation { createReview(input: ReviewInput!): Review! @create }
  input ReviewInput { product: ID! text: String! }
  type Product @collection(name: "products") {
    id: ID!
    name: String!
    reviewCount: Int! @counter(of: "Product.reviews")
    reviews: [Review!]! @join(localField: "_id", foreignField: "productId", sort: "_id")
  }
  type Review @collection(name: "reviews") { id: ID! text: String! product: Product @join(localField: "productId") }
  type Order @collection(name: "orders") {
    id: ID!
    product: Product @snapshot(path: "product", fields: ["id", "name", "reviewCount"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
  }
`;
const model = buildWriteModel(withDirectiveTypeDefs([typeDefs]));
const [lamp, order] = [new ObjectId(), new ObjectId()];
let s: SdlGateway;
let db: Db;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'counter_copy_race',
    gateway: { onWarning: () => undefined },
    prepare: async (fresh) => {
      await fresh.collection('products').insertOne({ _id: lamp, name: 'Lamp', reviewCount: 0 });
      await fresh.collection('reviews').createIndex({ productId: 1, _id: 1 });
      // Written before reviewCount joined the snapshot: no reviewCount in the copy.
      await fresh.collection('orders').insertOne({ _id: order, product: { id: lamp, name: 'Lamp' } });
    },
  });
  db = s.mongo.client.db(s.db.databaseName);
}, 60_000);
afterAll(() => s?.stop());

it('a review written while the copy is filled is counted in the copy', async () => {
  const check = reconcileChecks(db, model).find((candidate) => candidate.coordinate === 'Order.product') as Check;
  let done = false;
  await scanInBatches(db, check, { batchSize: 500, fix: true }, async (batch: Document[], report) => {
    const repairs = await check.check(batch, report);
    if (!done) {
      done = true;
      const created = await s.gateway.execute({ query: `mutation { createReview(input: { product: "${lamp}", text: "nice" }) { id } }` });
      expect(created.errors).toBeUndefined();
    }
    return repairs;
  });
  await s.gateway.execute({ query: `mutation { createReview(input: { product: "${lamp}", text: "again" }) { id } }` });
  const product = await db.collection('products').findOne({ _id: lamp });
  const copy = (await db.collection('orders').findOne({ _id: order }))?.product;
  const read = await s.gateway.execute({ query: `{ order(id: "${order}") { product { reviewCount } } }` });
  const after = await reconcile(db, model);
  expect({ product: product?.reviewCount, copy: copy?.reviewCount, read: read.data, drift: after.drifted }).toEqual({ product: 2, copy: 2, read: { order: { product: { reviewCount: 2 } } }, drift: 0 });
});

// A snapshot may copy a @counter: reconcile --fix repairs the counters before the snapshots, so the copies get the true count.
it('one reconcile --fix leaves a copied counter true, not the drifted count it had', async () => {
  const db = s.mongo.freshDb('counter_copy_order');
  const lamp = new ObjectId();
  // The product's counter drifted (a review deleted by another writer); the order's copy agrees with the product.
  await db.collection('products').insertOne({ _id: lamp, name: 'Lamp', reviewCount: 2 });
  await db.collection('reviews').insertOne({ _id: new ObjectId(), text: 'ok', productId: lamp });
  const order = new ObjectId();
  await db.collection('orders').insertOne({ _id: order, product: { id: lamp, name: 'Lamp', reviewCount: 2 } });

  const first = await reconcile(db, model, { fix: true });
  const copy = (await db.collection('orders').findOne({ _id: order }))?.product;
  const second = await reconcile(db, model);
  expect({
    firstRun: first.checks.map((check) => [check.coordinate, check.drifted, check.fixed]),
    copiedCount: copy?.reviewCount,
    secondRunDrift: second.checks.filter((check) => check.drifted > 0).map((check) => check.coordinate),
  }).toEqual({
    firstRun: [
      ['Product.reviewCount', 1, 1],
      ['Order.product', 1, 1],
    ],
    copiedCount: 1,
    secondRunDrift: [],
  });
});
