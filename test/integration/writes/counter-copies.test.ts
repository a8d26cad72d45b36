import { ObjectId, type Db } from 'mongodb';
import type { Gateway } from 'docjoin';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A snapshot that copies a `@counter` (`reviewCount` in an order's product and in a bundle's items):
 * the counter changes with every review written or deleted, never by an update of the product, so its
 * copies take the same `$inc` in the same write unit, one updateMany per place. A copy lacking the field
 * (a snapshot widened with it, not yet backfilled) stays without it, to be joined.
 */
const SDL = /* GraphQL */ `
  type Query { orders: [Order!]! @list  bundles: [Bundle!]! @list }
  type Mutation {
    createReview(input: ReviewInput!): Review! @create
    deleteReview(id: ID!): Boolean! @delete(type: "Review")
  }
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
  type Bundle @collection(name: "bundles") {
    id: ID!
    items: [Product!]! @snapshot(path: "items", fields: ["id", "name", "reviewCount"]) @join(localField: "items.id") @read(strategy: SNAPSHOT)
  }
`;
const products = ['Lamp', 'Desk'].map((name) => ({ _id: new ObjectId(), name, reviewCount: 0 }));
const copyOf = (product: (typeof products)[number], fields: { reviewCount?: number } = { reviewCount: 0 }) => ({ id: product._id, name: product.name, ...fields });

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'counter_copies',
    async prepare(fresh) {
      await fresh.collection('products').insertMany(products.map((product) => ({ ...product })));
      await fresh.collection('reviews').createIndex({ productId: 1, _id: 1 });
      await fresh.collection('orders').insertMany([
        { _id: new ObjectId(), product: copyOf(products[0]!) },
        // Written before reviewCount joined the snapshot.
        { _id: new ObjectId(), product: copyOf(products[0]!, {}) },
        { _id: new ObjectId(), product: copyOf(products[1]!) },
      ]);
      await fresh.collection('bundles').insertOne({ _id: new ObjectId(), items: [copyOf(products[1]!), copyOf(products[0]!), copyOf(products[0]!, {})] });
      // The widening's backfill is under way, as docjoin migrate records it.
      await fresh.collection('docjoin_migrations').insertMany(
        ['Order.product', 'Bundle.items'].map((id) => ({ _id: id as never, kind: 'snapshot-backfill', fields: ['reviewCount'], startedAt: new Date(), resumeAfter: null })),
      );
    },
    gateway: { onWarning: () => undefined },
  });
  ({ db, gateway } = fixture);
}, 60_000);
afterAll(() => fixture?.stop());

const lampCounts = async () => ({
  orders: (await db.collection('orders').find({}, { sort: { _id: 1 } }).toArray()).map((order) => order.product.reviewCount),
  bundle: (await db.collection('bundles').findOne({}))!.items.map((item: { reviewCount?: number }) => item.reviewCount),
});

it('adds a review: the product and each copy of its count go up by one, in the same unit', async () => {
  const created = await gateway.execute({ query: `mutation { createReview(input: { product: "${products[0]!._id.toHexString()}", text: "bright" }) { id } }` });
  expect(created.errors).toBeUndefined();
  // insert, then one update per collection: products, orders, bundles.
  expect(created.cost!.writes).toMatchObject({ documentsModified: 4, fanOut: { reviews: 1, products: 1, orders: 1, bundles: 1 } });
  expect(await lampCounts()).toEqual({ orders: [1, undefined, 0], bundle: [0, 1, undefined] });
  // The copy without the field still reads by the join, so every order answers 1 for the lamp.
  const read = await gateway.execute({ query: '{ orders { product { name reviewCount } } bundles { items { name reviewCount } } }' });
  expect(read.data).toEqual({
    orders: [{ product: { name: 'Lamp', reviewCount: 1 } }, { product: { name: 'Lamp', reviewCount: 1 } }, { product: { name: 'Desk', reviewCount: 0 } }],
    bundles: [{ items: [{ name: 'Desk', reviewCount: 0 }, { name: 'Lamp', reviewCount: 1 }, { name: 'Lamp', reviewCount: 1 }] }],
  });

  const id = (created.data as { createReview: { id: string } }).createReview.id;
  const deleted = await gateway.execute({ query: `mutation { deleteReview(id: "${id}") }` });
  expect(deleted.errors).toBeUndefined();
  expect(await lampCounts()).toEqual({ orders: [0, undefined, 0], bundle: [0, 0, undefined] });
  // Only the copies lacking the field (the backfill's work) differ from their sources.
  const drift = await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(SDL)));
  expect(drift.checks.filter((check) => check.drifted > 0).map((check) => [check.coordinate, check.drifted])).toEqual([
    ['Order.product', 1],
    ['Bundle.items', 1],
  ]);
});

it('refuses at startup a copied counter of children keyed by something other than _id', () => {
  const keyed = SDL.replace('reviews: [Review!]! @join(localField: "_id", foreignField: "productId"', 'code: String!\n    reviews: [Review!]! @join(localField: "code", foreignField: "productCode"');
  expect(() => buildWriteModelFromSdl(withDirectiveTypeDefs(keyed))).toThrow(
    'Order.product: @snapshot copies Product.reviewCount, a counter of children keyed by "code", not _id; its copies cannot follow its increments, so leave it out of the snapshot\'s fields',
  );
});
