import { ObjectId, type Db, type MongoClient } from 'mongodb';
import { connectMongo, type Gateway } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/** `@find` and `@list` root fields with no hand-written resolver, on a handful of documents. */
const SDL = /* GraphQL */ `
  type Query {
    product(id: ID!): Product @find
    productBySku(sku: String!): Product @find
    products(
      first: Int = 20
      after: ID
      orderBy: ProductOrder
      category: ID @filter(field: "categoryId")
      categories: [ID!] @filter(field: "categoryId", op: IN)
      minPrice: Float @filter(field: "price", op: GTE)
      belowPrice: Float @filter(field: "price", op: LT)
      namePrefix: String @filter(field: "name", op: PREFIX)
      status: Status
    ): [Product!]! @list(sort: "name")
    categories(first: Int = 20, after: ID): [Category!]! @list
  }
  enum Status { ACTIVE RETIRED }
  enum ProductOrder { CHEAPEST @sort(by: "price") DEAREST @sort(by: "-price") NEWEST @sort(by: "-_id") }
  type Category @collection(name: "categories") { id: ID! name: String! }
  type Product @collection(name: "products") {
    id: ID!
    sku: String!
    name: String!
    price: Float!
    status: Status!
    categoryId: ID
    category: Category @join(localField: "categoryId")
  }
`;

const tea = new ObjectId('66a000000000000000000001');
const cups = new ObjectId('66a000000000000000000002');
const p = (n: number) => new ObjectId(`66b00000000000000000000${n}`);
const PRODUCTS = [
  { _id: p(1), sku: 'T-1', name: 'Sencha', price: 12, status: 'ACTIVE', categoryId: tea },
  { _id: p(2), sku: 'T-2', name: 'Matcha', price: 30, status: 'ACTIVE', categoryId: tea },
  { _id: p(3), sku: 'T-3', name: 'Genmaicha', price: 9, status: 'RETIRED', categoryId: tea },
  { _id: p(4), sku: 'C-1', name: 'Mug', price: 15, status: 'ACTIVE', categoryId: cups },
  { _id: p(5), sku: 'C-2', name: 'Matcha bowl', price: 45, status: 'ACTIVE', categoryId: cups },
];

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let gateway: Gateway;
const warnings: string[] = [];
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('roots');
  await db.collection('categories').insertMany([{ _id: tea, name: 'Tea' }, { _id: cups, name: 'Cups' }]);
  await db.collection('products').insertMany(PRODUCTS);
  await db.collection('products').createIndex({ sku: 1 }, { unique: true });
  await db.collection('products').createIndex({ categoryId: 1 });
  await db.collection('products').createIndex({ price: 1, _id: 1 });
  await db.collection('products').createIndex({ name: 1, _id: 1 });
  await db.collection('products').createIndex({ status: 1 });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: db.databaseName, listen: false, onWarning: (message) => warnings.push(message) });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const codeOf = (error: { extensions?: Record<string, unknown> } | undefined): unknown => error?.extensions?.code;
const names = (data: unknown, field = 'products') => ((data as Record<string, Array<{ name: string }>>)[field] ?? []).map((item) => item.name);

