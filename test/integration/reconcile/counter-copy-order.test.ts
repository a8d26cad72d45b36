import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A snapshot may copy a @counter (`countOfBooks` in Book.authors). reconcile --fix repairs the counters
 * before the snapshots, so the copies get the true count, not the drifted one, and a second run finds
 * no drift.
 */
const SDL = /* GraphQL */ `
  type Query { products: [Product!]! @list }
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
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('one reconcile --fix leaves a copied counter true, not the drifted count it had', async () => {
  const db = file.mongo.freshDb('counter_copy_order');
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
