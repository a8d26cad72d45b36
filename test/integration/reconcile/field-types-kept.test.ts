import { Double, Long, ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A repair sets only the copied fields that are wrong, each by its own path (`lines.0.product.name`):
 * the rest of the document is not read into JavaScript and written back, where a Long or a double
 * holding a whole number would come back an int. The values it sets are the sources' own, BSON types
 * included; and a copy that differs from its source only in how a number is stored is not drift (the
 * gateway answers both alike).
 */
const SDL = /* GraphQL */ `type Query { orders: [Order!]! @list }
type Order @collection(name: "orders") {
  id: ID!
  lines: [OrderLine!]! @embedded
}
type OrderLine {
  quantity: Long!
  unitPrice: Float!
  product: Product @snapshot(path: "product", fields: ["id", "name", "price"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
}
type Product @collection(name: "products") { id: ID! name: String! price: Float! }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('repairs a stale copy inside an embedded array without changing the BSON types of anything else', async () => {
  const db = file.mongo.freshDb('reconcile_field_types');
  const [renamed, bolt] = [new ObjectId(), new ObjectId()];
  await db.collection('products').insertMany([
    { _id: renamed, name: 'Renamed', price: new Double(10) },
    { _id: bolt, name: 'Bolt', price: new Double(2.5) },
  ]);
  await db.collection('orders').insertOne({
    lines: [
      { quantity: Long.fromNumber(3), unitPrice: new Double(10), product: { id: renamed, name: 'Old name', price: new Double(10) } },
      { quantity: Long.fromNumber(4), unitPrice: new Double(7), product: { id: bolt, name: 'Bolt', price: new Double(2.5) } },
    ],
  });
  const report = await reconcile(db, model, { fix: true });
  expect(report.checks.map((check) => [check.drifted, check.fixed])).toEqual([[1, 1]]);
  const order = (await db.collection('orders').findOne({}, { promoteValues: false }))!;
  const types = (order.lines as Array<Record<string, unknown> & { product: Record<string, unknown> }>).map((line) => [
    (line.quantity as { _bsontype: string })._bsontype,
    (line.unitPrice as { _bsontype: string })._bsontype,
    String(line.product.name),
    (line.product.price as { _bsontype: string })._bsontype,
  ]);
  expect(types).toEqual([
    ['Long', 'Double', 'Renamed', 'Double'],
    ['Long', 'Double', 'Bolt', 'Double'],
  ]);
});

const TYPED_SDL = /* GraphQL */ `type Query { posts: [Post!]! @list }
type Post @collection(name: "posts") {
  id: ID!
  product: Product @snapshot(path: "product", fields: ["id", "name", "price", "stock"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
  recentReviews: [Review!]! @embedded @join(collection: "reviews", localField: "_id", foreignField: "postId", sort: "_id", limit: 2) @read(strategy: EMBEDDED)
}
type Review @collection(name: "reviews") { id: ID! votes: Long! score: Float! }
type Product @collection(name: "products") { id: ID! name: String! price: Float! stock: Long! }
`;

const bsonTypeOf = (value: unknown) => (value as { _bsontype?: string })._bsontype ?? typeof value;

it("repairs a copy with its source's BSON types (a Long stays a Long, a whole double a double), and takes a number stored another way for the same value", async () => {
  const db = file.mongo.freshDb('reconcile_source_types');
  const [product, post, review] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('products').insertOne({ _id: product, name: 'Lamp', price: new Double(12), stock: Long.fromNumber(7) });
  await db.collection('reviews').insertOne({ _id: review, postId: post, votes: Long.fromNumber(40), score: new Double(4) });
  // The copy's price and stock are stale; its array entry stores the same numbers as ints, which is not drift.
  await db.collection('posts').insertOne({ _id: post, product: { id: product, name: 'Lamp', price: new Double(10), stock: Long.fromNumber(3) }, recentReviews: [{ _id: review, postId: post, votes: 40, score: 4 }] });
  const model = buildWriteModelFromSdl(withDirectiveTypeDefs(TYPED_SDL));
  const report = await reconcile(db, model, { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([
    ['Post.product', 1, 1],
    ['Post.recentReviews', 0, 0],
  ]);
  const stored = (await db.collection('posts').findOne({ _id: post }, { promoteValues: false }))!;
  expect([stored.product.price, stored.product.stock].map(bsonTypeOf)).toEqual(['Double', 'Long']);
  expect([Number(stored.product.price), Number(stored.product.stock)]).toEqual([12, 7]);

  // A whole array rewritten (a review's score changed) takes the children's own types too.
  await db.collection('reviews').updateOne({ _id: review }, { $set: { score: new Double(5) } });
  const again = await reconcile(db, model, { fix: true });
  expect(again.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([
    ['Post.product', 0, 0],
    ['Post.recentReviews', 1, 1],
  ]);
  const entry = (await db.collection('posts').findOne({ _id: post }, { promoteValues: false }))!.recentReviews[0];
  expect([entry.votes, entry.score].map(bsonTypeOf)).toEqual(['Long', 'Double']);
  expect([Number(entry.votes), Number(entry.score)]).toEqual([40, 5]);
});

it('takes a NaN copied from a NaN source as equal (it was drift on every run, however often fixed)', async () => {
  const db = file.mongo.freshDb('reconcile_nan_copy');
  const [product, post] = [new ObjectId(), new ObjectId()];
  await db.collection('products').insertOne({ _id: product, name: 'Lamp', price: NaN, stock: Long.fromNumber(1) });
  await db.createCollection('reviews');
  await db.collection('posts').insertOne({ _id: post, product: { id: product, name: 'Lamp', price: NaN, stock: 1 }, recentReviews: [] });
  const report = await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(TYPED_SDL)), { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted])).toEqual([
    ['Post.product', 0],
    ['Post.recentReviews', 0],
  ]);
});
