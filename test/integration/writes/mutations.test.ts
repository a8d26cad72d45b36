import type { Db, ObjectId } from 'mongodb';
import { demoTypeDefs } from '../../support/demo-project';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { DemoGateway } from '../gateway/support/demo-gateway';
import { expectedWrites } from './support/expected-writes';
import { readUnderEveryStrategy } from './support/write-gateways';
import { startWriteDemo } from './support/write-demo';

/**
 * Every mutation against the test MongoDB (the embedded server runs transactions; a standalone
 * MONGODB_URI does not, and then each unit is `atomic: false` with no commit): the state it leaves
 * (read back with the driver), its exact `extensions.cost.writes`, and a read through every strategy
 * of the fields it touched showing the new value. Demo data at scale 0.1.
 */
let demo: DemoGateway;
let db: Db;
let transactions: boolean;
beforeAll(async () => {
  ({ demo, db, transactions } = await startWriteDemo());
}, 60_000);
afterAll(() => demo?.stop());

const hex = (id: ObjectId) => id.toHexString();

async function mutate(query: string) {
  const result = await demo.gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  return { data: result.data as Record<string, Record<string, unknown>>, cost: result.cost! };
}

describe('renameAuthor', () => {
  it('renames the author and every Book.authors entry in one updateMany per collection', async () => {
    const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 2 } }, { sort: { _id: 1 } }))!;
    const books = await db.collection('books').find({ 'authors.id': author._id }).toArray();
    expect(books.length).toBe(author.countOfBooks);

    const { data, cost } = await mutate(`mutation { renameAuthor(id: "${hex(author._id)}", firstName: "Ada", lastName: "Lovelace") { id firstName lastName name } }`);
    expect(data.renameAuthor).toEqual({ id: hex(author._id), firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' });
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 3, documentsModified: 1 + books.length, fanOut: { authors: 1, books: books.length } }));
    // The read back is the only other command.
    expect(cost.roundTrips).toBe(4);

    const stored = (await db.collection('authors').findOne({ _id: author._id }))!;
    expect([stored.firstName, stored.lastName, stored.name]).toEqual(['Ada', 'Lovelace', 'Ada Lovelace']);
    for (const book of await db.collection('books').find({ _id: { $in: books.map((b) => b._id) } }).toArray()) {
      const entry = book.authors.find((a: { id: ObjectId }) => a.id.equals(author._id));
      expect(entry).toEqual({ id: author._id, name: 'Ada Lovelace', thumbnailUrl: author.thumbnailUrl });
    }
    expect(await db.collection('books').countDocuments({ 'authors.id': author._id, 'authors.name': author.name })).toBe(0);

    const { data: read, headers } = await readUnderEveryStrategy(demo.gateway, `{ book(id: "${hex(books[0]!._id)}") { authors { id name } } }`, ['Book.authors']);
    expect(headers).toEqual(['Book.authors=join', 'Book.authors=snapshot', 'Book.authors=lookup']);
    expect((read.book as { authors: Array<{ id: string; name: string }> }).authors).toContainEqual({ id: hex(author._id), name: 'Ada Lovelace' });
  });
});

