import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A counter and a total over a reverse join by a field other than _id: a category without a code owns no
 * product (the join reads none for it, and writes count none into it). Products that lack a code are
 * nobody's: reconcile must not count them into the categories that lack one too.
 */
const SDL = /* GraphQL */ `type Query { categories: [Category!]! @list }
type Category @collection(name: "categories") {
  id: ID!
  code: String
  products: [Product!]! @join(localField: "code", foreignField: "categoryCode", sort: "name")
  productCount: Int! @counter(of: "Category.products")
  stockTotal: Float! @total(of: "Category.products", field: "stock")
}
type Product @collection(name: "products") { id: ID! name: String! stock: Int! categoryCode: String }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('finds no drift in categories without a code, and --fix counts no orphan product into them', async () => {
  const db = file.mongo.freshDb('reconcile_keyless_parents');
  const [coded, codeless, nullCode] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('categories').insertMany([
    { _id: coded, code: 'A', productCount: 1, stockTotal: 5 },
    { _id: codeless, productCount: 0, stockTotal: 0 },
    { _id: nullCode, code: null, productCount: 0, stockTotal: 0 },
  ]);
  await db.collection('products').insertMany([
    { name: 'in A', stock: 5, categoryCode: 'A' },
    { name: 'no code', stock: 7 },
    { name: 'null code', stock: 11, categoryCode: null },
  ]);
  const report = await reconcile(db, model, { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([
    ['Category.productCount', 0, 0],
    ['Category.stockTotal', 0, 0],
  ]);
  const categories = await db.collection('categories').find({}, { projection: { productCount: 1, stockTotal: 1 } }).toArray();
  expect(categories.map(({ _id, ...figures }) => [_id.toHexString(), figures])).toEqual([
    [coded.toHexString(), { productCount: 1, stockTotal: 5 }],
    [codeless.toHexString(), { productCount: 0, stockTotal: 0 }],
    [nullCode.toHexString(), { productCount: 0, stockTotal: 0 }],
  ]);
});
