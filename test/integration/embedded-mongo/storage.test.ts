import { Binary, Decimal128, Double, Int32, Long, MongoBulkWriteError, MongoClient, MongoServerError, ObjectId, type CommandStartedEvent, type Db } from 'mongodb';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { useReplicaSetGuard } from './support/compat-helpers';

/**
 * The storage engine through the real driver: cursors and batching, unique/sparse/multikey indexes,
 * write replies, transactions (snapshot, commit, abort, conflict) and copy-on-write isolation.
 * Reply shapes follow MongoDB's command documentation; tests of embedded-only internals say so.
 */
let mongo: TestMongo;
let monitored: MongoClient;
const started: CommandStartedEvent[] = [];
const embeddedOnly = process.env.MONGODB_URI ? it.skip : it;

beforeAll(async () => {
  mongo = await startTestMongo();
  monitored = new MongoClient(mongo.uri, { monitorCommands: true });
  monitored.on('commandStarted', (event) => started.push(event));
  await monitored.connect();
});

afterAll(async () => {
  await monitored.close();
  await mongo.stop();
});

// transactions need a replica set: against a standalone MONGODB_URI those tests return early
const { skipWithoutReplicaSet } = useReplicaSetGuard(() => ({ db: mongo.client.db('admin'), isEmbedded: mongo.isEmbedded }));

function sent(name: string): CommandStartedEvent[] {
  return started.filter((event) => event.commandName === name);
}

async function seed(db: Db, name: string, count: number): Promise<void> {
  await db.collection<{ _id: number; n: number; group: number }>(name).insertMany(Array.from({ length: count }, (_, i) => ({ _id: i, n: i, group: i % 3 })));
}

describe('cursors', () => {
  it('returns 101 documents first, then the rest in one getMore (MongoDB default batch sizes)', async () => {
    const db = monitored.db(mongo.freshDb().databaseName);
    await seed(db, 'items', 250);
    started.length = 0;
    const docs = await db.collection('items').find({}).sort({ n: 1 }).toArray();
    expect(docs.map((doc) => doc.n)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(sent('find')).toHaveLength(1);
    expect(sent('getMore')).toHaveLength(1);
  });

  it('honours batchSize for every batch and limit across batches', async () => {
    const db = monitored.db(mongo.freshDb().databaseName);
    await seed(db, 'items', 250);
    started.length = 0;
    const batched = await db.collection('items').find({}, { batchSize: 50 }).toArray();
    expect(batched).toHaveLength(250);
    expect(sent('getMore')).toHaveLength(4);
    started.length = 0;
    const limited = await db.collection('items').find({ group: 1 }, { batchSize: 10, limit: 25, skip: 5 }).toArray();
    expect(limited.map((doc) => doc.n)).toEqual(Array.from({ length: 25 }, (_, i) => (i + 5) * 3 + 1));
  });

  it('reports cursor ids as Longs, kills cursors and answers 43 CursorNotFound afterwards', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 30);
    const reply = await db.command({ find: 'items', filter: {}, batchSize: 10 }, { promoteLongs: false });
    const id = reply.cursor.id as Long;
    expect(id).toBeInstanceOf(Long);
    expect(id.isZero()).toBe(false);
    expect(reply.cursor.ns).toBe(`${db.databaseName}.items`);
    expect(reply.cursor.firstBatch).toHaveLength(10);

    const more = await db.command({ getMore: id, collection: 'items', batchSize: 5 }, { promoteLongs: false });
    expect(more.cursor.nextBatch.map((doc: { n: number }) => doc.n)).toEqual([10, 11, 12, 13, 14]);

    const killed = await db.command({ killCursors: 'items', cursors: [id, Long.fromNumber(424242)] }, { promoteLongs: false });
    expect(killed.cursorsKilled).toEqual([id]);
    expect(killed.cursorsNotFound).toEqual([Long.fromNumber(424242)]);
    await expect(db.command({ getMore: id, collection: 'items' })).rejects.toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  });

  it('closes a single-batch find immediately (cursor id 0)', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 30);
    const reply = await db.command({ find: 'items', filter: { group: 0 }, batchSize: 4, singleBatch: true });
    expect(reply.cursor.firstBatch.map((doc: { n: number }) => doc.n)).toEqual([0, 3, 6, 9]);
    expect(Number(reply.cursor.id)).toBe(0);
  });
});

