import { Double, Long, ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A repair sets only the copied fields that are wrong, each by its own path (`lines.0.product.name`):
 * the rest of the document is not read into JavaScript and written back, where a Long or a double
 * holding a whole number would come back an int.
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