describe('@find', () => {
  it('reads one document by id or by a unique field in one round trip, null when nothing matches', async () => {
    const byId = await gateway.execute({ query: `{ product(id: "${p(2).toHexString()}") { sku name } }` });
    expect(byId).toMatchObject({ data: { product: { sku: 'T-2', name: 'Matcha' } }, cost: { roundTrips: 1, estimatedRoundTrips: 1 } });
    const bySku = await gateway.execute({ query: '{ productBySku(sku: "C-1") { name price } }' });
    expect(bySku).toMatchObject({ data: { productBySku: { name: 'Mug', price: 15 } }, cost: { roundTrips: 1 } });
    const none = await gateway.execute({ query: '{ productBySku(sku: "nope") { name } }' });
    expect(none).toMatchObject({ data: { productBySku: null }, cost: { roundTrips: 1 } });
  });

  it('is one find attributed to the root field; a relation below it is its own batched find', async () => {
    const result = await gateway.execute({ query: `{ product(id: "${p(4).toHexString()}") { name category { name } } }` }, { costHeader: 'commands' });
    expect(result.data).toEqual({ product: { name: 'Mug', category: { name: 'Cups' } } });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    const commands = (result.cost as unknown as { commands: Array<{ collection: string; filter: unknown; fields: string[] }> }).commands;
    expect(commands.map((command) => [command.collection, command.fields])).toEqual([
      ['products', ['Query.product']],
      ['categories', ['Product.category']],
    ]);
  });

  it('refuses an id that is not one, sending nothing', async () => {
    const result = await gateway.execute({ query: '{ product(id: "42") { name } }' });
    expect(codeOf(result.errors?.[0])).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toBe('id must be a 24-character hexadecimal ObjectId, got "42"');
    expect(result.cost?.roundTrips).toBe(0);
  });
});

describe('@list', () => {
  it('pages in the declared order with _id as the tie-breaker, one round trip', async () => {
    const result = await gateway.execute({ query: '{ products(first: 3) { name } }' });
    expect(names(result.data)).toEqual(['Genmaicha', 'Matcha', 'Matcha bowl']);
    expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1, documents: 3 });
  });

  it('orders by an orderBy enum value', async () => {
    expect(names((await gateway.execute({ query: '{ products(orderBy: CHEAPEST) { name } }' })).data)).toEqual(['Genmaicha', 'Sencha', 'Mug', 'Matcha', 'Matcha bowl']);
    expect(names((await gateway.execute({ query: '{ products(orderBy: DEAREST, first: 2) { name } }' })).data)).toEqual(['Matcha bowl', 'Matcha']);
    expect(names((await gateway.execute({ query: '{ products(orderBy: NEWEST, first: 2) { name } }' })).data)).toEqual(['Matcha bowl', 'Mug']);
  });

  it('filters by equality, IN, ranges, prefix and enums, in the same single find', async () => {
    const cases: Array<[string, string[]]> = [
      [`category: "${tea.toHexString()}"`, ['Genmaicha', 'Matcha', 'Sencha']],
      [`categories: ["${cups.toHexString()}"]`, ['Matcha bowl', 'Mug']],
      ['minPrice: 15, belowPrice: 45', ['Matcha', 'Mug']],
      ['namePrefix: "Matcha"', ['Matcha', 'Matcha bowl']],
      ['namePrefix: "Ma.cha"', []],
      ['status: RETIRED', ['Genmaicha']],
      [`status: ACTIVE, category: "${tea.toHexString()}", orderBy: DEAREST`, ['Matcha', 'Sencha']],
    ];
    for (const [args, expected] of cases) {
      const result = await gateway.execute({ query: `{ products(${args}) { name } }` });
      expect([args, result.errors, names(result.data), result.cost?.roundTrips]).toEqual([args, undefined, expected, 1]);
    }
  });

  it('pages after an item: by _id in one round trip; in another order, reading that item first (two, as estimated)', async () => {
    const categories = await gateway.execute({ query: `{ categories(first: 1, after: "${tea.toHexString()}") { name } }` });
    expect(categories).toMatchObject({ data: { categories: [{ name: 'Cups' }] }, cost: { roundTrips: 1, estimatedRoundTrips: 1 } });
    // Mug (15) is followed by Matcha (30): the page after it starts strictly after (15, Mug's _id).
    const page = await gateway.execute({ query: `{ products(orderBy: CHEAPEST, first: 2, after: "${p(4).toHexString()}") { name } }` });
    expect(page).toMatchObject({ data: { products: [{ name: 'Matcha' }, { name: 'Matcha bowl' }] }, cost: { roundTrips: 2, estimatedRoundTrips: 2 } });
    const byName = await gateway.execute({ query: `{ products(first: 10, after: "${p(2).toHexString()}") { name } }` });
    expect(names(byName.data)).toEqual(['Matcha bowl', 'Mug', 'Sencha']);
  });

  it('refuses a bad page argument or filter value with BAD_USER_INPUT, sending nothing', async () => {
    for (const args of ['first: 101', 'after: "nope"', 'category: "tea"', 'categories: ["x"]']) {
      const result = await gateway.execute({ query: `{ products(${args}) { name } }` });
      expect([args, codeOf(result.errors?.[0]), result.cost?.roundTrips]).toEqual([args, 'BAD_USER_INPUT', 0]);
    }
    const gone = await gateway.execute({ query: `{ products(orderBy: CHEAPEST, after: "${new ObjectId().toHexString()}") { name } }` });
    expect(codeOf(gone.errors?.[0])).toBe('BAD_USER_INPUT');
  });
});