describe('write replies', () => {
  it('update reports n, nModified and upserted [{ index, _id }]', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 6);
    const reply = await db.command({
      update: 'items',
      updates: [
        { q: { group: 0 }, u: { $set: { tag: 'zero' } }, multi: true },
        { q: { _id: 1 }, u: { $set: { group: 1 } } },
        { q: { _id: 'new' }, u: { $set: { n: -1 }, $setOnInsert: { created: true } }, upsert: true },
      ],
    });
    expect(reply).toMatchObject({ n: 4, nModified: 2, upserted: [{ index: 2, _id: 'new' }] });
    expect(await db.collection('items').findOne({ _id: 'new' as never })).toEqual({ _id: 'new', n: -1, created: true });
  });

  it('delete honours limit 1 and 0', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 9);
    expect(await db.command({ delete: 'items', deletes: [{ q: { group: 2 }, limit: 1 }] })).toMatchObject({ n: 1 });
    expect(await db.command({ delete: 'items', deletes: [{ q: { group: 2 }, limit: 0 }] })).toMatchObject({ n: 2 });
    expect(await db.collection('items').countDocuments()).toBe(6);
  });

  it('findAndModify returns the old or new document with lastErrorObject', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 5);
    const before = await db.command({ findAndModify: 'items', query: { group: 1 }, sort: { n: -1 }, update: { $inc: { n: 100 } } });
    expect(before).toMatchObject({ lastErrorObject: { n: 1, updatedExisting: true }, value: { _id: 4, n: 4, group: 1 } });
    const upserted = await db.command({
      findAndModify: 'items',
      query: { _id: 99 },
      update: { $set: { group: 7 } },
      upsert: true,
      new: true,
      fields: { group: 1 },
    });
    expect(upserted).toMatchObject({ lastErrorObject: { n: 1, updatedExisting: false, upserted: 99 }, value: { _id: 99, group: 7 } });
    const removed = await db.command({ findAndModify: 'items', query: { _id: 0 }, remove: true });
    expect(removed).toMatchObject({ lastErrorObject: { n: 1 }, value: { _id: 0, n: 0, group: 0 } });
  });

  it('generates an ObjectId _id and stores it first when the client sends none', async () => {
    const db = mongo.freshDb();
    await db.command({ insert: 'raw', documents: [{ a: 1, b: 2 }] });
    const [doc] = await db.collection('raw').find({}).toArray();
    expect(Object.keys(doc!)).toEqual(['_id', 'a', 'b']);
    expect(doc!._id).toBeInstanceOf(ObjectId);
  });

  it('keeps BSON types through a write/read round trip', async () => {
    const db = mongo.freshDb();
    const original = {
      _id: new ObjectId(),
      int: new Int32(7),
      double: new Double(2.5),
      long: Long.fromString('9007199254740993'),
      decimal: Decimal128.fromString('0.1'),
      date: new Date('2024-01-02T03:04:05.006Z'),
      binary: new Binary(Buffer.from([1, 2, 3]), 0),
      none: null,
      nested: { list: [Long.fromNumber(1), new Int32(2)] },
    };
    await db.collection('types').insertOne(original);
    const back = await db.collection('types').findOne({}, { promoteValues: false, promoteLongs: false });
    const tags = Object.fromEntries(Object.entries(back!).map(([key, value]) => [key, value?._bsontype ?? value?.constructor?.name ?? String(value)]));
    expect(tags).toEqual({
      _id: 'ObjectId',
      int: 'Int32',
      double: 'Double',
      long: 'Long',
      decimal: 'Decimal128',
      date: 'Date',
      binary: 'Binary',
      none: 'null',
      nested: 'Object',
    });
    expect(back!.long.toString()).toBe('9007199254740993');
    expect(back!.decimal.toString()).toBe('0.1');
    expect(back!.nested.list.map((value: { _bsontype: string }) => value._bsontype)).toEqual(['Long', 'Int32']);
  });
});

