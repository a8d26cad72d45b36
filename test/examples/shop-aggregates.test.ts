import { ObjectId, type Db } from 'mongodb';
import type { ExecutedOperation, Gateway, Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { startShopGateway, type ShopGateway } from './start-shop';

/**
 * The shop's aggregates (examples/shop/schema/shop.graphql): revenue per order status, average rating
 * per product, product count per category. Every figure is computed again here from the documents the
 * raw driver reads, and every operation's round trips are exact.
 */
const { tea, cups, sencha, matcha, mug, ada } = SHOP_IDS;
const hex = (id: ObjectId) => id.toHexString();
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };
const customer = (id: ObjectId): Viewer => ({ role: 'customer', roles: ['customer'], anonymous: false, subject: hex(id), claims: { sub: hex(id), role: 'customer' } });
const ANONYMOUS: Viewer = { role: 'anonymous', roles: ['anonymous'], anonymous: true, subject: undefined, claims: {} };

interface StoredOrder {
  _id: ObjectId;
  status: string;
  total: number;
  placedAt: Date;
  customer: { id: ObjectId };
}

let shop: ShopGateway;
let db: Db;
let gateway: Gateway;
beforeAll(async () => {
  shop = await startShopGateway('shop_aggregates');
  ({ db, gateway } = shop);
  // More reviews, written through the gateway so that every product's reviewCount stays true.
  for (const [product, rating, day] of [[sencha, 4, 3], [sencha, 2, 4], [matcha, 3, 5], [matcha, 5, 6]] as const) {
    await run(`mutation { createReview(input: { product: "${hex(product)}", rating: ${rating}, text: "Noted.", createdAt: "2026-11-0${day}T09:00:00Z" }) { id } }`);
  }
}, 60_000);
afterAll(() => shop?.stop());

async function run(query: string, viewer: Viewer = ADMIN): Promise<ExecutedOperation> {
  const result = await gateway.execute({ query }, { viewer });
  expect(result.errors).toBeUndefined();
  return result;
}

const orders = () => shop.mongo.client.db(db.databaseName).collection<StoredOrder>('orders').find().toArray();
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const iso = (date: Date) => date.toISOString();
const byDate = (a: Date, b: Date) => a.getTime() - b.getTime();

