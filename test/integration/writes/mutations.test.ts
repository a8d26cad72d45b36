import type { Db, ObjectId } from 'mongodb';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { readUnderEveryStrategy } from './support/write-gateways';

/**
 * Every mutation against the embedded server (which runs transactions): the state it leaves (read
 * back with the driver), its exact `extensions.cost.writes`, and a read through every strategy of the
 * fields it touched showing the new value. Demo data at scale 0.1.
 */
let demo: DemoGateway;
let db: Db;
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 0.1 });
  db = demo.mongo.client.db(demo.dbName);
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
    expect(cost.writes).toEqual({ roundTrips: 3, documentsModified: 1 + books.length, fanOut: { authors: 1, books: books.length }, atomic: true });
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
    expect(headers).toEqual(['Book.authors=join', 'Book.authors=snapshot']);
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
    expect(cost.writes).toEqual({ roundTrips: 3, documentsModified: 1 + products.length, fanOut: { parts: 1, products: products.length }, atomic: true });
    expect(await db.collection('products').countDocuments({ parts: { $elemMatch: { id: part._id, name: 'flux capacitor' } } })).toBe(products.length);

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ product(catalogNumber: "${products[0]!.catalogNumber}") { parts { id name } } }`, ['Product.parts']);
    expect((read.product as { parts: unknown[] }).parts).toContainEqual({ id: hex(part._id), name: 'flux capacitor' });
  });
});

describe('updateHost', () => {
  it('updates the host, every LogMessage.host snapshot and the host snapshots inside recentLogs', async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: 1 } }))!;
    const messages = await db.collection('logMessages').countDocuments({ 'host.id': host._id });
    expect(messages).toBe(1000 * 0.1 * 10); // 100 per host at scale 0.1

    const { data, cost } = await mutate(`mutation { updateHost(id: "${hex(host._id)}", name: "renamed.example.com", ipaddr: "10.99.0.1") { name ipaddr } }`);
    expect(data.updateHost).toEqual({ name: 'renamed.example.com', ipaddr: '10.99.0.1' });
    // hosts (the source), hosts (recentLogs copies), logMessages (the fan-out), commit.
    expect(cost.writes).toEqual({ roundTrips: 4, documentsModified: 2 + messages, fanOut: { hosts: 2, logMessages: messages }, atomic: true });

    expect(await db.collection('logMessages').countDocuments({ 'host.id': host._id, 'host.name': 'renamed.example.com', 'host.ipaddr': '10.99.0.1' })).toBe(messages);
    const stored = (await db.collection('hosts').findOne({ _id: host._id }))!;
    expect(stored.recentLogs.map((log: { host: unknown }) => log.host)).toEqual(Array(10).fill({ id: host._id, name: 'renamed.example.com', ipaddr: '10.99.0.1' }));

    const { data: read, headers } = await readUnderEveryStrategy(
      demo.gateway,
      `{ host(ipaddr: "10.99.0.1") { name recentLogs { host { name ipaddr } } logs(first: 2) { host { name } } } }`,
      ['Host.recentLogs', 'LogMessage.host'],
    );
    expect(headers.length).toBe(4);
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
    expect(cost.writes).toEqual({ roundTrips: 2, documentsModified: 1, fanOut: { stocks: 1 }, atomic: true });

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
    // find posts (the post must exist), insert comments, update posts ($push $each/$sort/$slice + $inc), commit.
    expect(cost.writes).toEqual({ roundTrips: 4, documentsModified: 2, fanOut: { comments: 1, posts: 1 }, atomic: true });

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
});

describe('logMessage', () => {
  it('inserts the message with its host snapshot and pushes it onto recentLogs, capped at 10', async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: -1 } }))!;
    const { data, cost } = await mutate(`mutation { logMessage(ipaddr: "${host.ipaddr}", message: "disk 91% full") { id message host { name ipaddr } } }`);
    const logged = data.logMessage as { id: string };
    expect(data.logMessage).toMatchObject({ message: 'disk 91% full', host: { name: host.name, ipaddr: host.ipaddr } });
    // find hosts (by address), insert logMessages, update hosts, commit.
    expect(cost.writes).toEqual({ roundTrips: 4, documentsModified: 2, fanOut: { logMessages: 1, hosts: 1 }, atomic: true });

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
    expect(cost.writes).toEqual({ roundTrips: 5, documentsModified: 3, fanOut: { books: 1, authors: 2 }, atomic: true });

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
    expect(cost.writes).toEqual({ roundTrips: 5, documentsModified: 3, fanOut: { tasks: 1, people: 2 }, atomic: true });

    expect((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId).toEqual(newOwner._id);
    expect((await db.collection('people').findOne({ _id: task.ownerId }))!.taskIds).not.toContainEqual(task._id);
    expect((await db.collection('people').findOne({ _id: newOwner._id }))!.taskIds).toContainEqual(task._id);

    const { data: read } = await readUnderEveryStrategy(demo.gateway, `{ person(id: "${hex(newOwner._id)}") { tasks { id owner { id } } } }`, ['Person.tasks']);
    expect((read.person as { tasks: unknown[] }).tasks).toContainEqual({ id: hex(task._id), owner: { id: hex(newOwner._id) } });
  });
});

describe('bad input', () => {
  it('an unknown id is NOT_FOUND with nothing written', async () => {
    const missing = '0123456789abcdef01234567';
    const rename = await demo.gateway.execute({ query: `mutation { renameAuthor(id: "${missing}", firstName: "A", lastName: "B") { id } }` });
    expect(rename.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(rename.cost!.writes).toEqual({ roundTrips: 2, documentsModified: 0, fanOut: { authors: 0 }, atomic: true }); // the update matched nothing, then abortTransaction

    const comments = await db.collection('comments').countDocuments();
    const comment = await demo.gateway.execute({ query: `mutation { addComment(postId: "${missing}", author: "A", comment: "B") { id } }` });
    expect(comment.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(comment.errors?.[0]?.message).toBe(`Comment.post: ${missing} not found`);
    expect(await db.collection('comments').countDocuments()).toBe(comments);

    const author = (await db.collection('authors').findOne({}))!;
    const book = await demo.gateway.execute({
      query: `mutation { publishBook(input: { name: "X", isbn: "1", pages: 1, publishedAt: "2026-01-01T00:00:00Z", publisherId: "${missing}", authorIds: ["${hex(author._id)}"] }) { id } }`,
    });
    expect(book.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await db.collection('authors').findOne({ _id: author._id }))!.countOfBooks).toBe(author.countOfBooks);

    const task = (await db.collection('tasks').findOne({}))!;
    const reassign = await demo.gateway.execute({ query: `mutation { reassignTask(taskId: "${hex(task._id)}", ownerId: "${missing}") { id } }` });
    expect(reassign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId).toEqual(task.ownerId);
  });

  it('over-cap strings are BAD_USER_INPUT and send nothing', async () => {
    const author = (await db.collection('authors').findOne({}))!;
    const post = (await db.collection('posts').findOne({}))!;
    const host = (await db.collection('hosts').findOne({}))!;
    const cases = [
      `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "${'a'.repeat(201)}", lastName: "B") { id } }`,
      `mutation { addComment(postId: "${hex(post._id)}", author: "A", comment: "${'c'.repeat(5001)}") { id } }`,
      `mutation { logMessage(ipaddr: "${host.ipaddr}", message: "${'m'.repeat(10_001)}") { id } }`,
      `mutation { renamePart(id: "${hex(author._id)}", name: "   ") { id } }`,
    ];
    for (const query of cases) {
      const result = await demo.gateway.execute({ query });
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.cost!.roundTrips).toBe(0);
      expect(result.cost!.writes).toBeUndefined();
    }
  });
});
