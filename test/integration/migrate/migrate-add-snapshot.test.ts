import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Double, ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { MIGRATIONS_COLLECTION } from '../../../src/migrate/migration-marker';
import { redactUri } from '../../../src/observability/redact-secrets';
import { reconcile } from '../../../src/reconcile/reconcile';
import { migrate, migrateProjects, type MigrateProject } from './migrate-project';

/**
 * `docjoin migrate --add-snapshot` on a plain join: 5 books referencing 2 publishers by `publisherId`
 * (one book none), and the reverse join `Publisher.books` reading that reference. The key moves into
 * the copy (`publisher.id`), the reverse join with it (and its index); the SDL is written only once
 * every book holds its copy; a book the old schema writes afterwards gets its copy on the next run.
 */
const SDL = /* GraphQL */ `type Query {
  books(first: Int = 100): [Book!]! @list
  publishers(first: Int = 100): [Publisher!]! @list
}

type Book @collection(name: "books") {
  id: ID!
  title: String!
  publisher: Publisher
    @join(localField: "publisherId")
}

type Publisher @collection(name: "publishers") {
  id: ID!
  name: String!
  books: [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "_id")
}
`;
const MOVED = SDL.replace('    @join(localField: "publisherId")\n', '    @snapshot(path: "publisher", fields: ["id", "name"])\n    @join(localField: "publisher.id")\n    @read(strategy: SNAPSHOT)\n').replace(
  'foreignField: "publisherId"',
  'foreignField: "publisher.id"',
);

const publisherIds = [1, 2].map((n) => new ObjectId(`6955b90000000000000000d${n}`));
const bookIds = [1, 2, 3, 4, 5].map((n) => new ObjectId(`6955b90000000000000000e${n}`));
const publisherOf = (book: number) => (book === 4 ? undefined : publisherIds[book % 2]!);

const projects = migrateProjects();

async function setUp(): Promise<MigrateProject> {
  return projects.create(SDL, async (db) => {
    await db.collection('publishers').insertMany(publisherIds.map((_id, n) => ({ _id, name: `Press ${n}` })));
    await db.collection('books').insertMany(bookIds.map((_id, n) => ({ _id, title: `Book ${n}`, ...(publisherOf(n) && { publisherId: publisherOf(n) }) })));
    await db.collection('books').createIndex({ publisherId: 1, _id: 1 });
  });
}


const BOOKS = '{ books { title publisher { name } } }';
const booksRead = (count: number) => ({ books: bookIds.slice(0, count).map((_, n) => ({ title: `Book ${n}`, publisher: n === 4 ? null : { name: `Press ${n % 2}` } })) });
const PUBLISHERS = '{ publishers { name books { title } } }';