describe('revenue per order status (a root @list)', () => {
  it('adds up, averages and orders the filtered set, and groups it, in ONE aggregate', async () => {
    const all = await orders();
    const placedAt = all.map((order) => order.placedAt).sort(byDate);
    const statuses = [...new Set(all.map((order) => order.status))].sort();
    const result = await run(`{
      ordersAggregate { count sum { total } avg { total } min { placedAt total } max { placedAt total }
        groupBy(by: [STATUS]) { key { status customer } count sum { total } avg { total } } }
    }`);
    expect(result.data).toEqual({
      ordersAggregate: {
        count: all.length,
        sum: { total: sum(all.map((order) => order.total)) },
        avg: { total: sum(all.map((order) => order.total)) / all.length },
        min: { placedAt: iso(placedAt[0]!), total: Math.min(...all.map((order) => order.total)) },
        max: { placedAt: iso(placedAt.at(-1)!), total: Math.max(...all.map((order) => order.total)) },
        groupBy: statuses.map((status) => {
          const group = all.filter((order) => order.status === status);
          const total = sum(group.map((order) => order.total));
          return { key: { status, customer: null }, count: group.length, sum: { total }, avg: { total: total / group.length } };
        }),
      },
    });
    expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });

  it('takes the list\'s filters, and orders groups by count (ties by key) and cuts them to `first`', async () => {
    const all = await orders();
    const shipped = all.filter((order) => order.status === 'SHIPPED');
    const perCustomer = new Map<string, number>();
    for (const order of all) perCustomer.set(hex(order.customer.id), (perCustomer.get(hex(order.customer.id)) ?? 0) + 1);
    const top = [...perCustomer].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1)).slice(0, 3);
    const result = await run(`{
      shipped: ordersAggregate(status: SHIPPED) { count sum { total } }
      ordersAggregate { groupBy(by: [CUSTOMER], first: 3, order: COUNT_DESC) { key { customer } count } }
    }`);
    expect(result.data).toEqual({
      shipped: { count: shipped.length, sum: { total: sum(shipped.map((order) => order.total)) } },
      ordersAggregate: { groupBy: top.map(([id, count]) => ({ key: { customer: id }, count })) },
    });
    // Two root fields on one collection, sent in the same moment: one command; the estimate counts each.
    expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 2 });
    // Every customer's group, in one document with the figures' (its groups in order inside it).
    const everyCustomer = await run('{ ordersAggregate { count groupBy(by: [CUSTOMER], first: 100, order: COUNT_ASC) { key { customer } count } } }');
    const fewestFirst = [...perCustomer].sort(([a, countA], [b, countB]) => countA - countB || (a < b ? -1 : 1));
    expect((everyCustomer.data as { ordersAggregate: { groupBy: unknown[] } }).ordersAggregate.groupBy).toEqual(fewestFirst.map(([id, count]) => ({ key: { customer: id }, count })));
    expect(everyCustomer.cost).toMatchObject({ roundTrips: 1, documents: 2 });
  });

  it('sees only what the viewer may read: a customer\'s figures cover their own orders, inside MongoDB', async () => {
    const own = (await orders()).filter((order) => order.customer.id.equals(ada));
    const result = await run('{ ordersAggregate { count sum { total } groupBy(by: [STATUS]) { key { status } count } } }', customer(ada));
    expect(result.data).toEqual({ ordersAggregate: { count: own.length, sum: { total: sum(own.map((order) => order.total)) }, groupBy: [{ key: { status: 'SHIPPED' }, count: own.length }] } });
    const refused = await gateway.execute({ query: '{ ordersAggregate { count } }' }, { viewer: ANONYMOUS });
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    // A group's key lists the customers the orders name: both rules pin them to the viewer, so the one group is its own.
    const byCustomer = await run('{ ordersAggregate { groupBy(by: [CUSTOMER]) { key { customer } count } } }', customer(ada));
    expect(byCustomer).toMatchObject({ data: { ordersAggregate: { groupBy: [{ key: { customer: ada.toHexString() }, count: own.length }] } } });
  });

  it('refuses a bad groupBy with BAD_USER_INPUT at its own path, before anything is sent for it', async () => {
    for (const query of ['{ ordersAggregate { groupBy(by: []) { count } } }', '{ ordersAggregate { groupBy(by: [STATUS], first: 5000) { count } } }', '{ ordersAggregate { groupBy(by: [STATUS], first: -1) { count } } }']) {
      const result = await gateway.execute({ query }, { viewer: ADMIN });
      expect(result.errors?.map((error) => [error.extensions?.code, error.path])).toEqual([['BAD_USER_INPUT', ['ordersAggregate', 'groupBy']]]);
      expect(result.cost).toMatchObject({ roundTrips: 0 });
    }
    // The other figures of the same aggregate are still read (a nullable place would keep them).
    const mixed = await gateway.execute({ query: '{ ordersAggregate { count bad: groupBy(by: []) { count } } }' }, { viewer: ADMIN });
    expect(mixed.errors?.map((error) => error.message)).toEqual(['OrderAggregate.groupBy(by:) needs at least one field to group by']);
    expect(mixed.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });
});

