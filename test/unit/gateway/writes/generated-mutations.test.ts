import { buildStorageMap } from '../../../../src/gateway/startup/storage-map/build-storage-map';
import { buildWriteModel, collectWriteModel } from '../../../../src/gateway/startup/write-model/build-write-model';
import { buildGeneratedMutations } from '../../../../src/gateway/writes/generated-mutations';
import { schemaOf } from '../support/demo-schema';

const TYPES = /* GraphQL */ `
  type Query { noop: Int }
  type Customer @collection(name: "customers") {
    id: ID!
    name: String!
    orders: [Order!]! @join(localField: "_id", foreignField: "customer.id")
    orderCount: Int! @counter(of: "Customer.orders")
    recentOrders: [Order!]! @embedded @join(collection: "orders", localField: "_id", foreignField: "customer.id", sort: "-placedAt", limit: 2) @read(strategy: EMBEDDED)
  }
  type Order @collection(name: "orders") {
    id: ID!
    placedAt: String!
    note: String
    customer: Customer @snapshot(path: "customer", fields: ["id", "name"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
    lines: [Line!]! @embedded
  }
  type Line { sku: String! quantity: Int! }
  type Shipment @collection(name: "shipments") {
    id: ID!
    orderId: ID
    order: Order! @join(localField: "orderId")
    address: Address! @embedded
    parcels: [Line!]! @embedded
  }
  type Address { street: String }
  extend type Shipment {
    street: String @path(path: "address.street")
    route: String @path(path: "address.street")
    details: JSON @path(path: "address")
  }
  scalar JSON
`;

function generate(sdl: string) {
  const schema = schemaOf(`${TYPES}\n${sdl}`);
  return buildGeneratedMutations(schema, buildWriteModel(schema, buildStorageMap(schema)));
}