describe('renamePart', () => {
  it('renames the part and every Product.parts entry', async () => {
    const firstProduct = (await db.collection('products').findOne({}, { sort: { _id: 1 } }))!;
    const part = (await db.collection('parts').findOne({ _id: firstProduct.parts[0].id }))!;
    const products = await db.collection('products').find({ 'parts.id': part._id }).toArray();
    expect(products.length).toBeGreaterThan(0);

    const { data, cost } = await mutate(`mutation { renamePart(id: "${hex(part._id)}", name: "flux capacitor") { name partno } }`);
    expect(data.renamePart).toEqual({ name: 'flux capacitor', partno: part.partno });
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 3, documentsModified: 1 + products.length, fanOut: { parts: 1, products: products.length } }));
    expect(await db.collection('products').countDocuments({ parts: { $elemMatch: { id: part._id, name: 'flux capacitor' } } })).toBe(products.length);

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ product(catalogNumber: "${products[0]!.catalogNumber}") { parts { id name } } }`, ['Product.parts']);
    expect((read.product as { parts: unknown[] }).parts).toContainEqual({ id: hex(part._id), name: 'flux capacitor' });
  });
});

describe('updateHost', () => {
  it('updates the host with the host snapshots inside its recentLogs in one statement, then every LogMessage.host snapshot', async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: 1 } }))!;
    const messages = await db.collection('logMessages').countDocuments({ 'host.id': host._id });
    expect(messages).toBe(1000 * 0.1 * 10); // 100 per host at scale 0.1

    const { data, cost } = await mutate(`mutation { updateHost(id: "${hex(host._id)}", name: "renamed.example.com", ipaddr: "10.99.0.1") { name ipaddr } }`);
    expect(data.updateHost).toEqual({ name: 'renamed.example.com', ipaddr: '10.99.0.1' });
    // ONE update of the host (its fields and the host copies inside its recentLogs), logMessages (the fan-out), commit.
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 3, documentsModified: 1 + messages, fanOut: { hosts: 1, logMessages: messages } }));

    expect(await db.collection('logMessages').countDocuments({ 'host.id': host._id, 'host.name': 'renamed.example.com', 'host.ipaddr': '10.99.0.1' })).toBe(messages);
    const stored = (await db.collection('hosts').findOne({ _id: host._id }))!;
    expect(stored.recentLogs.map((log: { host: unknown }) => log.host)).toEqual(Array(10).fill({ id: host._id, name: 'renamed.example.com', ipaddr: '10.99.0.1' }));

    const { data: read, headers } = await readUnderEveryStrategy(
      demo.gateway,
      `{ host(ipaddr: "10.99.0.1") { name recentLogs { host { name ipaddr } } logs(first: 2) { host { name } } } }`,
      ['Host.recentLogs', 'LogMessage.host'],
    );
    // embedded, join or lookup × join, snapshot or lookup
    expect(headers.length).toBe(9);
    const readHost = read.host as { recentLogs: unknown[]; logs: unknown[] };
    expect(readHost.recentLogs).toEqual(Array(10).fill({ host: { name: 'renamed.example.com', ipaddr: '10.99.0.1' } }));
    expect(readHost.logs).toEqual(Array(2).fill({ host: { name: 'renamed.example.com' } }));
  });

  it('refuses an address another host uses, with nothing written', async () => {
    const [first, second] = await db.collection('hosts').find({}, { sort: { _id: 1 }, limit: 2 }).toArray();
    const result = await demo.gateway.execute({ query: `mutation { updateHost(id: "${hex(second!._id)}", name: "x.example.com", ipaddr: "${first!.ipaddr}") { name } }` });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toBe(`ipaddr ${first!.ipaddr} is already used by another host`);
    expect((await db.collection('hosts').findOne({ _id: second!._id }))!.name).toBe(second!.name);
  });
});

describe('updateStockPrice', () => {
  it('touches one document: holdings reference the stock', async () => {
    const stock = (await db.collection('stocks').findOne({}, { sort: { _id: 1 } }))!;
    const { data, cost } = await mutate(`mutation { updateStockPrice(symbol: "${stock.symbol}", open: 10.5, high: 12, low: 9.25) { symbol open high low vol } }`);
    expect(data.updateStockPrice).toEqual({ symbol: stock.symbol, open: 10.5, high: 12, low: 9.25, vol: stock.vol });
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 1, fanOut: { stocks: 1 } }));

    const holder = (await db.collection('people').findOne({ 'holdings.stockId': stock._id }))!;
    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ person(id: "${hex(holder._id)}") { holdings { stock { symbol open high low } } } }`, ['Holding.stock']);
    expect((read.person as { holdings: Array<{ stock: unknown }> }).holdings.map((h) => h.stock)).toContainEqual({ symbol: stock.symbol, open: 10.5, high: 12, low: 9.25 });
  });
});