describe('startup', () => {
  it('warns about nothing on matching data and indexes', () => {
    expect(warnings).toEqual([]);
  });

  const start = (typeDefs: string, onWarning?: (message: string) => void) =>
    createCheckedGateway({ typeDefs, mongoClient: client, db: db.databaseName, listen: false, ...(onWarning && { onWarning }) }).then((started) => started.stop());

  it('refuses a @find whose arguments no unique index covers, naming the index that fixes it', async () => {
    const sdl = SDL.replace('productBySku(sku: String!): Product @find', 'productByName(name: String!): Product @find');
    await expect(start(sdl)).rejects.toThrow(
      'Query.productByName: @find by name needs a unique index, else it could match several Products; create one with db.products.createIndex({ name: 1 }, { unique: true })',
    );
  });

  it('says, for a @find by an id typed String, that it reads a stored field "id" and how to read the _id instead', async () => {
    const sdl = SDL.replace('productBySku(sku: String!): Product @find', 'productById(id: String!): Product @find').replace('type Product @collection(name: "products") {\n    id: ID!', 'type Product @collection(name: "products") {\n    id: String!');
    await expect(start(sdl)).rejects.toThrow(
      'Query.productById: @find by id needs a unique index, else it could match several Products; create one with db.products.createIndex({ id: 1 }, { unique: true }) (Product.id is read from a stored field "id"; if it means the documents\' _id, type it ID or add @path(path: "_id"))',
    );
  });

  it('gives that hint only for a @find by an argument id: one by another argument kept at a stored "id" is not about Product.id', async () => {
    const sdl = SDL.replace('productBySku(sku: String!): Product @find', 'productByLegacyId(legacyId: String!): Product @find').replace('    sku: String!\n', '    sku: String!\n    legacyId: String! @path(path: "id")\n');
    await expect(start(sdl)).rejects.toThrow(
      new RegExp(`Query\\.productByLegacyId: @find by id needs a unique index, else it could match several Products; create one with db\\.products\\.createIndex\\(\\{ id: 1 \\}, \\{ unique: true \\}\\)$`, 'm'),
    );
  });

  it('refuses a @list filter on a field no index leads', async () => {
    const sdl = SDL.replace('status: Status\n    ): [Product!]!', 'status: Status\n      priceNot: Float @filter(field: "price", op: NE)\n      skus: [String!] @filter(field: "sku", op: IN)\n    ): [Product!]!');
    await expect(start(sdl)).resolves.toBeUndefined();
    const unindexed = SDL.replace('categoryId: ID\n', 'categoryId: ID\n    madeIn: String\n').replace('status: Status\n    ): [Product!]!', 'status: Status\n      madeIn: String\n    ): [Product!]!');
    await expect(start(unindexed)).rejects.toThrow('Query.products: argument "madeIn" filters products.madeIn, which no index leads; create one with db.products.createIndex({ madeIn: 1 })');
  });

  it('warns when no index serves a declared order', async () => {
    const seen: string[] = [];
    await start(SDL.replace('NEWEST @sort(by: "-_id")', 'NEWEST @sort(by: "-_id") SKU @sort(by: "-sku")'), (message) => seen.push(message));
    expect(seen).toEqual(['Query.products: no index serves the order { sku: -1, _id: -1 }; each page sorts products in memory. Create one with db.products.createIndex({ sku: -1, _id: -1 })']);
  });
});