describe('docjoin migrate --add-snapshot', () => {
  it('moves the key into the copies, indexes it for the reverse join, then writes the SDL; reads stay the same, from the copy', async () => {
    const { db, schemaFile, args } = await setUp();
    const before = { books: await projects.read(db, SDL, BOOKS), publishers: await projects.read(db, SDL, PUBLISHERS) };
    expect(before.books.data).toEqual(booksRead(5));
    expect(before.books.cost).toMatchObject({ roundTrips: 2 });

    const run = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', '--batch-size', '2', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toBe(`schema/schema.graphql:10
-    @join(localField: "publisherId")
+    @snapshot(path: "publisher", fields: ["id", "name"])
+    @join(localField: "publisher.id")
+    @read(strategy: SNAPSHOT)
schema/schema.graphql:18
-  books: [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "_id")
+  books: [Book!]! @join(localField: "_id", foreignField: "publisher.id", sort: "_id")
(written once every parent holds its copy)
created index {"publisher.id":1,"_id":1} on books
backfilling Book.publisher (name) in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 2…
snapshot Book.publisher 5 / 5
backfilled Book.publisher: 5 scanned, 4 rewritten
reconcile Book.publisher: 5 scanned, 0 drifted
wrote schema/schema.graphql: deploy it, then run this command again to give a copy to parents the old schema wrote meanwhile
`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(MOVED);
    // The old reference stays for a gateway on the old schema.
    expect(await db.collection('books').findOne({ _id: bookIds[1] })).toEqual({ _id: bookIds[1], title: 'Book 1', publisherId: publisherIds[1], publisher: { id: publisherIds[1], name: 'Press 1' } });
    expect(await db.collection('books').findOne({ _id: bookIds[4] })).toEqual({ _id: bookIds[4], title: 'Book 4' });
    expect(await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.publisher' as never })).toMatchObject({ kind: 'snapshot-backfill', fields: ['name'], from: 'publisherId', finishedAt: expect.any(Date) });

    const after = { books: await projects.read(db, MOVED, BOOKS), publishers: await projects.read(db, MOVED, PUBLISHERS) };
    expect(after.books.data).toEqual(before.books.data);
    expect(after.books.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(after.publishers.data).toEqual(before.publishers.data);
    expect((await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(MOVED)))).drifted).toBe(0);
  });

  it('reminds a project with a seed that the seed must write the copies too, once, when it writes the SDL', async () => {
    const { folder, args } = await setUp();
    writeFileSync(join(folder, 'docjoin.config.cjs'), "module.exports = { schema: 'schema', seed: async () => {} };\n");
    const withSeed = args.map((arg) => (arg.endsWith('docjoin.config.json') ? join(folder, 'docjoin.config.cjs') : arg));
    const note = "seed: the config's seed fills the embedded server (docjoin serve with no MongoDB URI): make sure it writes Book.publisher's copies (id, name), or that server starts on documents without it\n";
    const run = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...withSeed]);
    expect([run.code, run.err]).toEqual([0, '']);
    expect(run.out.endsWith(`wrote schema/schema.graphql: deploy it, then run this command again to give a copy to parents the old schema wrote meanwhile\n${note}`)).toBe(true);
    const rerun = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...withSeed]);
    expect([rerun.code, rerun.out.includes('no SDL change'), rerun.out.includes('seed:')]).toEqual([0, true, false]);
  });

  it('gives a copy to a book the old schema wrote after the SDL change, on the run after the deploy', async () => {
    const { db, args } = await setUp();
    expect((await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...args])).code).toBe(0);
    const late = { _id: new ObjectId(), title: 'Late', publisherId: publisherIds[0] };
    await db.collection('books').insertOne(late);
    // A book whose publisher the new schema changed: its copy, not its old reference, is the truth now.
    await db.collection('books').updateOne({ _id: bookIds[0] }, { $set: { publisher: { id: publisherIds[1], name: 'Press 1' } } });

    const rerun = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...args]);
    expect(rerun.err).toBe('');
    expect(rerun.out).toContain('schema/schema.graphql: Book.publisher already declares @snapshot(path: "publisher"); no SDL change\n');
    expect(rerun.out).toContain('backfilled Book.publisher: 6 scanned, 1 rewritten\nreconcile Book.publisher: 6 scanned, 0 drifted\n');
    expect(rerun.code).toBe(0);
    expect((await db.collection('books').findOne({ _id: late._id }))!.publisher).toEqual({ id: publisherIds[0], name: 'Press 0' });
    expect((await db.collection('books').findOne({ _id: bookIds[0] }))!.publisher).toEqual({ id: publisherIds[1], name: 'Press 1' });
  });

  it("takes the change from advise's add-snapshot advice; without --write it is a dry run that says what it would index and rewrite", async () => {
    const { db, folder, schemaFile, args } = await setUp();
    const adviceFile = join(folder, 'advice.json');
    writeFileSync(adviceFile, JSON.stringify({ advice: { fields: [{ coordinate: 'Book.publisher', kind: 'add-snapshot', change: 'copy [id, name]', snapshotFields: ['id', 'name'] }] } }));
    const run = await migrate(['--advice', adviceFile, '--field', 'Book.publisher', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toContain('+    @snapshot(path: "publisher", fields: ["id", "name"])\n');
    expect(run.out).toContain(`(not written: pass --write to apply it once every parent holds its copy)
dry run: nothing is written (--write applies the change)
would create index {"publisher.id":1,"_id":1} on books
reading what backfilling Book.publisher (name) would change in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 500…
snapshot Book.publisher 5 / 5
would backfill Book.publisher: 5 scanned, 4 to rewrite (1 batch)
`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    expect(await db.collection('books').countDocuments({ publisher: { $exists: true } })).toBe(0);
    expect((await db.collection('books').listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'publisherId_1__id_1']);
    expect(await db.collection(MIGRATIONS_COLLECTION).countDocuments()).toBe(0);

    const applied = await migrate(['--advice', adviceFile, '--field', 'Book.publisher', '--write', ...args]);
    expect(applied.code).toBe(0);
    expect(await db.collection('books').countDocuments({ 'publisher.name': { $exists: true } })).toBe(4);
    expect(readFileSync(schemaFile, 'utf8')).toBe(MOVED);
  });

  it('refuses, exit 2, before writing the SDL or a book, a snapshot kept in a MongoDB view (the backfill would write the view)', async () => {
    const { db, schemaFile, args } = await projects.create(SDL.replace('@collection(name: "books")', '@collection(name: "shelvedBooks")'), async (fresh) => {
      await fresh.collection('publishers').insertMany(publisherIds.map((_id, n) => ({ _id, name: `Press ${n}` })));
      await fresh.collection('books').insertMany(bookIds.map((_id, n) => ({ _id, title: `Book ${n}`, publisherId: publisherIds[n % 2]! })));
      await fresh.collection('books').createIndex({ publisherId: 1, _id: 1 });
      await fresh.createCollection('shelvedBooks', { viewOn: 'books', pipeline: [] });
    });
    const sdlBefore = readFileSync(schemaFile, 'utf8');
    const refused = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...args]);
    expect([refused.code, refused.err]).toEqual([2, 'migrate: Book.publisher: its snapshot would be kept in shelvedBooks, a MongoDB view on books, which MongoDB cannot write; keep it in a type stored in a collection, or leave it out; nothing was written\n']);
    expect(readFileSync(schemaFile, 'utf8')).toBe(sdlBefore);
    expect(await db.collection('books').countDocuments({ publisher: { $exists: true } })).toBe(0);
  });
});

describe('docjoin migrate --add-snapshot over keys that name no document', () => {
  it('counts the dangling keys, and refuses when every one dangles: exit 1, the SDL unwritten, the marker unfinished', async () => {
    const { db, schemaFile, args } = await setUp();
    const stray = new ObjectId();
    await db.collection('books').updateOne({ _id: bookIds[0] }, { $set: { publisherId: stray } });
    const some = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', ...args]);
    expect([some.code, some.err, some.out.split('\n').at(-2)]).toEqual([0, '', 'would backfill Book.publisher: 5 scanned, 4 to rewrite, 1 dangling (1 batch)']);

    await db.collection('books').updateMany({ publisherId: { $exists: true } }, { $set: { publisherId: stray } });
    const dry = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', ...args]);
    const refusal = 'migrate: every one of the 4 Book.publisher copies points at no publishers document: are the keys kept inside the copies, and is this the database the schema describes?';
    expect([dry.code, dry.err, dry.out.split('\n').at(-2)]).toEqual([1, `${refusal} With --write it would stop there, before writing the SDL.\n`, 'would backfill Book.publisher: 5 scanned, 4 to rewrite, 4 dangling (1 batch)']);

    const run = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...args]);
    expect([run.code, run.err]).toEqual([1, `${refusal} Stopped before writing the SDL: the copies hold only their keys, and the next run scans every document again.\n`]);
    expect(run.out).toContain('backfilled Book.publisher: 5 scanned, 4 rewritten, 4 dangling\n');
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    expect(await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.publisher' as never })).toMatchObject({ resumeAfter: null });
    expect((await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.publisher' as never }))!.finishedAt).toBeUndefined();

    // With the keys repaired, the next run scans every book again and finishes.
    await db.collection('books').updateMany({ publisherId: stray }, { $set: { publisherId: publisherIds[0] } });
    const rerun = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', ...args]);
    expect([rerun.code, rerun.err]).toEqual([0, '']);
    expect(rerun.out).toContain('backfilled Book.publisher: 5 scanned, 4 rewritten\nreconcile Book.publisher: 5 scanned, 0 drifted\n');
    expect(readFileSync(schemaFile, 'utf8')).toBe(MOVED);
  });

  it('judges whether every key dangles over every book when the run resumes, not over the part it scans', async () => {
    const { db, schemaFile, args } = await setUp();
    // As a run killed after its first batch of 2 left it: those books hold their copies, the marker says where to go on.
    for (const n of [0, 1]) await db.collection('books').updateOne({ _id: bookIds[n] }, { $set: { publisher: { id: publisherOf(n), name: `Press ${n % 2}` } } });
    await db.collection(MIGRATIONS_COLLECTION).insertOne({ _id: 'Book.publisher' as never, kind: 'snapshot-backfill', fields: ['name'], from: 'publisherId', startedAt: new Date(), resumeAfter: bookIds[1] });
    // The books after it name a publisher that is gone: every key of the resumed part dangles, half of all of them.
    await db.collection('books').updateMany({ _id: { $in: [bookIds[2], bookIds[3]] } }, { $set: { publisherId: new ObjectId() } });
    const run = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--write', '--batch-size', '2', ...args]);
    expect([run.code, run.err]).toEqual([0, '']);
    expect(run.out).toContain(`resumed after _id ${bookIds[1]!.toHexString()}\nbackfilled Book.publisher: 3 scanned, 2 rewritten, 2 dangling\n`);
    expect(readFileSync(schemaFile, 'utf8')).toBe(MOVED);
  });
});

/**
 * The same on a join inside an embedded array: 3 orders whose `lines` reference products by
 * `productId` (one order has no lines), and a reverse join from products reading `lines.productId`.
 */
const ORDERS_SDL = /* GraphQL */ `type Query {
  orders(first: Int = 100): [Order!]! @list
  products(first: Int = 100): [Product!]! @list
}

type Order @collection(name: "orders") {
  id: ID!
  lines: [OrderLine!]! @embedded
}

type OrderLine {
  quantity: Int!
  product: Product @join(localField: "productId")
}

type Product @collection(name: "products") {
  id: ID!
  name: String!
  price: Float!
  orders: [Order!]! @join(localField: "_id", foreignField: "lines.productId", sort: "_id")
}
`;
const ORDERS_MOVED = ORDERS_SDL.replace(
  'product: Product @join(localField: "productId")',
  'product: Product @snapshot(path: "product", fields: ["id", "name", "price"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)',
).replace('foreignField: "lines.productId"', 'foreignField: "lines.product.id"');
const productIds = [1, 2].map((n) => new ObjectId(`6955b90000000000000000f${n}`));
const orderIds = [1, 2, 3].map((n) => new ObjectId(`6955b90000000000000000c${n}`));
const ORDERS = '{ orders { lines { quantity product { name price } } } }';
const PRODUCTS = '{ products { name orders { id } } }';

describe('docjoin migrate --add-snapshot inside an embedded array', () => {
  it('puts a copy in every element, moves the reverse join and its index along, and reads stay the same', async () => {
    const { db, schemaFile, args } = await projects.create(ORDERS_SDL, async (database) => {
      await database.collection('products').insertMany(productIds.map((_id, n) => ({ _id, name: `Product ${n}`, price: n + 0.5 })));
      await database.collection('orders').insertMany([
        // A whole-number double beside the key: only the copies are written, so it stays a double.
        { _id: orderIds[0], lines: [{ quantity: 1, productId: productIds[0], discount: new Double(2) }, { quantity: 2, productId: productIds[1] }] },
        { _id: orderIds[1], lines: [] },
        { _id: orderIds[2], lines: [{ quantity: 3, productId: productIds[1] }] },
      ]);
      await database.collection('orders').createIndex({ 'lines.productId': 1, _id: 1 });
    });
    const before = { orders: await projects.read(db, ORDERS_SDL, ORDERS), products: await projects.read(db, ORDERS_SDL, PRODUCTS) };
    expect(before.orders.cost).toMatchObject({ roundTrips: 2 });

    const run = await migrate(['--add-snapshot', 'OrderLine.product', '--fields', 'name,price', '--write', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toContain(`created index {"lines.product.id":1,"_id":1} on orders
backfilling OrderLine.product (name, price) in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 500…
snapshot Order.lines.product 3 / 3
backfilled Order.lines.product: 3 scanned, 2 rewritten
reconcile Order.lines.product: 3 scanned, 0 drifted
wrote schema/schema.graphql`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(ORDERS_MOVED);
    const raw = await db.collection('orders').findOne({ _id: orderIds[0] }, { promoteValues: false });
    expect((raw!.lines as Array<{ discount?: unknown }>)[0]!.discount).toBeInstanceOf(Double);
    expect((await db.collection('orders').findOne({ _id: orderIds[0] }))!.lines).toEqual([
      { quantity: 1, productId: productIds[0], discount: 2, product: { id: productIds[0], name: 'Product 0', price: 0.5 } },
      { quantity: 2, productId: productIds[1], product: { id: productIds[1], name: 'Product 1', price: 1.5 } },
    ]);
    expect((await db.collection('orders').findOne({ _id: orderIds[1] }))!.lines).toEqual([]);

    const after = { orders: await projects.read(db, ORDERS_MOVED, ORDERS), products: await projects.read(db, ORDERS_MOVED, PRODUCTS) };
    expect(after.orders.data).toEqual(before.orders.data);
    expect(after.orders.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(after.products.data).toEqual(before.products.data);
    expect((await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(ORDERS_MOVED)))).drifted).toBe(0);
  });
});