describe('addComment', () => {
  it('inserts the comment, pushes it onto recentComments (kept at 3) and counts it', async () => {
    const post = (await db.collection('posts').findOne({ commentCount: { $gte: 3 } }, { sort: { _id: 1 } }))!;
    const { data, cost } = await mutate(`mutation { addComment(postId: "${hex(post._id)}", author: "Grace", comment: "Nice read.") { id author comment post { id } } }`);
    const added = data.addComment as { id: string; author: string; comment: string; post: { id: string } };
    expect(added).toMatchObject({ author: 'Grace', comment: 'Nice read.', post: { id: hex(post._id) } });
    // insert comments, update posts ($push $each/$sort/$slice + $inc: its matched count proves the post exists), commit.
    // Without a transaction: find posts (the post must exist), insert, update.
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: transactions ? 3 : 4, documentsModified: 2, fanOut: { comments: 1, posts: 1 } }));

    const stored = (await db.collection('posts').findOne({ _id: post._id }))!;
    expect(stored.commentCount).toBe(post.commentCount + 1);
    expect(stored.recentComments.length).toBe(3);
    expect(hex(stored.recentComments[0]._id)).toBe(added.id);
    expect(stored.recentComments.slice(1)).toEqual(post.recentComments.slice(0, 2));
    expect(await db.collection('comments').countDocuments({ postId: post._id })).toBe(post.commentCount + 1);

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ post(id: "${hex(post._id)}") { commentCount recentComments { id comment } comments(first: 1) { id } } }`, ['Post.recentComments']);
    const readPost = read.post as { commentCount: number; recentComments: Array<{ id: string; comment: string }>; comments: Array<{ id: string }> };
    expect(readPost.commentCount).toBe(post.commentCount + 1);
    expect(readPost.recentComments.length).toBe(3);
    expect(readPost.recentComments[0]).toEqual({ id: added.id, comment: 'Nice read.' });
    expect(readPost.comments).toEqual([{ id: added.id }]);
  });

  it("answers each request of one document from its own write: the post its update returned, with no read after it", async () => {
    const posts = await db.collection('posts').find({}, { sort: { _id: -1 }, limit: 2 }).toArray();
    const query = 'mutation Add($postId: ID!) { addComment(postId: $postId, author: "Ada", comment: "Twice.") { comment post { id title } } }';
    for (const post of posts) {
      const result = await demo.gateway.execute({ query, variables: { postId: hex(post._id) } });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ addComment: { comment: 'Twice.', post: { id: hex(post._id), title: post.title } } });
      expect(result.cost!.roundTrips).toBe(result.cost!.writes!.roundTrips);
    }
  });
});

describe('logMessage', () => {
  it('inserts the message with its host snapshot and pushes it onto recentLogs, capped at 10', async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: -1 } }))!;
    const { data, cost } = await mutate(`mutation { logMessage(ipaddr: "${host.ipaddr}", message: "disk 91% full") { id message host { name ipaddr } } }`);
    const logged = data.logMessage as { id: string };
    expect(data.logMessage).toMatchObject({ message: 'disk 91% full', host: { name: host.name, ipaddr: host.ipaddr } });
    // find hosts (by address), insert logMessages, update hosts, commit.
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 4, documentsModified: 2, fanOut: { logMessages: 1, hosts: 1 } }));

    const message = (await db.collection('logMessages').findOne({ message: 'disk 91% full' }))!;
    expect(hex(message._id)).toBe(logged.id);
    expect(message.host).toEqual({ id: host._id, name: host.name, ipaddr: host.ipaddr });
    const stored = (await db.collection('hosts').findOne({ _id: host._id }))!;
    expect(stored.recentLogs.length).toBe(10);
    expect(stored.recentLogs[0]).toEqual(message);
    expect(stored.recentLogs.slice(1)).toEqual(host.recentLogs.slice(0, 9));

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ host(ipaddr: "${host.ipaddr}") { recentLogs { id message host { name } } } }`, ['Host.recentLogs', 'LogMessage.host']);
    const logs = (read.host as { recentLogs: unknown[] }).recentLogs;
    expect(logs.length).toBe(10);
    expect(logs[0]).toEqual({ id: logged.id, message: 'disk 91% full', host: { name: host.name } });
  });
});