describe('generated mutations', () => {
  it('map inputs onto the type and derive their write plans', () => {
    const { mutations, plans, problems } = generate(/* GraphQL */ `
      type Mutation {
        createOrder(input: OrderInput!): Order! @create
        updateOrder(id: ID!, input: OrderPatch!): Order @update
        deleteOrder(id: ID!): Boolean! @delete(type: "Order")
      }
      input OrderInput { placedAt: String! customer: ID! lines: [LineInput!]! }
      input LineInput { sku: String! quantity: Int! }
      input OrderPatch { note: String }
    `);
    expect(problems).toEqual([]);
    expect(mutations.get('createOrder')).toEqual({
      kind: 'create',
      coordinate: 'Mutation.createOrder',
      typeName: 'Order',
      fields: [
        { kind: 'value', name: 'placedAt', path: 'placedAt', typeName: 'String' },
        { kind: 'reference', name: 'customer', path: 'customer', isList: false, snapshotKey: 'id' },
        { kind: 'embedded', name: 'lines', path: 'lines', isList: true, fields: [{ kind: 'value', name: 'sku', path: 'sku', typeName: 'String' }, { kind: 'value', name: 'quantity', path: 'quantity', typeName: 'Int' }] },
      ],
    });
    expect(plans).toEqual({
      createOrder: [{ kind: 'insert', typeName: 'Order', maxKeys: {}, holds: ['Order.customer'] }],
      updateOrder: [{ kind: 'updateSource', typeName: 'Order', by: '_id', fields: ['note'] }],
      deleteOrder: [{ kind: 'delete', typeName: 'Order' }],
    });
  });

  it('does not ask the input for a field declared @counter or @total whose declaration is refused (its own problem says why)', () => {
    const schema = schemaOf(`${TYPES.replace('orderCount: Int! @counter', 'orderCount: String! @counter')}
      type Mutation { createCustomer(input: CustomerInput!): Customer! @create }
      input CustomerInput { name: String! }`);
    const { model, problems: modelProblems } = collectWriteModel(schema, buildStorageMap(schema));
    expect(modelProblems).toEqual(['Customer.orderCount: @counter(of: "Customer.orders") must be on an Int field stored in a @collection type']);
    expect(buildGeneratedMutations(schema, model).problems).toEqual([]);
  });

  it('refuses an input that holds itself, naming the loop, and maps one of a fixed depth over the same tree', () => {
    const tree = `type Tree { name: String! kids: [Tree!] @embedded }
      extend type Order { tree: Tree @embedded }
      type Mutation { createOrder(input: OrderInput!): Order! @create }
      input OrderInput { placedAt: String! tree: TreeInput }`;
    expect(generate(`${tree}\ninput TreeInput { name: String! kids: [TreeInput!] }`).problems).toEqual([
      'Mutation.createOrder: TreeInput.kids: TreeInput holds itself (TreeInput > TreeInput), and a generated @create maps inputs of a fixed depth; give the nested level an input type without kids (as deep as the documents go), or create them with a mutation of your own',
    ]);
    expect(generate(`${tree}\ninput TreeInput { name: String! kids: [LeafInput!] }\ninput LeafInput { name: String! }`).problems).toEqual([]);
  });

  it('asks a create for the non-null reference and embedded document it holds, by the relation or by the key it reads', () => {
    const shipment = 'type Mutation { createShipment(input: ShipmentInput!): Shipment! @create }\ninput AddressInput { street: String }';
    expect(generate(`${shipment}\ninput ShipmentInput { address: AddressInput }`).problems).toEqual([
      'Mutation.createShipment: ShipmentInput has no field for Shipment.order, which is non-null; add order: ID!',
      'Mutation.createShipment: ShipmentInput.address must be non-null (AddressInput!), as Shipment.address is',
    ]);
    expect(generate(`${shipment}\ninput ShipmentInput { order: ID }`).problems).toEqual([
      'Mutation.createShipment: ShipmentInput.order must be non-null (ID!), as Shipment.order is',
      "Mutation.createShipment: ShipmentInput has no field for Shipment.address, which is non-null; add address (an input object with Address's fields, non-null)",
    ]);
    expect(generate(`${shipment}\ninput ShipmentInput { orderId: ID address: AddressInput! }`).problems).toEqual([
      'Mutation.createShipment: ShipmentInput.orderId must be non-null (ID!), as Shipment.order is',
    ]);
    expect(generate(`${shipment}\ninput ShipmentInput { order: ID! address: AddressInput! }`).problems).toEqual([]);
    expect(generate(`${shipment}\ninput ShipmentInput { orderId: ID! address: AddressInput! }`).problems).toEqual([]);
  });

  it('takes the key of a non-null reference given inside an embedded input, and a create giving a value and one inside it', () => {
    const sale = `type Buyer { customerId: ID note: String }
      type Sale @collection(name: "sales") { id: ID! buyer: Buyer! @embedded customer: Customer! @join(localField: "buyer.customerId") }
      type Mutation { createSale(input: SaleInput!): Sale! @create }
      input BuyerInput { customerId: ID! note: String }`;
    expect(generate(`${sale}\ninput SaleInput { buyer: BuyerInput! }`).problems).toEqual([]);
    expect(generate(`${sale}\ninput SaleInput { buyer: BuyerInput! customer: ID! }`).problems).toEqual([]);
  });

  it.each([
    ['createOrder(input: OrderInput!): Order! @create', 'input OrderInput { placedAt: String! colour: String }', 'Mutation.createOrder: OrderInput.colour: Order has no field colour (no Order.colour); input fields are named like the fields they set'],
    ['createOrder(input: OrderInput!): Order! @create', 'input OrderInput { note: String }', 'Mutation.createOrder: OrderInput has no field for Order.placedAt, which is non-null; add placedAt: String!'],
    ['createOrder(input: OrderInput!): Order! @create', 'input OrderInput { placedAt: String }', 'Mutation.createOrder: OrderInput.placedAt must be non-null (String!), as Order.placedAt is'],
    ['createOrder(input: OrderInput!): Order! @create', 'input OrderInput { placedAt: Int! }', 'Mutation.createOrder: OrderInput.placedAt must have the type of Order.placedAt (String)'],
    ['createOrder(input: OrderInput!): Order! @create', 'input OrderInput { placedAt: String! customer: String }', 'Mutation.createOrder: OrderInput.customer: Order.customer is a reference; give the referenced id (ID)'],
    ['createCustomer(input: CustomerInput!): Customer! @create', 'input CustomerInput { name: String! orderCount: Int }', 'Mutation.createCustomer: CustomerInput.orderCount: Customer.orderCount is a @counter docjoin keeps true; remove it from the input'],
    ['createCustomer(input: CustomerInput!): Customer! @create', 'input CustomerInput { name: String! orders: [ID!] }', 'Mutation.createCustomer: CustomerInput.orders: Customer.orders is read from the documents that point here (a reverse join); set it from their side'],
    ['updateOrder(id: ID!, input: OrderPatch!): Order @update', 'input OrderPatch { placedAt: String }', 'Mutation.updateOrder: OrderPatch.placedAt: Order.placedAt decides which Orders Customer.recentOrders keeps and in what order, so changing it would rebuild that array; remove it from the input (a custom mutation can change it, then `docjoin reconcile --fix` rebuilds the array)'],
    ['updateOrder(id: ID!, input: OrderPatch!): Order @update', 'input OrderPatch { customer: ID }', "Mutation.updateOrder: OrderPatch.customer: @update sets Order's own scalar and enum fields; change Order.customer with a mutation of your own"],
    ['updateOrder(input: OrderPatch!): Order @update', 'input OrderPatch { note: String }', 'Mutation.updateOrder: @update takes two arguments, id: ID! and input'],
    ['deleteOrder(id: ID!): Order @delete(type: "Order")', '', 'Mutation.deleteOrder: @delete returns the deleted id (ID!) or true (Boolean!), not Order'],
    ['deleteOrder(id: ID!): ID! @delete(type: "Line")', '', 'Mutation.deleteOrder: @delete(type: "Line") names no @collection type'],
    [
      'updateShipment(id: ID!, input: ShipmentPatch!): Shipment @update',
      'input ShipmentPatch { street: String route: String }',
      'Mutation.updateShipment: ShipmentPatch.route is stored at address.street, where ShipmentPatch.street is stored too, and one write cannot set both; remove one of them from the input',
    ],
    [
      'updateShipment(id: ID!, input: ShipmentPatch!): Shipment @update',
      'input ShipmentPatch { street: String details: JSON }',
      'Mutation.updateShipment: ShipmentPatch.details is stored at address, around address.street, where ShipmentPatch.street is stored too, and one write cannot set both; remove one of them from the input',
    ],
    [
      'createShipment(input: ShipmentInput!): Shipment! @create',
      'input ShipmentInput { order: ID! orderId: ID! address: AddressInput! } input AddressInput { street: String }',
      'Mutation.createShipment: ShipmentInput.orderId is stored at orderId, where ShipmentInput.order is stored too, and one write cannot set both; remove one of them from the input',
    ],
    ['makeOrder(input: OrderInput!): Order! @create @update', 'input OrderInput { placedAt: String! }', 'Mutation.makeOrder: declares @create and @update; keep one'],
  ])('%s with %s is refused', (field, inputs, problem) => {
    expect(generate(`type Mutation { ${field} }\n${inputs}`).problems).toEqual([problem]);
  });
});
