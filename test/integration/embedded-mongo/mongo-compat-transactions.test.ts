/**
 * Multi-document transactions through sessions: commit, abort, snapshot reads, and write
 * conflicts (112 WriteConflict + TransientTransactionError) with and without withTransaction.
 * A real MongoDB needs a replica set for transactions: against a standalone MONGODB_URI these
 * tests return early with a printed reason (the embedded server always runs them).
 */
import { Long, MongoClient, MongoServerError, type ClientSession, type Document } from 'mongodb';
import { idsOf, useCompatDatabase, useReplicaSetGuard } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_txn');
const { skipWithoutReplicaSet } = useReplicaSetGuard(() => ({ db: ctx.db, isEmbedded: ctx.mongo.isEmbedded }));
let counter = 0;

/** A fresh, already created collection: real MongoDB prefers collections to exist before a transaction. */
async function freshCollection(docs: Document[] = []) {
  const name = `txn_${++counter}`;
  await ctx.db.createCollection(name);
  const c = ctx.db.collection(name);
  if (docs.length > 0) await c.insertMany(docs);
  return c;
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

test('a $push that $slice leaves as it was still writes the document: another transaction writing it gets 112', async () => {
  if (skipWithoutReplicaSet()) return;
  const c = await freshCollection([{ _id: 'x', recent: [9, 8], name: 'a' }] as Document[]);
  await withSessions(2, async (first, second) => {
    first.startTransaction();
    second.startTransaction();
    await c.updateOne({ _id: 'x' } as Document, { $push: { recent: { $each: [1], $sort: -1, $slice: 2 } } } as Document, { session: first });
    const error = await failureOf(c.updateOne({ _id: 'x' } as Document, { $set: { name: 'b' } }, { session: second }));
    expect(error.code).toBe(112);
    await second.abortTransaction();
    await first.commitTransaction();
  });
  expect(await c.findOne({ _id: 'x' } as Document)).toEqual({ _id: 'x', recent: [9, 8], name: 'a' });
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

describe('write errors inside a transaction', () => {
  // jstests/core/txns/transactions_write_errors.js: a failed statement is a `writeErrors` entry in an
  // `ok: 1` reply without errorLabels, and the batch stops there even when unordered
  // (`[good, good, bad, bad]` → n 2, one error at index 2).
  // jstests/core/txns/multi_statement_transaction_abort.js: the error aborts the transaction, so
  // commitTransaction fails with 251 NoSuchTransaction and nothing the transaction wrote is kept.
  async function inTransaction(session: ClientSession, command: Document): Promise<Document> {
    session.startTransaction();
    return ctx.db.command(command, { session });
  }

  test('a duplicate _id in an unordered insert: ok 1, n 2, one write error, then commit fails with 251', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 5 }] as Document[]);
    await withSessions(1, async (session) => {
      const reply = await inTransaction(session, {
        insert: c.collectionName,
        documents: [{ _id: 1 }, { _id: 2 }, { _id: 5 }, { _id: 5 }, { _id: 6 }],
        ordered: false,
      });
      expect(reply.ok).toBe(1);
      expect(reply.n).toBe(2);
      expect(reply.writeErrors).toHaveLength(1);
      expect(reply.writeErrors[0]).toMatchObject({ index: 2, code: 11000, keyValue: { _id: 5 } });
      expect(reply.errorLabels).toBeUndefined();
      const commit = await failureOf(session.commitTransaction());
      expect([commit.code, commit.codeName]).toEqual([251, 'NoSuchTransaction']);
    });
    expect(await idsOf(c)).toEqual([5]);
  });

  test('$inc on a string in an ordered update: write error 14 TypeMismatch at its index, and the transaction is gone', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 0, x: 'string' }] as Document[]);
    await withSessions(1, async (session) => {
      const reply = await inTransaction(session, {
        update: c.collectionName,
        updates: [
          { q: { _id: 0 }, u: { $set: { x: 'STRING' } } },
          { q: { _id: 0 }, u: { $inc: { x: 1 } } },
          { q: { _id: 0 }, u: { $set: { y: 1 } } },
        ],
      });
      expect(reply.ok).toBe(1);
      expect(reply.n).toBe(1);
      expect(reply.writeErrors.map((error: Document) => [error.index, error.code])).toEqual([[1, 14]]);
      expect(reply.errorLabels).toBeUndefined();
      expect((await failureOf(session.commitTransaction())).code).toBe(251);
    });
    expect(await c.findOne({ _id: 0 } as Document)).toEqual({ _id: 0, x: 'string' });
  });

  test('an unknown top-level operator in an unordered delete: write error 2 BadValue after the good one', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as Document[]);
    await withSessions(1, async (session) => {
      const reply = await inTransaction(session, {
        delete: c.collectionName,
        deletes: [
          { q: {}, limit: 1 },
          { q: { $foo: 1 }, limit: 1 },
          { q: {}, limit: 1 },
        ],
        ordered: false,
      });
      expect(reply.ok).toBe(1);
      expect(reply.n).toBe(1);
      expect(reply.writeErrors.map((error: Document) => [error.index, error.code])).toEqual([[1, 2]]);
      expect((await failureOf(session.commitTransaction())).code).toBe(251);
    });
    expect(await idsOf(c)).toEqual([1, 2, 3]);
  });

  test('through the driver: insertOne throws 11000 without TransientTransactionError, and the commit fails', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 'taken' }] as Document[]);
    await withSessions(1, async (session) => {
      session.startTransaction();
      await c.insertOne({ _id: 'fresh' } as Document, { session });
      const error = await failureOf(c.insertOne({ _id: 'taken' } as Document, { session }));
      expect(error.code).toBe(11000);
      expect(error.hasErrorLabel('TransientTransactionError')).toBe(false);
      expect((await failureOf(session.commitTransaction())).code).toBe(251);
    });
    expect(await idsOf(c)).toEqual(['taken']);
  });
});