describe('publishBook', () => {
  it('inserts the book with its authors snapshot; each author gains the book id and a count', async () => {
    const authors = await db.collection('authors').find({}, { sort: { _id: -1 }, limit: 2 }).toArray();
    const publisher = (await db.collection('publishers').findOne({}))!;
    const input = `{ name: "Designing Data", isbn: "978-0-00-000000-1", pages: 320, publishedAt: "2026-11-01T00:00:00.000Z", publisherId: "${hex(publisher._id)}", authorIds: ["${hex(authors[0]!._id)}", "${hex(authors[1]!._id)}"] }`;
    const { data, cost } = await mutate(`mutation { publishBook(input: ${input}) { id name publisher { name } authors { name } } }`);
    const book = data.publishBook as { id: string };
    expect(data.publishBook).toMatchObject({ name: 'Designing Data', publisher: { name: publisher.name }, authors: [{ name: authors[0]!.name }, { name: authors[1]!.name }] });
    // find publishers, find authors (the snapshot's source), insert books, update authors (one command, a statement per author), commit.
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 5, documentsModified: 3, fanOut: { books: 1, authors: 2 } }));

    const stored = (await db.collection('books').findOne({ isbn: '978-0-00-000000-1' }))!;
    expect(hex(stored._id)).toBe(book.id);
    expect(stored.publisherId).toEqual(publisher._id);
    expect(stored.authors).toEqual(authors.map((a) => ({ id: a._id, name: a.name, thumbnailUrl: a.thumbnailUrl })));
    for (const author of authors) {
      const after = (await db.collection('authors').findOne({ _id: author._id }))!;
      expect(after.countOfBooks).toBe(author.countOfBooks + 1);
      expect(after.bookIds).toEqual([...author.bookIds, stored._id]);
    }

    const { data: read } = await readUnderEveryStrategy(
      demo.gateway,
      `{ author(id: "${hex(authors[0]!._id)}") { countOfBooks books { id } } book(id: "${book.id}") { authors { id name } } }`,
      ['Book.authors'],
    );
    const readAuthor = read.author as { countOfBooks: number; books: Array<{ id: string }> };
    expect(readAuthor.countOfBooks).toBe(authors[0]!.countOfBooks + 1);
    expect(readAuthor.books[readAuthor.books.length - 1]).toEqual({ id: book.id });
    expect((read.book as { authors: unknown[] }).authors).toEqual(authors.map((a) => ({ id: hex(a._id), name: a.name })));
  });
});

