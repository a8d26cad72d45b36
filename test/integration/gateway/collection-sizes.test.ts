import { makeExecutableSchema } from '@graphql-tools/schema';
import { CollectionSizes } from '../../../src/gateway/operation/estimate/collection-sizes';
import { MongoFunnel } from '../../../src/gateway/request/mongo/mongo-funnel';
import { directiveTypeDefs } from '../../../src/gateway/startup/schema/directive-type-defs';
import { buildStorageMap } from '../../../src/gateway/startup/storage-map/build-storage-map';
import { mongoForFile } from '../../support/test-mongo';

const file = mongoForFile();

describe('CollectionSizes', () => {
  it('bounds a list field by the longest array a read of it can take: its copy or its references', async () => {
    // Order.items is an embedded copy of the items its ids reference; while the copy is backfilled, the
    // join reads `itemIds`, which can be longer than `items`.
    const storageMap = buildStorageMap(
      makeExecutableSchema({
        typeDefs: [
          directiveTypeDefs,
          `type Query { orders: [Order!]! @list }
           type Order @collection(name: "orders") { id: ID! items: [Item!]! @embedded(path: "items") @join(localField: "itemIds") @read(strategy: EMBEDDED) }
           type Item @collection(name: "items") { id: ID! name: String! }`,
        ],
      }),
    );
    const db = file.client.db(file.mongo.freshDb('sizes').databaseName);
    await db.collection('orders').insertMany([
      { items: [{ name: 'a' }], itemIds: [1, 2, 3, 4, 5, 6, 7, 8] },
      { items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], itemIds: [1] },
      { itemIds: [] },
    ]);
    const sizes = new CollectionSizes(storageMap, new MongoFunnel(file.client, db));
    await sizes.countSizes();
    await sizes.measureArrays();
    // The longest, 8, with the headroom of every measure (×1.25 + 2).
    expect(sizes.listLength('Order.items')).toBe(Math.ceil(8 * 1.25) + 2);
    expect(sizes.bound('orders')).toBe(Math.ceil(3 * 1.25) + 100);
  });

  it('measures the average JSON size of each stored field over a sample (every document of a small collection)', async () => {
    const storageMap = buildStorageMap(
      makeExecutableSchema({
        typeDefs: [
          directiveTypeDefs,
          `type Query { notes: [Note!]! @list }
           type Note @collection(name: "notes") { id: ID! text: String! stars: Int createdAt: String @path(path: "meta.created") }`,
        ],
      }),
    );
    const db = file.client.db(file.mongo.freshDb('value_sizes').databaseName);
    await db.collection('notes').insertMany([
      { text: 'ab', stars: 5, meta: { created: '2026' } },
      { text: 'abcdef', stars: 10 },
    ]);
    const sizes = new CollectionSizes(storageMap, new MongoFunnel(file.client, db));
    await sizes.measureValueSizes();
    // As JSON: "ab" and "abcdef" (4 and 8 bytes), 5 and 10 (1 and 2), "2026" and an absent value (null: 4).
    expect([sizes.valueBytes('notes', 'text'), sizes.valueBytes('notes', 'stars'), sizes.valueBytes('notes', 'meta.created')]).toEqual([6, 2, 5]);
    // An ObjectId is served as its 24 hex digits in quotes.
    expect(sizes.valueBytes('notes', '_id')).toBe(26);
  });
});