describe('retryable writes', () => {
  // MongoDB docs, "Retryable Writes": a write sent again with the same lsid and txnNumber (the driver's
  // retry after a lost reply) is not applied again; the server answers from its record of the first.
  test('the same txnNumber twice applies the write once; an older txnNumber fails with 225', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 1, n: 0 }] as Document[]);
    // A client of its own: the txnNumbers set here by hand would be behind the driver's own count on a
    // pooled session the other tests use, and ahead of it afterwards. Closing it ends its sessions.
    const client = await MongoClient.connect(ctx.mongo.uri);
    const db = client.db(ctx.db.databaseName);
    const session = client.startSession();
    try {
      const write = { update: c.collectionName, updates: [{ q: { _id: 1 }, u: { $inc: { n: 10 } } }], txnNumber: Long.fromNumber(5) };
      expect(await db.command(write, { session })).toMatchObject({ ok: 1, n: 1, nModified: 1 });
      expect(await db.command(write, { session })).toMatchObject({ ok: 1, n: 1, nModified: 1 });
      expect(await c.findOne({ _id: 1 } as Document)).toEqual({ _id: 1, n: 10 });
      const older = await failureOf(db.command({ ...write, txnNumber: Long.fromNumber(4) }, { session }));
      expect([older.code, older.codeName]).toEqual([225, 'TransactionTooOld']);
      await db.command({ ...write, txnNumber: Long.fromNumber(6) }, { session });
      expect(await c.findOne({ _id: 1 } as Document)).toEqual({ _id: 1, n: 20 });
    } finally {
      await session.endSession();
      await client.close();
    }
  });
});

describe('commands MongoDB does not run in a transaction', () => {
  // jstests/core/txns/commands_not_allowed_in_txn.js: 263 OperationNotSupportedInTransaction, "Cannot run
  // '<name>' in a multi-document transaction."; a transaction it would start is not started, and one
  // already open is not aborted.
  test('count, listCollections, listIndexes and drop fail with 263; an open transaction still commits', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 1 }] as Document[]);
    await withSessions(1, async (session) => {
      session.startTransaction();
      await c.insertOne({ _id: 2 } as Document, { session });
      for (const command of [{ count: c.collectionName }, { listCollections: 1 }, { listIndexes: c.collectionName }, { drop: c.collectionName }]) {
        const error = await failureOf(ctx.db.command(command, { session }));
        expect([error.code, error.codeName, error.message]).toEqual([263, 'OperationNotSupportedInTransaction', `Cannot run '${Object.keys(command)[0]}' in a multi-document transaction.`]);
      }
      await session.commitTransaction();
    });
    expect(await idsOf(c)).toEqual([1, 2]);
  });

  test('a transaction such a command would start is not started: its commit fails with 251', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 1 }] as Document[]);
    await withSessions(1, async (session) => {
      session.startTransaction();
      expect((await failureOf(ctx.db.command({ count: c.collectionName }, { session }))).code).toBe(263);
      expect((await failureOf(session.commitTransaction())).code).toBe(251);
    });
  });
});

