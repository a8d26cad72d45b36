import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { describeCustomWriters } from '../../../src/migrate/custom-writers';

/** migrate names the hand-written mutations that write the copies it changes, and what keeps them whole. */
const SDL = /* GraphQL */ `
  type Query { orders: [Order!]! @list }
  type Order @collection(name: "orders") {
    id: ID!
    customer: Customer @snapshot(path: "customer", fields: ["id", "name", "email"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
    lines: [OrderLine!]! @embedded
  }
  type OrderLine { product: Product @snapshot(path: "product", fields: ["id", "name"]) @join(localField: "product.id") @read(strategy: SNAPSHOT) }
  type Customer @collection(name: "customers") { id: ID! name: String! email: String }
  type Product @collection(name: "products") { id: ID! name: String! }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const customer = model.snapshots.filter((location) => location.field === 'Order.customer');
const plans = {
  placeOrder: [{ kind: 'requireOne', typeName: 'Customer' }, { kind: 'insert', typeName: 'Order', preloaded: ['Order.customer'] }],
  importOrder: [{ kind: 'insert', typeName: 'Order' }],
  renameProduct: [{ kind: 'updateSource', typeName: 'Product', by: '_id', fields: ['name'] }],
} as const;

it('names each custom insert of the copies, and whether the resolver passes their sources in', () => {
  expect(describeCustomWriters(plans, model, customer, ['email'])).toEqual([
    'custom mutation placeOrder inserts Order with the sources of Order.customer it passes in: those from requireOne/requireMany carry email; one read elsewhere without them is refused at its first write (the resolver then needs requireOne/requireMany, or email in its own read)',
    'custom mutation importOrder inserts Order: its write unit reads the sources itself, with email',
  ]);
});

it('says nothing of mutations that write no copy of the snapshot', () => {
  expect(describeCustomWriters({ renameProduct: plans.renameProduct }, model, customer, ['email'])).toEqual([]);
});

it('finds the copies inside embedded arrays by their location', () => {
  const product = model.snapshots.filter((location) => location.field === 'OrderLine.product');
  expect(product.map((location) => location.coordinate)).toEqual(['Order.lines.product']);
  expect(describeCustomWriters({ placeLines: [{ kind: 'insert', typeName: 'Order', preloaded: ['Order.lines.product'] }] }, model, product, ['name'])[0]).toMatch(/^custom mutation placeLines inserts Order with the sources of Order\.lines\.product it passes in/);
});
