import { ObjectId } from 'mongodb';
import { migrate, migrateProjects } from './migrate-project';

/**
 * `migrate --add-snapshot Book.publisher` puts its copies at "publisher". Books that already keep
 * something there (a legacy sub-document the schema never declared) would lose it to the backfill: the
 * first pass refuses instead, in the dry run as with --write, naming the path, how many documents hold
 * data there and one of them.
 */
const SDL = /* GraphQL */ `type Query { books(first: Int = 100): [Book!]! @list }
type Book @collection(name: "books") {
  id: ID!
  title: String!
  publisher: Publisher @join(localField: "publisherId")
}
type Publisher @collection(name: "publishers") { id: ID! name: String! }
`;
const press = new ObjectId();
const legacy = new ObjectId('6955b90000000000000000e1');
const projects = migrateProjects();

it('refuses to backfill copies over data the documents already keep at their path, and writes nothing', async () => {
  const { db, args } = await projects.create(SDL, async (seedDb) => {
    await seedDb.collection('publishers').insertOne({ _id: press, name: 'Press' });
    await seedDb.collection('books').insertMany([
      { _id: legacy, title: 'A', publisherId: press, publisher: { contract: 'C-17' } },
      { title: 'B', publisherId: press, publisher: 'Press Ltd' },
      { title: 'C', publisherId: press },
    ]);
  });
  const message = `migrate: 2 books documents already keep a value at "publisher", where Book.publisher's copies would go (_id ${legacy.toHexString()}: {"contract":"C-17"}); the backfill would overwrite it, so move that data, or give the snapshot another path (--path)\n`;
  for (const write of [[], ['--write']]) {
    const run = await migrate(['--add-snapshot', 'Book.publisher', '--fields', 'name', ...write, ...args]);
    expect(run.err).toBe(message);
    expect(run.code).toBe(2);
  }
  const books = await db.collection('books').find({}, { sort: { title: 1 } }).toArray();
  expect(books.map((book) => book.publisher)).toEqual([{ contract: 'C-17' }, 'Press Ltd', undefined]);
});

const LINES_SDL = /* GraphQL */ `type Query { orders(first: Int = 100): [Order!]! @list }
type Order @collection(name: "orders") {
  id: ID!
  lines: [OrderLine!]! @embedded
}
type OrderLine {
  quantity: Int!
  product: Product @join(localField: "productId")
}
type Product @collection(name: "products") { id: ID! name: String! }
`;

it('looks into each element of an array on the way: one line of an order keeping data there is enough to refuse', async () => {
  const product = new ObjectId();
  const order = new ObjectId('6955b90000000000000000e2');
  const { db, args } = await projects.create(LINES_SDL, async (seedDb) => {
    await seedDb.collection('products').insertOne({ _id: product, name: 'P' });
    await seedDb.collection('orders').insertMany([
      { _id: order, lines: [{ quantity: 1, productId: product, product: { contract: 'C-17' } }, { quantity: 2, productId: product }] },
      { lines: [{ quantity: 3, productId: product }] },
    ]);
  });
  const run = await migrate(['--add-snapshot', 'OrderLine.product', '--fields', 'name', '--write', ...args]);
  expect(run.err).toMatch(/^migrate: 1 orders document already keeps a value at "lines\.product", where Order\.lines\.product's copies would go \(_id 6955b90000000000000000e2: \[\{"quantity":1,.*\); the backfill would overwrite it, so move that data, or give the snapshot another path \(--path\)\n$/);
  expect(run.code).toBe(2);
  expect((await db.collection('orders').findOne({ _id: order }))?.lines[0].product).toEqual({ contract: 'C-17' });
});