describe('average rating per product and product count per category (reverse joins)', () => {
  it('gives every product of a page its figures and its groups from ONE aggregate', async () => {
    const reviews = await shop.mongo.client.db(db.databaseName).collection<{ productId: ObjectId; rating: number }>('reviews').find().toArray();
    const products = [matcha, mug, sencha]; // by name: Matcha, Mug, Sencha
    const result = await run('{ products { name reviewsAggregate { count avg { rating } min { rating } groupBy(by: [RATING]) { key { rating } count } } } }');
    expect(result.data).toEqual({
      products: products.map((product, index) => {
        const own = reviews.filter((review) => review.productId.equals(product));
        const ratings = [...new Set(own.map((review) => review.rating))].sort();
        return {
          name: ['Matcha', 'Mug', 'Sencha'][index],
          reviewsAggregate: {
            count: own.length,
            avg: { rating: own.length === 0 ? null : sum(own.map((review) => review.rating)) / own.length },
            min: { rating: own.length === 0 ? null : Math.min(...own.map((review) => review.rating)) },
            groupBy: ratings.map((rating) => ({ key: { rating }, count: own.filter((review) => review.rating === rating).length })),
          },
        };
      }),
    });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('answers the average rating per product from Product.reviewCount and Product.ratingTotal, which the review writes kept, with no command', async () => {
    const reviews = await shop.mongo.client.db(db.databaseName).collection<{ productId: ObjectId; rating: number }>('reviews').find().toArray();
    const result = await run('{ products { name ratingTotal reviewsAggregate { count sum { rating } avg { rating } } } }');
    expect(result.data).toEqual({
      products: [matcha, mug, sencha].map((product, index) => {
        const ratings = reviews.filter((review) => review.productId.equals(product)).map((review) => review.rating);
        const total = sum(ratings);
        return { name: ['Matcha', 'Mug', 'Sencha'][index], ratingTotal: total, reviewsAggregate: { count: ratings.length, sum: { rating: total }, avg: { rating: ratings.length === 0 ? null : total / ratings.length } } };
      }),
    });
    expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(result.cost?.fields?.['Product.reviewsAggregate']).toMatchObject({ strategy: 'embedded', roundTrips: 0 });
  });

  it('answers a bare count from the @counter with no command, and queries when a filter or an access rule makes the counter not apply', async () => {
    const counted = await run('{ products { name reviewsAggregate { count } } }');
    expect(counted.data).toEqual({ products: [{ name: 'Matcha', reviewsAggregate: { count: 3 } }, { name: 'Mug', reviewsAggregate: { count: 0 } }, { name: 'Sencha', reviewsAggregate: { count: 2 } }] });
    expect(counted.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(counted.cost?.fields?.['Product.reviewsAggregate']).toMatchObject({ roundTrips: 0 });
    // A groupBy asking for no group (`first: 0`) asks MongoDB nothing either.
    const noGroups = await run('{ products { name reviewsAggregate { count groupBy(by: [RATING], first: 0) { count } } } }');
    expect(noGroups.data).toEqual({ products: ['Matcha', 'Mug', 'Sencha'].map((name, index) => ({ name, reviewsAggregate: { count: [3, 0, 2][index], groupBy: [] } })) });
    expect(noGroups.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    // A groupBy refused for its arguments asks for nothing too, and still answers its error.
    const refusedGroups = await gateway.execute({ query: '{ products { name reviewsAggregate { count groupBy(by: []) { count } } } }' }, { viewer: ADMIN });
    expect(refusedGroups.data).toBeNull();
    // Non-null all the way up: the first product's error nulls the list, as graphql-js answers it.
    expect(refusedGroups.errors?.map((error) => [error.message, error.extensions?.code, error.path])).toEqual([
      ['ReviewAggregate.groupBy(by:) needs at least one field to group by', 'BAD_USER_INPUT', ['products', 0, 'reviewsAggregate', 'groupBy']],
    ]);

    const own = (await orders()).filter((order) => order.customer.id.equals(ada));
    const query = `{ customer(id: "${hex(ada)}") { orderCount ordersAggregate { count } shipped: ordersAggregate(status: SHIPPED) { count } } }`;
    const asAdmin = await run(query);
    const expected = { customer: { orderCount: own.length, ordersAggregate: { count: own.length }, shipped: { count: own.filter((order) => order.status === 'SHIPPED').length } } };
    expect(asAdmin.data).toEqual(expected);
    // The filtered alias queries; the bare count is the counter's.
    expect(asAdmin.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    // A customer reads orders only where they are the customer: the counter counts every order, so both are queried (together).
    const asAda = await run(query, customer(ada));
    expect(asAda.data).toEqual(expected);
    expect(asAda.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
  });

  it('counts the products of every category of a page in one aggregate, and sends aliases of one level together', async () => {
    const products = await shop.mongo.client.db(db.databaseName).collection<{ categoryId: ObjectId; price: number }>('products').find().toArray();
    const figures = (category: ObjectId) => {
      const prices = products.filter((product) => product.categoryId.equals(category)).map((product) => product.price);
      return { count: prices.length, sum: { price: sum(prices) }, max: { price: Math.max(...prices) } };
    };
    const result = await run('{ categories { name productsAggregate { count sum { price } } priciest: productsAggregate { max { price } } } }');
    expect(result.data).toEqual({
      categories: [cups, tea].map((category, index) => {
        const { count, sum: total, max } = figures(category);
        return { name: ['Cups', 'Tea'][index], productsAggregate: { count, sum: total }, priciest: { max } };
      }),
    });
    expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    const grouped = await run('{ productsAggregate(maxPrice: 20) { groupBy(by: [CATEGORY]) { key { category } count } } }');
    const cheap = products.filter((product) => product.price <= 20);
    expect(grouped.data).toEqual({
      productsAggregate: { groupBy: [tea, cups].sort((a, b) => (hex(a) < hex(b) ? -1 : 1)).map((category) => ({ key: { category: hex(category) }, count: cheap.filter((product) => product.categoryId.equals(category)).length })) },
    });
  });
});
