/**
 * Multi-document transactions through sessions: commit, abort, snapshot reads, and write
 * conflicts (112 WriteConflict + TransientTransactionError) with and without withTransaction.
 * A real MongoDB needs a replica set for transactions: against a standalone MONGODB_URI these
 * tests return early with a printed reason (the embedded server always runs them).
 */
import { MongoServerError, type ClientSession, type Document } from 'mongodb';
import { replicaSetName, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_txn');
let transactionsSupported = false;
let counter = 0;

beforeAll(async () => {
  const setName = await replicaSetName(ctx.db);
  // The embedded server must advertise a replica set, so it may never take the skip path.
  if (ctx.mongo.isEmbedded) expect(setName).toBe('docjoin');
  transactionsSupported = setName !== undefined;
});

/** A fresh, already created collection: real MongoDB prefers collections to exist before a transaction. */
async function freshCollection(docs: Document[] = []) {
  const name = `txn_${++counter}`;
  await ctx.db.createCollection(name);
  const c = ctx.db.collection(name);
  if (docs.length > 0) await c.insertMany(docs);
  return c;
}

function skipWithoutReplicaSet(): boolean {
  if (transactionsSupported) return false;
  console.warn('skipped: MONGODB_URI is a standalone MongoDB (hello has no setName); transactions need a replica set');
  return true;
}

/** The error `operation` fails with; fails the test if it succeeds. */
async function failureOf(operation: Promise<unknown>): Promise<MongoServerError> {
  try {
    await operation;
  } catch (error) {
    if (error instanceof MongoServerError) return error;
    throw error;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}

async function withSessions<T>(count: number, body: (...sessions: ClientSession[]) => Promise<T>): Promise<T> {
  const sessions = Array.from({ length: count }, () => ctx.mongo.client.startSession());
  try {
    return await body(...sessions);
  } finally {
    await Promise.all(sessions.map((s) => s.endSession()));
  }
}

test('a committed transaction is invisible to others until commit, then visible all at once', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection([{ _id: 'acct', balance: 100 }] as Document[]);
  await withSessions(1, async (session) => {
    await session.withTransaction(async () => {
      await c.insertMany([{ _id: 'a', v: 1 }, { _id: 'b', v: 2 }] as Document[], { session });
      await c.updateOne({ _id: 'acct' } as Document, { $inc: { balance: -30 } }, { session });
      await c.deleteOne({ _id: 'a' } as Document, { session });
      // Inside the transaction: its own writes are visible (read-your-writes).
      expect((await c.find({}, { session }).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(['acct', 'b']);
      expect((await c.findOne({ _id: 'acct' } as Document, { session }))!.balance).toBe(70);
      // Outside (no session): nothing has happened yet.
      expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([{ _id: 'acct', balance: 100 }]);
      expect(await c.countDocuments({})).toBe(1);
    });
  });
  expect(await c.find({}).sort({ _id: 1 }).toArray()).toEqual([
    { _id: 'acct', balance: 70 },
    { _id: 'b', v: 2 },
  ]);
});

test('a transaction whose callback throws is aborted and writes nothing', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection([{ _id: 'acct', balance: 100 }] as Document[]);
  const failure = new Error('business rule failed');
  await withSessions(1, async (session) => {
    await expect(
      session.withTransaction(async () => {
        await c.insertOne({ _id: 'ghost' } as Document, { session });
        await c.updateOne({ _id: 'acct' } as Document, { $set: { balance: 0 } }, { session });
        throw failure;
      }),
    ).rejects.toBe(failure);
  });
  expect(await c.find({}).toArray()).toEqual([{ _id: 'acct', balance: 100 }]);
});

test('an explicit abortTransaction discards the buffered writes', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection();
  await withSessions(1, async (session) => {
    session.startTransaction();
    await c.insertOne({ _id: 1 } as Document, { session });
    expect(await c.countDocuments({}, { session })).toBe(1);
    await session.abortTransaction();
  });
  expect(await c.countDocuments({})).toBe(0);
});

test('a transaction reads from its snapshot even after others commit', async () => {
  if (skipWithoutReplicaSet()) return;
  // MongoDB docs, "Read Concern snapshot": all reads in the transaction see one snapshot.
  const c = await freshCollection([{ _id: 1, v: 'old' }] as Document[]);
  await withSessions(1, async (session) => {
    session.startTransaction({ readConcern: { level: 'snapshot' } });
    expect((await c.findOne({ _id: 1 } as Document, { session }))!.v).toBe('old');
    await c.updateOne({ _id: 1 } as Document, { $set: { v: 'new' } });
    await c.insertOne({ _id: 2, v: 'later' } as Document);
    expect((await c.findOne({ _id: 1 } as Document, { session }))!.v).toBe('old');
    expect(await c.countDocuments({}, { session })).toBe(1);
    await session.commitTransaction();
  });
  expect((await c.findOne({ _id: 1 } as Document))!.v).toBe('new');
});

test('two transactions writing the same document: the second writer gets 112 WriteConflict, transient', async () => {
  if (skipWithoutReplicaSet()) return;
  // MongoDB docs, "Transactions" > "In-progress Transactions and Write Conflicts".
  const c = await freshCollection([{ _id: 'x', n: 0 }] as Document[]);
  await withSessions(2, async (first, second) => {
    first.startTransaction();
    second.startTransaction();
    await c.updateOne({ _id: 'x' } as Document, { $inc: { n: 1 } }, { session: first });
    const error = await failureOf(c.updateOne({ _id: 'x' } as Document, { $inc: { n: 10 } }, { session: second }));
    expect(error.code).toBe(112);
    expect(error.codeName).toBe('WriteConflict');
    expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
    await second.abortTransaction();
    await first.commitTransaction();
  });
  expect(await c.findOne({ _id: 'x' } as Document)).toEqual({ _id: 'x', n: 1 });
});

test('writing a document another transaction committed after this snapshot fails with 112', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection([{ _id: 'x', n: 0 }] as Document[]);
  await withSessions(2, async (reader, writer) => {
    reader.startTransaction();
    // The first operation establishes the reader's snapshot.
    expect((await c.findOne({ _id: 'x' } as Document, { session: reader }))!.n).toBe(0);
    writer.startTransaction();
    await c.updateOne({ _id: 'x' } as Document, { $inc: { n: 1 } }, { session: writer });
    await writer.commitTransaction();
    const error = await failureOf(c.updateOne({ _id: 'x' } as Document, { $inc: { n: 10 } }, { session: reader }));
    expect(error.code).toBe(112);
    expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
    await reader.abortTransaction();
  });
  expect(await c.findOne({ _id: 'x' } as Document)).toEqual({ _id: 'x', n: 1 });
});