describe('unique index entries conflict like documents', () => {
  // jstests/core/txns/transactions_write_conflicts_unique_indexes.js: two transactions adding the same
  // unique key under different _ids conflict at the second write (112), whichever commits first;
  // the loser's commit then fails with 251.
  async function uniqueCollection() {
    const c = await freshCollection();
    await c.createIndex({ x: 1 }, { unique: true });
    return c;
  }

  test('the second transaction to insert the key gets 112 WriteConflict, not 11000 at commit', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await uniqueCollection();
    await withSessions(2, async (first, second) => {
      first.startTransaction();
      second.startTransaction();
      await c.insertOne({ _id: 1, x: 1 } as Document, { session: first });
      const error = await failureOf(c.insertOne({ _id: 2, x: 1 } as Document, { session: second }));
      expect([error.code, error.codeName]).toEqual([112, 'WriteConflict']);
      expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
      await first.commitTransaction();
      expect((await failureOf(second.commitTransaction())).code).toBe(251);
    });
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
  });

  test('a key committed by another transaction after this snapshot is a WriteConflict too', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await uniqueCollection();
    await withSessions(2, async (first, second) => {
      first.startTransaction();
      second.startTransaction();
      await c.find({}, { session: first }).toArray(); // starts the first transaction's snapshot
      await c.insertOne({ _id: 2, x: 1 } as Document, { session: second });
      await second.commitTransaction();
      const error = await failureOf(c.insertOne({ _id: 1, x: 1 } as Document, { session: first }));
      expect(error.code).toBe(112);
      expect((await failureOf(first.commitTransaction())).code).toBe(251);
    });
    expect(await c.find().toArray()).toEqual([{ _id: 2, x: 1 }]);
  });

  test('updates that move two documents onto the same key conflict', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await uniqueCollection();
    await c.insertMany([{ _id: 1, x: 1 }, { _id: 2, x: 2 }] as Document[]);
    await withSessions(2, async (first, second) => {
      first.startTransaction();
      second.startTransaction();
      await c.updateOne({ _id: 1 } as Document, { $set: { x: 3 } }, { session: first });
      expect((await failureOf(c.updateOne({ _id: 2 } as Document, { $set: { x: 3 } }, { session: second }))).code).toBe(112);
      await first.commitTransaction();
      await second.abortTransaction();
    });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 3 },
      { _id: 2, x: 2 },
    ]);
  });
});

describe('a write outside any transaction to a document a transaction wrote', () => {
  // MongoDB docs, Transactions > Production Considerations > "In-progress Transactions and Write
  // Conflicts": "If a transaction is in progress and has taken a lock to modify a document, when a
  // write outside the transaction tries to modify the same document, the write waits until the
  // transaction ends." It then applies to whatever the transaction left.
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('waits for the commit, then applies on top of the committed document', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 'x', n: 0 }] as Document[]);
    await withSessions(1, async (session) => {
      session.startTransaction();
      await c.updateOne({ _id: 'x' } as Document, { $inc: { n: 1 } }, { session });
      let settled = false;
      const outside = c.updateOne({ _id: 'x' } as Document, { $inc: { n: 10 } }).finally(() => (settled = true));
      await sleep(300);
      expect(settled).toBe(false);
      await session.commitTransaction();
      expect((await outside).modifiedCount).toBe(1);
    });
    expect(await c.findOne({ _id: 'x' } as Document)).toEqual({ _id: 'x', n: 11 });
  });

  test('waits for an abort, then applies to the document as it was', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection([{ _id: 'x', n: 0 }] as Document[]);
    await withSessions(1, async (session) => {
      session.startTransaction();
      await c.deleteOne({ _id: 'x' } as Document, { session });
      let settled = false;
      const outside = c.findOneAndUpdate({ _id: 'x' } as Document, { $set: { seen: true } }, { returnDocument: 'after' }).finally(() => (settled = true));
      await sleep(300);
      expect(settled).toBe(false);
      await session.abortTransaction();
      expect(await outside).toEqual({ _id: 'x', n: 0, seen: true });
    });
  });

  test('an insert of an _id a transaction inserted waits, then fails with 11000 once it commits', async () => {
    if (skipWithoutReplicaSet()) return;
    const c = await freshCollection();
    await withSessions(1, async (session) => {
      session.startTransaction();
      await c.insertOne({ _id: 'new', by: 'txn' } as Document, { session });
      let settled = false;
      const outside = c.insertOne({ _id: 'new', by: 'outside' } as Document).finally(() => (settled = true));
      await sleep(300);
      expect(settled).toBe(false);
      await session.commitTransaction();
      expect((await failureOf(outside)).code).toBe(11000);
    });
    expect(await c.find().toArray()).toEqual([{ _id: 'new', by: 'txn' }]);
  });
});
