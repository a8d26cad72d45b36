import type { Db } from 'mongodb';
import { Double, ObjectId } from 'bson';
import type { SeedOptions } from 'docjoin';

/** Fixed ids, so tests and the README can name documents. */
export const SHOP_IDS = {
  tea: new ObjectId('67a000000000000000000001'),
  cups: new ObjectId('67a000000000000000000002'),
  sencha: new ObjectId('67b000000000000000000001'),
  matcha: new ObjectId('67b000000000000000000002'),
  mug: new ObjectId('67b000000000000000000003'),
  ada: new ObjectId('67c000000000000000000001'),
  grace: new ObjectId('67c000000000000000000002'),
  firstOrder: new ObjectId('67d000000000000000000001'),
  review: new ObjectId('67e000000000000000000001'),
} as const;

const { tea, cups, sencha, matcha, mug, ada, grace, firstOrder, review } = SHOP_IDS;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const EPOCH = Date.UTC(2026, 10, 1);

/** More customers, each with a few orders placed before the first order: the access rules are tried on many tenants. */
export const SHOPPERS = 20;
export const ORDERS_PER_SHOPPER = 3;
const SHOPPER_NAMES = [
  'Alan Turing', 'Barbara Liskov', 'Claude Shannon', 'Donald Knuth', 'Edsger Dijkstra', 'Frances Allen', 'Gordon Moore', 'Hedy Lamarr', 'Ivan Sutherland', 'John Backus',
  'Katherine Johnson', 'Leslie Lamport', 'Margaret Hamilton', 'Niklaus Wirth', 'Ole-Johan Dahl', 'Peter Naur', 'Radia Perlman', 'Shafi Goldwasser', 'Tony Hoare', 'Vint Cerf',
];

/** The id of the `index`th extra customer (0-based), and of its `order`th order. */
export const shopperId = (index: number): ObjectId => new ObjectId(`67c1${index.toString(16).padStart(20, '0')}`);
export const shopperOrderId = (index: number, order: number): ObjectId => new ObjectId(`67d1${(index * ORDERS_PER_SHOPPER + order).toString(16).padStart(20, '0')}`);

function shoppers(): { customers: Array<Record<string, unknown>>; orders: Array<Record<string, unknown>> } {
  const prices = [
    { id: sencha, name: 'Sencha', price: 12 },
    { id: matcha, name: 'Matcha', price: 30 },
    { id: mug, name: 'Mug', price: 15 },
  ];
  const customers = SHOPPER_NAMES.slice(0, SHOPPERS).map((name, index) => ({
    _id: shopperId(index),
    name,
    email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
    tier: index % 3 === 0 ? 'GOLD' : 'STANDARD',
    addresses: [{ street: `${index + 1} Analytical Row`, city: 'Cambridge', country: 'UK' }],
    orderCount: ORDERS_PER_SHOPPER,
  }));
  const orders = customers.flatMap((customer, index) =>
    Array.from({ length: ORDERS_PER_SHOPPER }, (_, order) => {
      const lines = [prices[(index + order) % 3]!, prices[(index + order + 1) % 3]!].map((product, line) => ({ quantity: line + 1, product }));
      return {
        _id: shopperOrderId(index, order),
        status: order === 0 ? 'SHIPPED' : 'PLACED',
        placedAt: new Date(EPOCH - (index * ORDERS_PER_SHOPPER + order + 1) * HOUR),
        total: lines.reduce((sum, line) => sum + line.quantity * line.product.price, 0),
        customer: { id: customer._id, name: customer.name, tier: customer.tier },
        lines,
      };
    }),
  );
  return { customers, orders };
}

/**
 * A few documents in the shape the schema declares, every copy true (snapshots, counters, the bounded
 * array of recent reviews), and the indexes its joins, lookups and filters need. Scale is ignored: the
 * example is small on purpose.
 */
export async function seedShop(db: Db, options: Pick<SeedOptions, 'onProgress'>): Promise<void> {
  const more = shoppers();
  const reviewDocument = { _id: review, productId: matcha, rating: 5, text: 'Bright and grassy.', createdAt: new Date(EPOCH + 2 * DAY) };
  const collections: Record<string, Array<Record<string, unknown>>> = {
    categories: [
      { _id: tea, name: 'Tea' },
      { _id: cups, name: 'Cups' },
    ],
    products: [
      { _id: sencha, sku: 'TEA-SEN', name: 'Sencha', price: 12, categoryId: tea, reviewCount: 0, ratingTotal: new Double(0), recentReviews: [] },
      { _id: matcha, sku: 'TEA-MAT', name: 'Matcha', price: 30, categoryId: tea, reviewCount: 1, ratingTotal: new Double(reviewDocument.rating), recentReviews: [reviewDocument] },
      { _id: mug, sku: 'CUP-MUG', name: 'Mug', price: 15, categoryId: cups, reviewCount: 0, ratingTotal: new Double(0), recentReviews: [] },
    ],
    customers: [
      { _id: ada, name: 'Ada Lovelace', email: 'ada@example.com', tier: 'GOLD', addresses: [{ street: '12 St James Sq', city: 'London', country: 'UK' }], orderCount: 1 },
      { _id: grace, name: 'Grace Hopper', email: 'grace@example.com', tier: 'STANDARD', addresses: [], orderCount: 0 },
      ...more.customers,
    ],
    orders: [
      {
        _id: firstOrder,
        status: 'SHIPPED',
        placedAt: new Date(EPOCH + DAY),
        total: 54,
        customer: { id: ada, name: 'Ada Lovelace', tier: 'GOLD' },
        lines: [
          { quantity: 2, product: { id: sencha, name: 'Sencha', price: 12 } },
          { quantity: 1, product: { id: matcha, name: 'Matcha', price: 30 } },
        ],
      },
      ...more.orders,
    ],
    reviews: [reviewDocument],
  };
  for (const [name, documents] of Object.entries(collections)) {
    const collection = db.collection(name);
    await collection.deleteMany({});
    await collection.insertMany(documents);
    options.onProgress(name, documents.length, documents.length);
  }
  await db.collection('customers').createIndex({ email: 1 }, { unique: true });
  await db.collection('customers').createIndex({ name: 1, _id: 1 });
  await db.collection('customers').createIndex({ tier: 1 });
  await db.collection('products').createIndex({ sku: 1 }, { unique: true });
  await db.collection('products').createIndex({ name: 1, _id: 1 });
  await db.collection('products').createIndex({ price: 1, _id: 1 });
  await db.collection('products').createIndex({ categoryId: 1, name: 1, _id: 1 });
  await db.collection('categories').createIndex({ name: 1, _id: 1 });
  await db.collection('orders').createIndex({ placedAt: -1, _id: -1 });
  await db.collection('orders').createIndex({ status: 1 });
  await db.collection('orders').createIndex({ 'customer.id': 1, placedAt: -1, _id: -1 });
  await db.collection('orders').createIndex({ 'customer.id': 1, status: 1, placedAt: -1, _id: -1 });
  await db.collection('orders').createIndex({ 'lines.product.id': 1 });
  await db.collection('reviews').createIndex({ productId: 1, createdAt: -1, _id: -1 });
}
