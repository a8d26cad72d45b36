import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type ClientSession, type CommandFailedEvent, type CommandStartedEvent, type Db } from 'mongodb';
import type { ExecutedOperation, GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';
import { transactionsAtRegistration } from './support/expected-writes';

/**
 * Write skew between a document copying a product and a write changing or deleting that product:
 * each transaction reads what the other is about to change, and they write no common document, so
 * without a lock both commit and the new copy keeps the old price, or names a deleted product. Both
 * sides bump the product's lock documents (docjoin_locks), so the second conflicts, runs again, and
 * sees the first.
 *
 * Each race is staged with a transaction of the test's own that does one side's writes and stays
 * open until the gateway's unit, doing the other side, has failed once on the lock: the order of
 * events is then fixed, whatever the machine's speed. The copies are an order's snapshot of its
 * product (at the top of the document) and a cart's, one per line (inside an embedded array).
 */
const typeDefs = /* GraphQL */ `
  type Query { order(id: ID!): Order @find }
  type Mutation {
    createOrder(input: OrderInput!): Order! @create
    createCart(input: CartInput!): Cart! @create
    createLabel(input: LabelInput!): Label! @create
    createShelf(input: ShelfInput!): Shelf! @create
    "Hand-written: copies a product it read before its write unit began."
    orderFromOwnRead(product: ID!): Order!
    createReview(input: ReviewInput!): Review! @create
    updateReview(id: ID!, input: ReviewPatch!): Review! @update
    deleteReview(id: ID!): ID! @delete(type: "Review")
    updateProduct(id: ID!, input: ProductPatch!): Product! @update
    deleteProduct(id: ID!): ID! @delete(type: "Product")
    updateCritic(id: ID!, input: CriticPatch!): Critic! @update
    createSticker(input: StickerInput!): Sticker! @create
    deleteTag(id: ID!): ID! @delete(type: "Tag")
  }
  type Product @collection(name: "products") {
    id: ID!
    name: String!
    price: Float!
    stock: Int!
    reviews: [Review!]! @join(localField: "_id", foreignField: "productId", sort: "_id")
    reviewCount: Int! @counter(of: "Product.reviews")
    "The two newest reviews, copied whole: a delete of one refills it with the next."
    recentReviews: [Review!]! @embedded @join(collection: "reviews", localField: "_id", foreignField: "productId", sort: "-_id", limit: 2) @read(strategy: EMBEDDED)
  }
  type Review @collection(name: "reviews") {
    id: ID!
    text: String!
    product: Product! @join(localField: "productId")
    "Copied into the review, and with it into the product's recentReviews: a refill copies it as the review holds it."
    critic: Critic @snapshot(path: "critic", fields: ["id", "name"]) @join(localField: "critic.id") @read(strategy: SNAPSHOT)
  }
  type Critic @collection(name: "critics") { id: ID! name: String! }
  "A copy of a counter: every review of the product changes it."
  type Shelf @collection(name: "shelves") { id: ID! product: Product! @snapshot(path: "product", fields: ["id", "reviewCount"]) @join(localField: "product.id") @read(strategy: SNAPSHOT) }
  type Order @collection(name: "orders") {
    id: ID!
    quantity: Int!
    product: Product! @snapshot(path: "product", fields: ["id", "name", "price"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
  }
  type Cart @collection(name: "carts") { id: ID! lines: [CartLine!]! @embedded(path: "lines") }
  type CartLine { quantity: Int! product: Product! @snapshot(path: "product", fields: ["id", "name", "price"]) @join(localField: "product.id") @read(strategy: SNAPSHOT) }
  "A plain reference to a product: nothing copied, so only a delete of the product can race with it."
  type Label @collection(name: "labels") { id: ID! text: String! product: Product! @join(localField: "productId") }
  input OrderInput { product: ID! quantity: Int! }
  input CartInput { lines: [CartLineInput!]! }
  input CartLineInput { product: ID! quantity: Int! }
  input LabelInput { product: ID! text: String! }
  "Two types over one collection: a sticker points at a TagAlias, a delete goes through Tag."
  type Tag @collection(name: "tags") { id: ID! name: String! }
  type TagAlias @collection(name: "tags") { id: ID! name: String! }
  type Sticker @collection(name: "stickers") { id: ID! tag: TagAlias! @join(localField: "tagId") }
  input StickerInput { tag: ID! }
  input ShelfInput { product: ID! }
  input ReviewInput { product: ID! text: String! critic: ID }
  input CriticPatch { name: String }
  input ReviewPatch { text: String }
  input ProductPatch { name: String price: Float stock: Int }
`;

const transactions = transactionsAtRegistration();
let s: SdlGateway;
let db: Db;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'reference_locks',
    gateway: {
      resolvers: { Mutation: { orderFromOwnRead } },
      writePlans: { orderFromOwnRead: [{ kind: 'insert', typeName: 'Order', preloaded: ['Order.product'] }] },
    },
    prepare: async (fresh) => {
      for (const name of ['products', 'orders', 'carts', 'labels', 'shelves', 'reviews', 'critics', 'tags', 'stickers']) await fresh.createCollection(name);
      await fresh.collection('stickers').createIndex({ tagId: 1 });
      await fresh.collection('reviews').createIndex({ 'critic.id': 1 });
      await fresh.collection('products').createIndex({ 'recentReviews.critic.id': 1 });
      await fresh.collection('shelves').createIndex({ 'product.id': 1 });
      await fresh.collection('reviews').createIndex({ productId: 1 });
      await fresh.collection('orders').createIndex({ 'product.id': 1 });
      await fresh.collection('carts').createIndex({ 'lines.product.id': 1 });
      await fresh.collection('labels').createIndex({ productId: 1 });
    },
  });
  db = s.db;
}, 60_000);
afterAll(() => s?.stop());

