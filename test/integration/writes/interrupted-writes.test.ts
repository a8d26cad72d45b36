import type { Db, ObjectId } from 'mongodb';
import type { Gateway } from 'docjoin';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { ReconcileReport } from '../../../src/reconcile/reconcile-types';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { injectedWriteFailures } from '../../../src/gateway/writes/write-errors';
import { demoTypeDefs } from '../../support/demo-project';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { transactionsAtRegistration } from './support/expected-writes';
import { gatewayWith } from './support/write-gateways';

/**
 * A mutation killed between its writes (the test seam `injectedWriteFailures`). In a transaction
 * nothing stays; on the non-atomic path (as against a standalone server) the source is written, the
 * copies are stale, and reconcile finds exactly that drift and repairs it. The transaction tests need
 * a server that runs transactions (the embedded server, a replica set or a mongos).
 */
const transactions = transactionsAtRegistration();
let demo: DemoGateway;
let db: Db;
const gateways: Gateway[] = [];
const model = buildWriteModelFromSdl(demoTypeDefs());
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 0.1 });
  db = demo.mongo.client.db(demo.dbName);
}, 60_000);
afterAll(async () => {
  for (const gateway of gateways) await gateway.stop();
  await demo?.stop();
});

/** A gateway whose write units die after `failAfterWrites` write commands, if given (the test seam injectedWriteFailures). */
async function gateway(options: { transactions?: 'never'; failAfterWrites?: number }): Promise<Gateway> {
  const created = await gatewayWith(demo, options.transactions ? { transactions: options.transactions } : {});
  if (options.failAfterWrites !== undefined) injectedWriteFailures.set(created.storageMap, options.failAfterWrites);
  gateways.push(created);
  return created;
}

const hex = (id: ObjectId) => id.toHexString();
const drifted = (report: ReconcileReport) => Object.fromEntries(report.checks.filter((check) => check.drifted > 0).map((check) => [check.coordinate, check.drifted]));

it('starts from data without drift', async () => {
  expect((await reconcile(db, model)).drifted).toBe(0);
});

(transactions.supported ? describe : describe.skip)(`in a transaction${transactions.skipReason}`, () => {
  it('a rename killed after its first write leaves nothing behind', async () => {
    const dying = await gateway({ failAfterWrites: 1 });
    const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 2 } }))!;
    const result = await dying.execute({ query: `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "Half", lastName: "Done") { id } }` });
    expect(result.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(result.errors?.[0]?.message).toBe('injected failure after 1 write command(s)');
    // The authors update ran (its reply said 1 modified), then abortTransaction rolled it back: nothing stands.
    expect(result.cost!.writes).toEqual({ roundTrips: 2, documentsModified: 0, fanOut: { authors: 0 }, atomic: true, attempts: 1 });
    expect((await db.collection('authors').findOne({ _id: author._id }))!.name).toBe(author.name);
    expect(await db.collection('books').countDocuments({ 'authors.name': 'Half Done' })).toBe(0);
  });

  it('a comment killed after its insert leaves no comment and an unchanged post', async () => {
    const dying = await gateway({ failAfterWrites: 1 });
    const post = (await db.collection('posts').findOne({}, { sort: { _id: -1 } }))!;
    const comments = await db.collection('comments').countDocuments();
    const result = await dying.execute({ query: `mutation { addComment(postId: "${hex(post._id)}", author: "A", comment: "lost") { id } }` });
    expect(result.errors).toHaveLength(1);
    expect(await db.collection('comments').countDocuments()).toBe(comments);
    expect(await db.collection('posts').findOne({ _id: post._id })).toEqual(post);
    expect((await reconcile(db, model)).drifted).toBe(0);
  });
});