describe('reassignTask', () => {
  it('updates both sides of the two-way reference', async () => {
    const task = (await db.collection('tasks').findOne({}, { sort: { _id: 1 } }))!;
    const newOwner = (await db.collection('people').findOne({ _id: { $ne: task.ownerId } }, { sort: { _id: -1 } }))!;
    const { data, cost } = await mutate(`mutation { reassignTask(taskId: "${hex(task._id)}", ownerId: "${hex(newOwner._id)}") { id owner { id } } }`);
    expect(data.reassignTask).toEqual({ id: hex(task._id), owner: { id: hex(newOwner._id) } });
    // find tasks (old owner), find people (new owner exists), update tasks, update people ($pull + $push in one command), commit.
    expect(cost.writes).toEqual(expectedWrites(transactions, { roundTrips: 5, documentsModified: 3, fanOut: { tasks: 1, people: 2 } }));

    expect((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId).toEqual(newOwner._id);
    expect((await db.collection('people').findOne({ _id: task.ownerId }))!.taskIds).not.toContainEqual(task._id);
    expect((await db.collection('people').findOne({ _id: newOwner._id }))!.taskIds).toContainEqual(task._id);

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ person(id: "${hex(newOwner._id)}") { tasks { id owner { id } } } }`, ['Person.tasks']);
    expect((read.person as { tasks: unknown[] }).tasks).toContainEqual({ id: hex(task._id), owner: { id: hex(newOwner._id) } });
  });
});

describe('bad input', () => {
  const missing = '0123456789abcdef01234567';

  /** Runs a mutation that must fail with `code`; returns its first error and its writes. */
  async function refused(query: string, code: string) {
    const result = await demo.gateway.execute({ query });
    expect(result.data).toBeNull();
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors!;
    expect(error!.extensions?.code).toBe(code);
    return { error: error!, writes: result.cost!.writes, roundTrips: result.cost!.roundTrips };
  }

  describe('an unknown id is NOT_FOUND with nothing written', () => {
    it('renameAuthor', async () => {
      const { error, writes } = await refused(`mutation { renameAuthor(id: "${missing}", firstName: "A", lastName: "B") { id } }`, 'NOT_FOUND');
      expect(error.message).toBe(`Author ${missing} not found`);
      // the update matched nothing, then abortTransaction
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: { authors: 0 } }));
    });

    it('renamePart', async () => {
      const { error, writes } = await refused(`mutation { renamePart(id: "${missing}", name: "gear") { id } }`, 'NOT_FOUND');
      expect(error.message).toBe(`Part ${missing} not found`);
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: { parts: 0 } }));
    });

    it('updateHost', async () => {
      const hosts = await db.collection('hosts').find({}, { sort: { _id: 1 } }).toArray();
      const { error, writes } = await refused(`mutation { updateHost(id: "${missing}", name: "ghost.example.com", ipaddr: "10.97.0.1") { id } }`, 'NOT_FOUND');
      expect(error.message).toBe(`Host ${missing} not found`);
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: { hosts: 0 } }));
      expect(await db.collection('hosts').find({}, { sort: { _id: 1 } }).toArray()).toEqual(hosts);
    });

    it('updateStockPrice', async () => {
      const { error, writes } = await refused(`mutation { updateStockPrice(symbol: "NOPE", open: 1, high: 2, low: 0.5) { symbol } }`, 'NOT_FOUND');
      expect(error.message).toBe('Stock with symbol "NOPE" not found');
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: { stocks: 0 } }));
      expect(await db.collection('stocks').countDocuments({ symbol: 'NOPE' })).toBe(0);
    });

    it('addComment', async () => {
      const comments = await db.collection('comments').countDocuments();
      const { error, writes } = await refused(`mutation { addComment(postId: "${missing}", author: "A", comment: "B") { id } }`, 'NOT_FOUND');
      expect(error.message).toBe(`Comment.post: ${missing} not found`);
      // In a transaction: insert comments, update posts (matched nothing: the post is missing), abortTransaction, which
      // takes the insert back. Without one: find posts, nothing written.
      const expected = transactions
        ? expectedWrites(true, { roundTrips: 3, documentsModified: 0, fanOut: { comments: 0, posts: 0 } })
        : expectedWrites(false, { roundTrips: 2, documentsModified: 0, fanOut: {} });
      expect(writes).toEqual(expected);
      expect(await db.collection('comments').countDocuments()).toBe(comments);
    });

    it('logMessage', async () => {
      const messages = await db.collection('logMessages').countDocuments();
      const { error, writes } = await refused(`mutation { logMessage(ipaddr: "10.255.255.254", message: "anyone there?") { id } }`, 'NOT_FOUND');
      expect(error.message).toBe('Host with ipaddr "10.255.255.254" not found');
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: {} }));
      expect(await db.collection('logMessages').countDocuments()).toBe(messages);
    });

    it('publishBook', async () => {
      const author = (await db.collection('authors').findOne({}, { sort: { _id: 1 } }))!;
      const books = await db.collection('books').countDocuments();
      const { error, writes } = await refused(
        `mutation { publishBook(input: { name: "X", isbn: "1", pages: 1, publishedAt: "2026-01-01T00:00:00Z", publisherId: "${missing}", authorIds: ["${hex(author._id)}"] }) { id } }`,
        'NOT_FOUND',
      );
      expect(error.message).toBe(`Book.publisher: ${missing} not found`);
      expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: {} }));
      expect(await db.collection('books').countDocuments()).toBe(books);
      expect((await db.collection('authors').findOne({ _id: author._id }))!).toEqual(author);
    });

    it("publishBook naming the publisher's id as an author: an id names a document in one collection, so no author has it", async () => {
      const publisher = (await db.collection('publishers').findOne({}, { sort: { _id: 1 } }))!;
      const books = await db.collection('books').countDocuments();
      const { error } = await refused(
        `mutation { publishBook(input: { name: "X", isbn: "2", pages: 1, publishedAt: "2026-01-01T00:00:00Z", publisherId: "${hex(publisher._id)}", authorIds: ["${hex(publisher._id)}"] }) { id } }`,
        'NOT_FOUND',
      );
      // Before, the publisher read for Book.publisher was taken as the author, and the book stored an author copy of nulls.
      expect(error.message).toBe(`Book.authors: ${hex(publisher._id)} not found`);
      expect(await db.collection('books').countDocuments()).toBe(books);
    });

    it('reassignTask to an unknown owner, and of an unknown task', async () => {
      const task = (await db.collection('tasks').findOne({}, { sort: { _id: -1 } }))!;
      const owner = (await db.collection('people').findOne({ _id: task.ownerId }))!;
      const other = (await db.collection('people').findOne({ _id: { $ne: task.ownerId } }, { sort: { _id: 1 } }))!;

      const toNobody = await refused(`mutation { reassignTask(taskId: "${hex(task._id)}", ownerId: "${missing}") { id } }`, 'NOT_FOUND');
      expect(toNobody.error.message).toBe(`Task.owner: ${missing} not found`);
      // find tasks (the task and its owner), find people (the new owner), then abortTransaction
      expect(toNobody.writes).toEqual(expectedWrites(transactions, { roundTrips: 3, documentsModified: 0, fanOut: {} }));

      const unknownTask = await refused(`mutation { reassignTask(taskId: "${missing}", ownerId: "${hex(other._id)}") { id } }`, 'NOT_FOUND');
      expect(unknownTask.error.message).toBe(`Task ${missing} not found`);
      expect(unknownTask.writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 0, fanOut: {} }));

      expect((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId).toEqual(task.ownerId);
      expect((await db.collection('people').findOne({ _id: owner._id }))!.taskIds).toEqual(owner.taskIds);
      expect((await db.collection('people').findOne({ _id: other._id }))!.taskIds).toEqual(other.taskIds);
    });
  });

  it('a duplicate ISBN is BAD_USER_INPUT naming input.isbn, and no book is added', async () => {
    const existing = (await db.collection('books').findOne({}, { sort: { _id: 1 } }))!;
    const author = (await db.collection('authors').findOne({}, { sort: { _id: 1 } }))!;
    const books = await db.collection('books').countDocuments();
    const { error, writes } = await refused(
      `mutation { publishBook(input: { name: "Copycat", isbn: "${existing.isbn}", pages: 10, publishedAt: "2026-01-01T00:00:00Z", publisherId: "${hex(existing.publisherId)}", authorIds: ["${hex(author._id)}"] }) { id } }`,
      'BAD_USER_INPUT',
    );
    expect([error.message, error.extensions?.argumentName]).toEqual([`isbn ${existing.isbn} is already used by another book`, 'input.isbn']);
    // find publishers, find authors, the refused insert, then abortTransaction
    expect(writes).toEqual(expectedWrites(transactions, { roundTrips: 4, documentsModified: 0, fanOut: { books: 0 } }));
    expect(await db.collection('books').countDocuments()).toBe(books);
    expect(await db.collection('books').countDocuments({ isbn: existing.isbn })).toBe(1);
    expect((await db.collection('authors').findOne({ _id: author._id }))!).toEqual(author);
  });

  it('blank and over-cap strings are BAD_USER_INPUT naming the argument, and send nothing', async () => {
    const author = (await db.collection('authors').findOne({}))!;
    const post = (await db.collection('posts').findOne({}))!;
    const host = (await db.collection('hosts').findOne({}))!;
    const publisher = (await db.collection('publishers').findOne({}))!;
    const book = (fields: string) =>
      `mutation { publishBook(input: { ${fields}, pages: 1, publishedAt: "2026-01-01T00:00:00Z", publisherId: "${hex(publisher._id)}", authorIds: ["${hex(author._id)}"] }) { id } }`;
    const cases: Array<[string, string, string]> = [
      [`mutation { renameAuthor(id: "${hex(author._id)}", firstName: "${'a'.repeat(201)}", lastName: "B") { id } }`, 'firstName', 'firstName must be at most 200 characters, got 201'],
      [`mutation { addComment(postId: "${hex(post._id)}", author: "A", comment: "${'c'.repeat(5001)}") { id } }`, 'comment', 'comment must be at most 5000 characters, got 5001'],
      [`mutation { logMessage(ipaddr: "${host.ipaddr}", message: "${'m'.repeat(10_001)}") { id } }`, 'message', 'message must be at most 10000 characters, got 10001'],
      [`mutation { renamePart(id: "${hex(author._id)}", name: "   ") { id } }`, 'name', 'name must not be blank'],
      [`mutation { updateHost(id: "${hex(host._id)}", name: "${'h'.repeat(201)}", ipaddr: "10.1.2.3") { id } }`, 'name', 'name must be at most 200 characters, got 201'],
      [book(`name: " ", isbn: "978-0-00-000000-9"`), 'input.name', 'input.name must not be blank'],
      [book(`name: "Fine", isbn: "${'9'.repeat(21)}"`), 'input.isbn', 'input.isbn must be at most 20 characters, got 21'],
      [`mutation { updateStockPrice(symbol: "  ", open: 1, high: 2, low: 0.5) { symbol } }`, 'symbol', 'symbol must not be blank'],
    ];
    for (const [query, argumentName, message] of cases) {
      const { error, writes, roundTrips } = await refused(query, 'BAD_USER_INPUT');
      expect([error.extensions?.argumentName, error.message]).toEqual([argumentName, message]);
      expect(roundTrips).toBe(0);
      expect(writes).toBeUndefined();
    }
  });
});

it('after every mutation above, reconcile finds no drift', async () => {
  const report = await reconcile(db, buildWriteModelFromSdl(demoTypeDefs()));
  expect(report.checks.filter((check) => check.drifted > 0)).toEqual([]);
  expect(report.drifted).toBe(0);
});