test('withTransaction retries a conflicting transaction until both increments land', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection([{ _id: 'counter', n: 0 }] as Document[]);
  let attempts = 0;
  let readers = 0;
  let releaseReaders: () => void = () => undefined;
  const bothHaveRead = new Promise<void>((resolve) => {
    releaseReaders = resolve;
  });
  const increment = (session: ClientSession) =>
    session.withTransaction(async () => {
      attempts += 1;
      const current = await c.findOne({ _id: 'counter' } as Document, { session });
      // Only on the first attempts: wait until both transactions have read the same value, so they must conflict.
      if (readers < 2) {
        readers += 1;
        if (readers === 2) releaseReaders();
        await bothHaveRead;
      }
      await c.updateOne({ _id: 'counter' } as Document, { $set: { n: (current!.n as number) + 1 } }, { session });
    });
  await withSessions(2, (a, b) => Promise.all([increment(a), increment(b)]));
  expect(await c.findOne({ _id: 'counter' } as Document)).toEqual({ _id: 'counter', n: 2 });
  expect(attempts).toBeGreaterThanOrEqual(3);
});

test('a write outside any transaction is visible to later transactions', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection();
  await c.insertOne({ _id: 1, v: 'plain' } as Document);
  await withSessions(1, async (session) => {
    await session.withTransaction(async () => {
      expect(await c.findOne({ _id: 1 } as Document, { session })).toEqual({ _id: 1, v: 'plain' });
    });
  });
});
