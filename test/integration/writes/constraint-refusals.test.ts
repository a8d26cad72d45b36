import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'mongodb';
import type { GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Writes the database's own constraints refuse: a collection validator (of the source, or of a copy's
 * collection) and a unique index over copied fields. Each is BAD_USER_INPUT naming the collection and
 * never a value; a unique index over copies is not blamed on "another Product". In a transaction nothing
 * is written; without one, the message says that what the write changed before stands. A hand-written
 * unit's own duplicate is told so too, its later writes' included.
 */
const SDL = /* GraphQL */ `
  type Query { orders: [Order!]! @list products: [Product!]! @list labels: [Label!]! @list }
  type Mutation {
    updateProduct(id: ID!, input: ProductPatch!): Product! @update
    createOrder(input: OrderInput!): Order! @create
    "Hand-written: one label for each code, in one write unit."
    createLabels(codes: [String!]!): Int!
  }
  input ProductPatch { name: String sku: String }
  input OrderInput { code: String! product: ID! }
  type Product @collection(name: "products") { id: ID! name: String! sku: String }
  type Order @collection(name: "orders") {
    id: ID!
    code: String
    product: Product @snapshot(path: "product", fields: ["id", "name", "sku"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
  }
  type Label @collection(name: "labels") {
    id: ID!
    code: String
    product: Product @snapshot(path: "product", fields: ["id", "name"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
  }
`;
const [lamp, desk, chair] = [new ObjectId('6955b90000000000000000e1'), new ObjectId('6955b90000000000000000e2'), new ObjectId('6955b90000000000000000e3')];
const WRITTEN_BEFORE = 'so it was left as it was; without a transaction, what the write changed before it stands (docjoin reconcile reports the drift)';

describe.each([
  ['in a transaction', 'auto', 'so nothing was written'],
  ['without a transaction', 'never', WRITTEN_BEFORE],
] as const)('%s', (_, transactions, outcome) => {
  let fixture: SdlGateway;
  beforeAll(async () => {
    fixture = await startSdlGateway({
      typeDefs: SDL,
      dbPrefix: `constraint_refusals_${transactions}`,
      async prepare(db) {
        await db.createCollection('products', { validator: { name: { $ne: 'Banned' } } });
        await db.createCollection('labels', { validator: { 'product.name': { $ne: 'Lantern' } } });
        await db.collection('products').insertMany([{ _id: lamp, name: 'Lamp', sku: 'L-1' }, { _id: desk, name: 'Desk', sku: 'D-1' }, { _id: chair, name: 'Chair', sku: 'C-1' }]);
        await db.collection('products').createIndex({ sku: 1 }, { unique: true });
        await db.collection('orders').insertMany([{ code: 'A1', product: { id: lamp, name: 'Lamp', sku: 'L-1' } }, { code: 'A2', product: { id: desk, name: 'Desk', sku: 'D-1' } }]);
        await db.collection('orders').createIndex({ 'product.name': 1 }, { unique: true });
        await db.collection('orders').createIndex({ code: 1 }, { unique: true, sparse: true });
        await db.collection('labels').insertOne({ product: { id: lamp, name: 'Lamp' } });
        await db.collection('labels').createIndex({ code: 1 }, { unique: true, sparse: true });
      },
      gateway: {
        onWarning: () => undefined,
        writes: { transactions },
        resolvers: { Mutation: { createLabels } },
        writePlans: { createLabels: [{ kind: 'insert', typeName: 'Label' }] },
      },
    });
  }, 60_000);
  afterAll(() => fixture?.stop());

  const rename = (id: ObjectId, name: string, field = 'name') => fixture.gateway.execute({ query: `mutation { updateProduct(id: "${id.toHexString()}", input: { ${field}: "${name}" }) { name } }` });
  const names = async (collection: string) => (await fixture.db.collection(collection).find({}, { sort: { _id: 1 } }).toArray()).map((document) => document.name ?? document.product.name);

  it("refuses a name the products' own validator refuses: the first write, so nothing is written either way", async () => {
    const refused = await rename(lamp, 'Banned');
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', "Mutation.updateProduct: the validator of collection products refuses a document this write stores there, so nothing was written; give values the validator accepts, or make it accept what the schema's fields store"],
    ]);
    expect(await names('products')).toEqual(['Lamp', 'Desk', 'Chair']);
  });

  it('refuses a rename whose copy a unique index over copied fields refuses, naming that index, not another Product', async () => {
    const refused = await rename(desk, 'Lamp');
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', `Mutation.updateProduct: a unique index on orders (product.name) refuses a value this write keeps there in step with its source, ${outcome}; a copy repeats its source's values in every document that references it, so drop that unique index`],
    ]);
    expect([await names('products'), await names('orders')]).toEqual(transactions === 'auto' ? [['Lamp', 'Desk', 'Chair'], ['Lamp', 'Desk']] : [['Lamp', 'Lamp', 'Chair'], ['Lamp', 'Desk']]);
  });

  it("names the input when a document's own unique index refuses it, though a transaction's locks were written first (a copied field, a reference)", async () => {
    const codes = async (result: Awaited<ReturnType<typeof rename>>) => result.errors?.map((error) => [error.extensions?.code, error.message]);
    expect(await codes(await rename(desk, 'L-1', 'sku'))).toEqual([['BAD_USER_INPUT', 'another Product already has this sku (a unique index allows one)']]);
    const order = await fixture.gateway.execute({ query: `mutation { createOrder(input: { code: "A1", product: "${chair.toHexString()}" }) { code } }` });
    expect(await codes(order)).toEqual([['BAD_USER_INPUT', 'another Order already has this code (a unique index allows one)']]);
    expect((await fixture.db.collection('products').findOne({ _id: desk }))?.sku).toBe('D-1');
  });

  it("refuses a hand-written unit's second insert that repeats a unique code, saying what stands, and never the value", async () => {
    const refused = await fixture.gateway.execute({ query: 'mutation { createLabels(codes: ["X1", "X1"]) }' });
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', `Mutation.createLabels: a unique index on labels (code) refuses a document this write stores there, which repeats another's values, ${outcome}; give values no other document holds`],
    ]);
    const codes = (await fixture.db.collection('labels').find({ code: { $exists: true } }).toArray()).map((label) => label.code);
    expect(codes).toEqual(transactions === 'auto' ? [] : ['X1']);
    await fixture.db.collection('labels').deleteMany({ code: { $exists: true } });
  });

  it("refuses a rename whose copy the labels' validator refuses", async () => {
    const refused = await rename(lamp, 'Lantern');
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', `Mutation.updateProduct: the validator of collection labels refuses a document this write stores there, ${outcome}; give values the validator accepts, or make it accept what the schema's fields store`],
    ]);
    expect(await names('labels')).toEqual(['Lamp']);
  });
});

async function createLabels(_parent: unknown, args: { codes: string[] }, context: GatewayContext, info: GraphQLResolveInfo): Promise<number> {
  await context.writes.run(info, async (unit) => {
    for (const code of args.codes) await unit.insert('Label', { _id: new ObjectId(), code });
  });
  return args.codes.length;
}