let product: ObjectId;
beforeEach(async () => {
  product = new ObjectId();
  await db.collection('products').insertOne({ _id: product, name: 'Lamp', price: 10, stock: 5, reviewCount: 0, recentReviews: [] });
});

async function orderFromOwnRead(_parent: unknown, args: { product: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const read = (await db.collection('products').findOne({ _id: new ObjectId(args.product) }))!;
  const order = { _id: new ObjectId(), quantity: 1, product: { id: read._id } };
  await context.writes.run(info, (unit) => unit.insert('Order', order, [read]));
  return order;
}

const SLOTS = [0, 1, 2, 3, 4, 5, 6, 7];
const lockOf = (id: ObjectId, slot: number, collection = 'products') => `${collection}/o:${id.toHexString()}/${slot}`;
const setPrice = (price: number) => s.gateway.execute({ query: `mutation { updateProduct(id: "${product.toHexString()}", input: { price: ${price} }) { price } }` });
const deleteProduct = () => s.gateway.execute({ query: `mutation { deleteProduct(id: "${product.toHexString()}") }` });

/** A document copying the product, made through the gateway, and where its copy lies. */
interface Copier {
  readonly name: string;
  readonly collection: string;
  /** Its copy of the product, as stored. */
  copyIn(document: Record<string, unknown>): unknown;
  create(): Promise<ExecutedOperation>;
  /** The same document as stored, with `copy` as its copy of the product (what the test's own transaction inserts). */
  stored(copy: { id: ObjectId; name: string; price: number }): { _id: ObjectId } & Record<string, unknown>;
}
const copiers: readonly Copier[] = [
  {
    name: 'an order (a snapshot at the top of the document)',
    collection: 'orders',
    copyIn: (order) => order.product,
    create: () => s.gateway.execute({ query: `mutation { createOrder(input: { product: "${product.toHexString()}", quantity: 1 }) { id } }` }),
    stored: (copy) => ({ _id: new ObjectId(), quantity: 1, product: copy }),
  },
  {
    name: 'a cart (a snapshot in each line of an embedded array)',
    collection: 'carts',
    copyIn: (cart) => (cart.lines as Array<{ product: unknown }>)[0]!.product,
    create: () => s.gateway.execute({ query: `mutation { createCart(input: { lines: [{ product: "${product.toHexString()}", quantity: 1 }] }) { id } }` }),
    stored: (copy) => ({ _id: new ObjectId(), lines: [{ quantity: 1, product: copy }] }),
  },
];

/**
 * Runs `writes` in a transaction of the test's own, then `unit` through the gateway, and commits the
 * test's transaction once the gateway's unit has failed with a WriteConflict on docjoin_locks.
 */
async function race<T>(writes: (session: ClientSession) => Promise<void>, unit: () => Promise<T>): Promise<T> {
  const session = s.mongo.client.startSession();
  session.startTransaction();
  let conflicted!: () => void;
  const firstConflict = new Promise<void>((resolve) => (conflicted = resolve));
  const lockCommands = new Set<number>();
  const started = (event: CommandStartedEvent) => {
    if (event.commandName === 'update' && event.command.update === 'docjoin_locks') lockCommands.add(event.requestId);
  };
  const failed = (event: CommandFailedEvent) => {
    if (lockCommands.has(event.requestId) && (event.failure as { code?: number }).code === 112) conflicted();
  };
  s.client.on('commandStarted', started);
  s.client.on('commandFailed', failed);
  try {
    await writes(session);
    const running = unit();
    // A unit that takes no lock ends without a conflict: the test's transaction commits after it, and the checks see the skew.
    await Promise.race([firstConflict, running.then(noop, noop)]);
    await session.commitTransaction();
    return await running;
  } finally {
    s.client.off('commandStarted', started);
    s.client.off('commandFailed', failed);
    if (session.inTransaction()) await session.abortTransaction();
    await session.endSession();
  }
}
const noop = () => undefined;

/**
 * What the other side's unit writes of the product's locks (or another document's), as the gateway
 * does: a unit changing or deleting the product bumps every slot, one pointing at it bumps one (any:
 * the gateway's changing unit bumps them all).
 */
const bumpLocks = (session: ClientSession, slots: readonly number[], collection = 'products', id = product) =>
  db.collection<{ _id: string }>('docjoin_locks').bulkWrite(
    slots.map((slot) => ({ updateOne: { filter: { _id: lockOf(id, slot, collection) }, update: { $inc: { bumps: 1 } }, upsert: true } })),
    { session },
  );
const asChanging = (session: ClientSession) => bumpLocks(session, SLOTS);
const asPointing = (session: ClientSession) => bumpLocks(session, [5]);

/** The id a create answered. */
const createdId = (result: ExecutedOperation) => new ObjectId(Object.values(result.data as Record<string, { id: string }>)[0]!.id);

(transactions.supported ? describe : describe.skip)(`with transactions${transactions.skipReason}`, () => {
  it('has docjoin_locks made at startup, outside any transaction (a transaction may not create it everywhere): the first write that locks only bumps its lock', async () => {
    const exists = async () => (await db.listCollections({ name: 'docjoin_locks' }).toArray()).length === 1;
    expect(await exists()).toBe(true);
    const sent: string[] = [];
    const started = (event: CommandStartedEvent) => void sent.push(`${event.commandName} ${String(event.command[event.commandName])}`);
    s.client.on('commandStarted', started);
    let created: ExecutedOperation;
    try {
      created = await s.gateway.execute({ query: `mutation { createLabel(input: { product: "${product.toHexString()}", text: "first" }) { id } }` });
    } finally {
      s.client.off('commandStarted', started);
    }
    expect(created.errors).toBeUndefined();
    expect(sent.filter((command) => command.startsWith('create ') || command.startsWith('listCollections'))).toEqual([]);
    expect(created.cost?.collections.docjoin_locks).toEqual({ roundTrips: 1, documents: 0 });
    expect(created.cost?.roundTrips).toBe(sent.length);
  });

  describe.each(copiers)('$name', (copier) => {
    it('made while a price change is open, it copies the new price, after a conflict on the lock', async () => {
      const created = await race(
        async (session) => {
          await asChanging(session);
          await db.collection('products').updateOne({ _id: product }, { $set: { price: 12 } }, { session });
        },
        () => copier.create(),
      );
      expect(created.errors).toBeUndefined();
      expect(created.cost?.writes?.attempts).toBeGreaterThanOrEqual(2);
      expect(copier.copyIn((await db.collection(copier.collection).findOne({ _id: createdId(created) }))!)).toEqual({ id: product, name: 'Lamp', price: 12 });
    });

    it('a price change made while one copying the old price is open reaches it too, after a conflict on the lock', async () => {
      const copy = copier.stored({ id: product, name: 'Lamp', price: 10 });
      const changed = await race(
        async (session) => {
          await asPointing(session);
          await db.collection(copier.collection).insertOne(copy, { session });
        },
        () => setPrice(15),
      );
      expect(changed.errors).toBeUndefined();
      const attempts = changed.cost!.writes!.attempts;
      expect(attempts).toBeGreaterThanOrEqual(2);
      // Each failed attempt: the lock (a WriteConflict), then its abort; the last: the lock, the product, its copies in orders and in carts, the commit.
      expect(changed.cost?.writes).toEqual({ roundTrips: 2 * (attempts - 1) + 5, documentsModified: 2, fanOut: { products: 1, orders: 0, carts: 0, [copier.collection]: 1 }, atomic: true, attempts });
      expect(copier.copyIn((await db.collection(copier.collection).findOne({ _id: copy._id }))!)).toEqual({ id: product, name: 'Lamp', price: 15 });
    });

    it('one for a product deleted meanwhile is NOT_FOUND, nothing written', async () => {
      const created = await race(
        async (session) => {
          await asChanging(session);
          await db.collection('products').deleteOne({ _id: product }, { session });
        },
        () => copier.create(),
      );
      expect(created.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
      expect(await db.collection(copier.collection).countDocuments({ $or: [{ 'product.id': product }, { 'lines.product.id': product }] })).toBe(0);
    });

    it('a product one made meanwhile points at is not deleted', async () => {
      const deleted = await race(
        async (session) => {
          await asPointing(session);
          await db.collection(copier.collection).insertOne(copier.stored({ id: product, name: 'Lamp', price: 10 }), { session });
        },
        () => deleteProduct(),
      );
      expect(deleted.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(await db.collection('products').countDocuments({ _id: product })).toBe(1);
    });
  });

  it('a plain reference locks against deletes too: a label for a product deleted meanwhile is NOT_FOUND', async () => {
    const created = await race(
      async (session) => {
        await asChanging(session);
        await db.collection('products').deleteOne({ _id: product }, { session });
      },
      () => s.gateway.execute({ query: `mutation { createLabel(input: { product: "${product.toHexString()}", text: "new" }) { id } }` }),
    );
    expect(created.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(await db.collection('labels').countDocuments({ productId: product })).toBe(0);
  });

  it('a delete through one type locks against a reference to another type over the same collection: a tag a sticker made meanwhile points at is not deleted', async () => {
    const tag = new ObjectId();
    await db.collection('tags').insertOne({ _id: tag, name: 'fragile' });
    const deleted = await race(
      async (session) => {
        await bumpLocks(session, [5], 'tags', tag);
        await db.collection('stickers').insertOne({ tagId: tag }, { session });
      },
      () => s.gateway.execute({ query: `mutation { deleteTag(id: "${tag.toHexString()}") }` }),
    );
    expect(deleted.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(await db.collection('tags').countDocuments({ _id: tag })).toBe(1);
  });

  it('a copy of a counter made while a review is open copies the new count, after a conflict on the lock', async () => {
    const created = await race(
      async (session) => {
        await asChanging(session);
        await db.collection('reviews').insertOne({ _id: new ObjectId(), text: 'good', productId: product }, { session });
        await db.collection('products').updateOne({ _id: product }, { $inc: { reviewCount: 1 } }, { session });
      },
      () => s.gateway.execute({ query: `mutation { createShelf(input: { product: "${product.toHexString()}" }) { id } }` }),
    );
    expect(created.errors).toBeUndefined();
    expect(created.cost?.writes?.attempts).toBeGreaterThanOrEqual(2);
    expect((await db.collection('shelves').findOne({ _id: createdId(created) }))!.product).toEqual({ id: product, reviewCount: 1 });
  });

  it('a review made while a copy of the old count is open counts in that copy too, after a conflict on the lock', async () => {
    const shelf = new ObjectId();
    const reviewed = await race(
      async (session) => {
        await asPointing(session);
        await db.collection('shelves').insertOne({ _id: shelf, product: { id: product, reviewCount: 0 } }, { session });
      },
      () => s.gateway.execute({ query: `mutation { createReview(input: { product: "${product.toHexString()}", text: "fine" }) { id } }` }),
    );
    expect(reviewed.errors).toBeUndefined();
    expect(reviewed.cost?.writes?.attempts).toBeGreaterThanOrEqual(2);
    expect((await db.collection('shelves').findOne({ _id: shelf }))!.product).toEqual({ id: product, reviewCount: 1 });
    expect((await db.collection('products').findOne({ _id: product }))!.reviewCount).toBe(1);
  });

  it("a delete refilling the newest reviews copies the text an update open meanwhile gives the next one, after a conflict on the lock", async () => {
    const review = (text: string) => s.gateway.execute({ query: `mutation { createReview(input: { product: "${product.toHexString()}", text: "${text}" }) { id } }` });
    const [oldest, middle, newest] = [createdId(await review('first')), createdId(await review('second')), createdId(await review('third'))];
    const deleted = await race(
      async (session) => {
        await db.collection<{ _id: string }>('docjoin_locks').bulkWrite(
          SLOTS.map((slot) => ({ updateOne: { filter: { _id: `reviews/o:${oldest.toHexString()}/${slot}` }, update: { $inc: { bumps: 1 } }, upsert: true } })),
          { session },
        );
        await db.collection('reviews').updateOne({ _id: oldest }, { $set: { text: 'first, edited' } }, { session });
      },
      () => s.gateway.execute({ query: `mutation { deleteReview(id: "${newest.toHexString()}") }` }),
    );
    expect(deleted.errors).toBeUndefined();
    expect(deleted.cost?.writes?.attempts).toBeGreaterThanOrEqual(2);
    const { recentReviews } = (await db.collection('products').findOne({ _id: product }))!;
    expect(recentReviews.map((copy: { _id: ObjectId; text: string }) => [copy._id, copy.text])).toEqual([
      [middle, 'second'],
      [oldest, 'first, edited'],
    ]);
  });

  it("a delete refilling the newest reviews copies the critic's name a rename open meanwhile gives the next one's snapshot, after a conflict on the lock", async () => {
    const critic = new ObjectId();
    await db.collection('critics').insertOne({ _id: critic, name: 'Ann' });
    const review = (text: string, by = '') => s.gateway.execute({ query: `mutation { createReview(input: { product: "${product.toHexString()}", text: "${text}"${by} }) { id } }` });
    const [oldest, middle, newest] = [createdId(await review('first', `, critic: "${critic.toHexString()}"`)), createdId(await review('second')), createdId(await review('third'))];
    const deleted = await race(
      async (session) => {
        // The rename's writes, as the gateway's updateCritic makes them: every slot of the critic's locks, then its copies.
        await db.collection<{ _id: string }>('docjoin_locks').bulkWrite(
          SLOTS.map((slot) => ({ updateOne: { filter: { _id: `critics/o:${critic.toHexString()}/${slot}` }, update: { $inc: { bumps: 1 } }, upsert: true } })),
          { session },
        );
        await db.collection('critics').updateOne({ _id: critic }, { $set: { name: 'Ann B.' } }, { session });
        await db.collection('reviews').updateMany({ 'critic.id': critic }, { $set: { 'critic.name': 'Ann B.' } }, { session });
      },
      () => s.gateway.execute({ query: `mutation { deleteReview(id: "${newest.toHexString()}") }` }),
    );
    expect(deleted.errors).toBeUndefined();
    expect(deleted.cost?.writes?.attempts).toBeGreaterThanOrEqual(2);
    const { recentReviews } = (await db.collection('products').findOne({ _id: product }))!;
    expect(recentReviews.map((copy: { _id: ObjectId; critic?: unknown }) => [copy._id, copy.critic ?? null])).toEqual([
      [middle, null],
      [oldest, { id: critic, name: 'Ann B.' }],
    ]);
  });

  it('generated renames and deletes sent together leave every refilled copy with the new name (5 rounds)', async () => {
    const copiedNames: Array<string | null> = [];
    for (let round = 0; round < 5; round += 1) {
      product = new ObjectId();
      await db.collection('products').insertOne({ _id: product, name: 'Lamp', price: 10, stock: 5, reviewCount: 0, recentReviews: [] });
      const critic = new ObjectId();
      await db.collection('critics').insertOne({ _id: critic, name: 'Ann' });
      const review = (by: string) => s.gateway.execute({ query: `mutation { createReview(input: { product: "${product.toHexString()}", text: "t"${by} }) { id } }` });
      await review(`, critic: "${critic.toHexString()}"`);
      await review('');
      const newest = createdId(await review(''));
      const results = await Promise.all([
        s.gateway.execute({ query: `mutation { updateCritic(id: "${critic.toHexString()}", input: { name: "Ann ${round}" }) { id } }` }),
        s.gateway.execute({ query: `mutation { deleteReview(id: "${newest.toHexString()}") }` }),
      ]);
      expect(results.flatMap((result) => result.errors ?? [])).toEqual([]);
      const { recentReviews } = (await db.collection('products').findOne({ _id: product }))!;
      copiedNames.push(recentReviews[1]?.critic?.name ?? null);
    }
    expect(copiedNames).toEqual([0, 1, 2, 3, 4].map((round) => `Ann ${round}`));
  });

  it('refuses to copy a product a resolver read before its write unit: the lock cannot vouch for it', async () => {
    const result = await s.gateway.execute({ query: `mutation { orderFromOwnRead(product: "${product.toHexString()}") { id } }` });
    expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      [
        'INTERNAL_SERVER_ERROR',
        `orderFromOwnRead: the products document ${product.toHexString()} given to insert Order was read outside the write unit, and Order.product copies or points at it while other mutations change it; pass what requireOne or requireMany returned inside the unit`,
      ],
    ]);
    expect(await db.collection('orders').countDocuments({ 'product.id': product })).toBe(0);
  });

  it('orders and price changes run side by side leave every copy equal to its product', async () => {
    const results = await Promise.all([...Array.from({ length: 4 }, () => copiers[0]!.create()), ...[11, 12].map((price) => setPrice(price))]);
    expect(results.flatMap((result) => result.errors ?? [])).toEqual([]);
    const { price } = (await db.collection('products').findOne({ _id: product }))!;
    const copies = await db.collection('orders').find({ 'product.id': product }).toArray();
    expect(copies.map((order) => order.product.price)).toEqual(Array.from({ length: 4 }, () => price));
  });

  it('bumps the locks in ONE command more only where a race is possible, and reports it as a round trip, not as a document changed', async () => {
    const created = await copiers[0]!.create();
    expect(created.cost?.writes).toEqual({ roundTrips: 4, documentsModified: 1, fanOut: { orders: 1 }, atomic: true, attempts: 1 });
    expect(created.cost?.collections.docjoin_locks).toEqual({ roundTrips: 1, documents: 0 });
    // A field no snapshot copies: nothing to lock.
    const restocked = await s.gateway.execute({ query: `mutation { updateProduct(id: "${product.toHexString()}", input: { stock: 4 }) { stock } }` });
    expect(restocked.cost?.writes).toEqual({ roundTrips: 2, documentsModified: 1, fanOut: { products: 1 }, atomic: true, attempts: 1 });
    expect(restocked.cost?.collections.docjoin_locks).toBeUndefined();
    const repriced = await setPrice(20);
    expect(repriced.cost?.writes).toEqual({ roundTrips: 5, documentsModified: 2, fanOut: { products: 1, orders: 1, carts: 0 }, atomic: true, attempts: 1 });
    // The order bumped one slot of the product's locks, the price change all eight.
    const locks = await db.collection<{ _id: string; bumps: number }>('docjoin_locks').find({ _id: { $regex: `^products/o:${product.toHexString()}/` } }).toArray();
    expect(locks.map((lock) => lock._id).sort()).toEqual(SLOTS.map((slot) => lockOf(product, slot)));
    expect(locks.reduce((sum, lock) => sum + lock.bumps, 0)).toBe(9);
  });
});

it('refuses a delete through one type while a document points at it through another type over the same collection, as one through its own', async () => {
  const tag = new ObjectId();
  await db.collection('tags').insertOne({ _id: tag, name: 'fragile' });
  const sticker = await s.gateway.execute({ query: `mutation { createSticker(input: { tag: "${tag.toHexString()}" }) { id } }` });
  expect(sticker.errors).toBeUndefined();
  const deleted = await s.gateway.execute({ query: `mutation { deleteTag(id: "${tag.toHexString()}") }` });
  expect(deleted.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    ['BAD_USER_INPUT', `Tag ${tag.toHexString()} is still referenced by stickers ${createdId(sticker).toHexString()} at tagId; delete or re-point those first`],
  ]);
  expect(await db.collection('tags').countDocuments({ _id: tag })).toBe(1);
});