describe('unique indexes through the driver', () => {
  it('rejects duplicates with code 11000, keyPattern and keyValue', async () => {
    const db = mongo.freshDb();
    const users = db.collection('users');
    expect(await users.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    await users.insertOne({ email: 'a@x' });
    const error = await users.insertOne({ email: 'a@x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({
      code: 11000,
      keyPattern: { email: 1 },
      keyValue: { email: 'a@x' },
      message: `E11000 duplicate key error collection: ${db.databaseName}.users index: email_1 dup key: { email: "a@x" }`,
    });
  });

  it('stops an ordered insertMany at the first duplicate and continues an unordered one', async () => {
    const db = mongo.freshDb();
    const items = db.collection('items');
    await items.createIndex({ sku: 1 }, { unique: true });
    const docs = [{ sku: 'a' }, { sku: 'b' }, { sku: 'a' }, { sku: 'c' }, { sku: 'b' }];

    const ordered = await items.insertMany(docs.map((doc) => ({ ...doc }))).catch((caught: unknown) => caught);
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).insertedCount).toBe(2);
    expect((ordered as MongoBulkWriteError).writeErrors).toHaveLength(1);
    expect(await items.countDocuments()).toBe(2);

    await items.deleteMany({});
    const reply = await db.command({ insert: 'items', documents: docs, ordered: false });
    expect(reply.n).toBe(3);
    expect(reply.writeErrors).toEqual([
      { index: 2, code: 11000, errmsg: expect.stringContaining('dup key: { sku: "a" }'), keyPattern: { sku: 1 }, keyValue: { sku: 'a' } },
      { index: 4, code: 11000, errmsg: expect.stringContaining('dup key: { sku: "b" }'), keyPattern: { sku: 1 }, keyValue: { sku: 'b' } },
    ]);
  });

  it('enforces uniqueness across array elements (multikey) and skips missing fields when sparse', async () => {
    const db = mongo.freshDb();
    const posts = db.collection('posts');
    await posts.createIndex({ slugs: 1 }, { unique: true, sparse: true });
    await posts.insertMany([{ slugs: ['a', 'b'] }, { title: 'no slugs' }, { title: 'none either' }]);
    await expect(posts.insertOne({ slugs: ['c', 'b'] })).rejects.toMatchObject({ code: 11000, keyValue: { slugs: 'b' } });
    await posts.insertOne({ slugs: ['c', 'd'] });
    expect(await posts.countDocuments()).toBe(4);
  });

  it('fails createIndexes over existing duplicates and leaves no index behind', async () => {
    const db = mongo.freshDb();
    await db.collection('users').insertMany([{ name: 'x' }, { name: 'x' }]);
    await expect(db.collection('users').createIndex({ name: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    expect((await db.collection('users').listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });

  it('lists and drops indexes', async () => {
    const db = mongo.freshDb();
    const posts = db.collection('posts');
    await posts.createIndexes([{ key: { postId: 1, createdAt: -1 } }, { key: { 'authors.id': 1 }, sparse: true }]);
    expect(await posts.listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { postId: 1, createdAt: -1 }, name: 'postId_1_createdAt_-1' },
      { v: 2, key: { 'authors.id': 1 }, name: 'authors.id_1', sparse: true },
    ]);
    await posts.dropIndex('postId_1_createdAt_-1');
    expect((await posts.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'authors.id_1']);
    await expect(posts.dropIndex('nope')).rejects.toMatchObject({ code: 27, codeName: 'IndexNotFound' });
    await expect(db.collection('missing').listIndexes().toArray()).rejects.toMatchObject({ code: 26 });
  });
});

describe('transactions through the driver', () => {
  it('commits atomically: nothing is visible outside until commit', async () => {
    if (skipWithoutReplicaSet()) return;
    const db = mongo.freshDb();
    const accounts = db.collection('accounts');
    await accounts.insertMany([{ _id: 'a' as never, balance: 100 }, { _id: 'b' as never, balance: 0 }]);
    const session = mongo.client.startSession();
    try {
      await session.withTransaction(async () => {
        await accounts.updateOne({ _id: 'a' as never }, { $inc: { balance: -30 } }, { session });
        await accounts.updateOne({ _id: 'b' as never }, { $inc: { balance: 30 } }, { session });
        expect((await accounts.find({}, { session }).toArray()).map((doc) => doc.balance)).toEqual([70, 30]);
        expect((await accounts.find({}).toArray()).map((doc) => doc.balance)).toEqual([100, 0]);
      });
    } finally {
      await session.endSession();
    }
    expect((await accounts.find({}).toArray()).map((doc) => doc.balance)).toEqual([70, 30]);
  });

  it('discards writes on abort', async () => {
    if (skipWithoutReplicaSet()) return;
    const db = mongo.freshDb();
    const items = db.collection('items');
    await items.insertOne({ _id: 1 as never, n: 1 });
    const session = mongo.client.startSession();
    try {
      session.startTransaction();
      await items.insertOne({ _id: 2 as never, n: 2 }, { session });
      await items.deleteOne({ _id: 1 as never }, { session });
      expect(await items.countDocuments({}, { session })).toBe(1);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await items.find({}).toArray()).toEqual([{ _id: 1, n: 1 }]);
  });

  it('reads from its snapshot while others commit', async () => {
    if (skipWithoutReplicaSet()) return;
    const db = mongo.freshDb();
    const items = db.collection('items');
    await items.insertOne({ _id: 1 as never, n: 1 });
    const session = mongo.client.startSession();
    try {
      session.startTransaction();
      expect(await items.findOne({ _id: 1 as never }, { session })).toEqual({ _id: 1, n: 1 });
      await items.updateOne({ _id: 1 as never }, { $set: { n: 2 } });
      await items.insertOne({ _id: 2 as never, n: 3 });
      expect(await items.find({}, { session }).toArray()).toEqual([{ _id: 1, n: 1 }]);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
  });

  it('fails a conflicting transaction with 112 WriteConflict + TransientTransactionError, and withTransaction retries it', async () => {
    if (skipWithoutReplicaSet()) return;
    const db = mongo.freshDb();
    const counters = db.collection('counters');
    await counters.insertOne({ _id: 'c' as never, value: 0 });
    const first = mongo.client.startSession();
    const second = mongo.client.startSession();
    try {
      first.startTransaction();
      await counters.updateOne({ _id: 'c' as never }, { $inc: { value: 1 } }, { session: first });

      let attempts = 0;
      let conflict: unknown;
      await second.withTransaction(async () => {
        attempts += 1;
        try {
          await counters.updateOne({ _id: 'c' as never }, { $inc: { value: 10 } }, { session: second });
        } catch (error) {
          conflict = error;
          // let the first transaction finish so the retry can succeed
          if (first.inTransaction()) await first.commitTransaction();
          throw error;
        }
      });
      expect(attempts).toBe(2);
      expect(conflict).toBeInstanceOf(MongoServerError);
      expect((conflict as MongoServerError).code).toBe(112);
      expect((conflict as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
    } finally {
      await first.endSession();
      await second.endSession();
    }
    expect(await counters.findOne({ _id: 'c' as never })).toEqual({ _id: 'c', value: 11 });
  });

  it('answers 251 NoSuchTransaction for an operation in an unknown transaction', async () => {
    if (skipWithoutReplicaSet()) return;
    const db = mongo.freshDb();
    const session = mongo.client.startSession();
    try {
      const lsid = session.id!;
      await expect(
        db.command({ find: 'items', filter: {}, lsid, txnNumber: Long.fromNumber(41), autocommit: false }),
      ).rejects.toMatchObject({ code: 251, codeName: 'NoSuchTransaction', errorLabels: ['TransientTransactionError'] });
    } finally {
      await session.endSession();
    }
  });
});

describe('copy-on-write isolation (embedded internals)', () => {
  embeddedOnly('an open cursor keeps returning the documents as they were when it was opened', async () => {
    const db = mongo.freshDb();
    await seed(db, 'items', 5);
    const cursor = db.collection('items').find({}, { batchSize: 2 });
    expect((await cursor.next())!.n).toBe(0);
    await db.collection('items').updateMany({}, { $set: { n: -1 } });
    const rest = await cursor.toArray();
    expect(rest.map((doc) => doc.n)).toEqual([1, 2, 3, 4]);
  });

  it('aggregation stages never change stored documents', async () => {
    const db = mongo.freshDb();
    await db.collection('items').insertOne({ _id: 1 as never, tags: ['a'], nested: { x: 1 } });
    await db
      .collection('items')
      .aggregate([{ $set: { 'nested.x': 2, extra: true } }, { $unwind: '$tags' }, { $project: { tags: 0 } }])
      .toArray();
    expect(await db.collection('items').findOne({ _id: 1 as never })).toEqual({ _id: 1, tags: ['a'], nested: { x: 1 } });
  });
});