describe('without transactions (the ordered, non-atomic path)', () => {
  it('a complete rename reports atomic: false and no commit', async () => {
    const standalone = await gateway({ transactions: 'never' });
    const author = (await db.collection('authors').findOne({}, { sort: { _id: -1 } }))!;
    const result = await standalone.execute({ query: `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "No", lastName: "Txn") { name } }` });
    expect(result.errors).toBeUndefined();
    expect(result.cost!.writes).toEqual({ roundTrips: 2, documentsModified: 1 + author.countOfBooks, fanOut: { authors: 1, books: author.countOfBooks }, atomic: false, attempts: 1 });
    expect((await reconcile(db, model)).drifted).toBe(0);
  });

  it('a rename killed between its writes leaves stale snapshots that reconcile repairs', async () => {
    const dying = await gateway({ transactions: 'never', failAfterWrites: 1 });
    const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 2 } }, { sort: { _id: 1 } }))!;
    const result = await dying.execute({ query: `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "Half", lastName: "Way") { id } }` });
    expect(result.errors).toHaveLength(1);
    expect(result.cost!.writes).toEqual({ roundTrips: 1, documentsModified: 1, fanOut: { authors: 1 }, atomic: false, attempts: 1 });
    expect((await db.collection('authors').findOne({ _id: author._id }))!.name).toBe('Half Way');
    expect(await db.collection('books').countDocuments({ 'authors.name': 'Half Way' })).toBe(0);

    const found = await reconcile(db, model);
    expect(drifted(found)).toEqual({ 'Book.authors': author.countOfBooks });
    const fixed = await reconcile(db, model, { fix: true });
    expect(fixed.fixed).toBe(author.countOfBooks);
    expect((await reconcile(db, model)).drifted).toBe(0);
    expect(await db.collection('books').countDocuments({ authors: { $elemMatch: { id: author._id, name: 'Half Way' } } })).toBe(author.countOfBooks);
  });

  it('a comment killed after its insert leaves a stale post that reconcile repairs', async () => {
    const dying = await gateway({ transactions: 'never', failAfterWrites: 1 });
    const post = (await db.collection('posts').findOne({ commentCount: { $gte: 3 } }, { sort: { _id: -1 } }))!;
    const result = await dying.execute({ query: `mutation { addComment(postId: "${hex(post._id)}", author: "A", comment: "orphaned copy") { id } }` });
    expect(result.errors).toHaveLength(1);
    // find posts, insert comments; the post update never ran.
    expect(result.cost!.writes).toEqual({ roundTrips: 2, documentsModified: 1, fanOut: { comments: 1 }, atomic: false, attempts: 1 });

    expect(drifted(await reconcile(db, model, { fix: true }))).toEqual({ 'Post.recentComments': 1, 'Post.commentCount': 1 });
    expect((await reconcile(db, model)).drifted).toBe(0);
    const repaired = (await db.collection('posts').findOne({ _id: post._id }))!;
    expect(repaired.commentCount).toBe(post.commentCount + 1);
    expect(repaired.recentComments[0].comment).toBe('orphaned copy');
    expect(repaired.recentComments).toHaveLength(3);
  });

  it('a book killed after its insert leaves authors without it; reconcile restores their ids and counts', async () => {
    const dying = await gateway({ transactions: 'never', failAfterWrites: 1 });
    const authors = await db.collection('authors').find({}, { sort: { _id: 1 }, skip: 3, limit: 2 }).toArray();
    const publisher = (await db.collection('publishers').findOne({}))!;
    const input = `{ name: "Interrupted", isbn: "978-1-11-111111-1", pages: 10, publishedAt: "2026-11-01T00:00:00Z", publisherId: "${hex(publisher._id)}", authorIds: ["${hex(authors[0]!._id)}", "${hex(authors[1]!._id)}"] }`;
    const result = await dying.execute({ query: `mutation { publishBook(input: ${input}) { id } }` });
    expect(result.errors).toHaveLength(1);
    expect(result.cost!.writes).toEqual({ roundTrips: 3, documentsModified: 1, fanOut: { books: 1 }, atomic: false, attempts: 1 });

    expect(drifted(await reconcile(db, model, { fix: true }))).toEqual({ 'Author.books': 2, 'Author.countOfBooks': 2 });
    expect((await reconcile(db, model)).drifted).toBe(0);
    const book = (await db.collection('books').findOne({ isbn: '978-1-11-111111-1' }))!;
    for (const author of authors) {
      const after = (await db.collection('authors').findOne({ _id: author._id }))!;
      expect(after.bookIds).toEqual([...author.bookIds, book._id]);
      expect(after.countOfBooks).toBe(author.countOfBooks + 1);
    }
  });

  it('a host update killed after the host write leaves every log message with the old host; reconcile repairs them', async () => {
    const dying = await gateway({ transactions: 'never', failAfterWrites: 1 });
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: -1 } }))!;
    const messages = await db.collection('logMessages').countDocuments({ 'host.id': host._id });
    const result = await dying.execute({ query: `mutation { updateHost(id: "${hex(host._id)}", name: "cut.example.com", ipaddr: "10.96.0.1") { id } }` });
    expect(result.errors?.[0]?.message).toBe('injected failure after 1 write command(s)');
    // The one host statement ran (its fields and the copies inside its recentLogs); the log messages' never did.
    expect(result.cost!.writes).toEqual({ roundTrips: 1, documentsModified: 1, fanOut: { hosts: 1 }, atomic: false, attempts: 1 });
    const written = (await db.collection('hosts').findOne({ _id: host._id }))!;
    expect(written.name).toBe('cut.example.com');
    expect(written.recentLogs.map((log: { host: unknown }) => log.host)).toEqual(Array(10).fill({ id: host._id, name: 'cut.example.com', ipaddr: '10.96.0.1' }));
    expect(await db.collection('logMessages').countDocuments({ 'host.id': host._id, 'host.name': host.name })).toBe(messages);

    // Drift: every message's host snapshot, and nothing else (the host copies inside recentLogs are
    // already the source's); the report lists exactly what the fix repairs.
    expect(drifted(await reconcile(db, model))).toEqual({ 'LogMessage.host': messages });
    const fixed = await reconcile(db, model, { fix: true });
    expect(drifted(fixed)).toEqual({ 'LogMessage.host': messages });
    expect(fixed.fixed).toBe(messages);
    expect((await reconcile(db, model)).drifted).toBe(0);
    expect(await db.collection('logMessages').countDocuments({ 'host.id': host._id, 'host.name': 'cut.example.com', 'host.ipaddr': '10.96.0.1' })).toBe(messages);
  });

  it('a task reassignment killed after the task write leaves both owners\' task lists stale; reconcile repairs them', async () => {
    const dying = await gateway({ transactions: 'never', failAfterWrites: 1 });
    const task = (await db.collection('tasks').findOne({}, { sort: { _id: 1 }, skip: 5 }))!;
    const oldOwner = (await db.collection('people').findOne({ _id: task.ownerId }))!;
    const newOwner = (await db.collection('people').findOne({ _id: { $ne: task.ownerId } }, { sort: { _id: 1 }, skip: 7 }))!;
    const result = await dying.execute({ query: `mutation { reassignTask(taskId: "${hex(task._id)}", ownerId: "${hex(newOwner._id)}") { id } }` });
    expect(result.errors?.[0]?.message).toBe('injected failure after 1 write command(s)');
    // find tasks, find people (the new owner), update tasks; the people update never ran.
    expect(result.cost!.writes).toEqual({ roundTrips: 3, documentsModified: 1, fanOut: { tasks: 1 }, atomic: false, attempts: 1 });
    expect((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId).toEqual(newOwner._id);
    expect((await db.collection('people').findOne({ _id: oldOwner._id }))!.taskIds).toEqual(oldOwner.taskIds);

    expect(drifted(await reconcile(db, model, { fix: true }))).toEqual({ 'Person.tasks': 2 });
    expect((await reconcile(db, model)).drifted).toBe(0);
    expect((await db.collection('people').findOne({ _id: oldOwner._id }))!.taskIds).toEqual(oldOwner.taskIds.filter((id: ObjectId) => !id.equals(task._id)));
    expect((await db.collection('people').findOne({ _id: newOwner._id }))!.taskIds).toContainEqual(task._id);
  });
});
