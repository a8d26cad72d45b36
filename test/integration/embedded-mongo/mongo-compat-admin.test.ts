/**
 * Connection-level and catalog commands as an application (or the driver itself) sends them:
 * hello/isMaster, ping, buildInfo, getParameter, endSessions, listDatabases, listCollections,
 * create, drop, dropDatabase, and an unknown command. Runs unchanged against MONGODB_URI.
 */
import { connect, type Socket } from 'node:net';
import { MongoClient, type Document } from 'mongodb';
import { expectServerError, recordCommands, singleHostAddress, useCompatDatabase, useReplicaSetGuard } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_admin');
const { skipWithoutReplicaSet } = useReplicaSetGuard(() => ({ db: ctx.db, isEmbedded: ctx.mongo.isEmbedded }));

describe('handshake commands', () => {
  test('hello reports a writable primary with MongoDB 7 wire limits', async () => {
    const hello = await ctx.db.admin().command({ hello: 1 });
    expect(hello.ok).toBe(1);
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(hello.maxMessageSizeBytes).toBe(48_000_000);
    expect(hello.maxWriteBatchSize).toBe(100_000);
    expect(hello.minWireVersion).toBe(0);
    // MongoDB docs, "Wire version": 7.0 is maxWireVersion 21.
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(21);
    expect(hello.localTime).toBeInstanceOf(Date);
    expect(typeof hello.connectionId).toBe('number');
    expect(hello.logicalSessionTimeoutMinutes).toBeGreaterThan(0);
  });

  test('hello of a replica-set member names the set and itself as primary', async () => {
    const hello = await ctx.db.admin().command({ hello: 1 });
    if (ctx.mongo.isEmbedded) expect(hello.setName).toBe('docjoin');
    if (hello.setName === undefined) return; // a real standalone MongoDB: nothing more to check
    expect(hello.secondary).toBe(false);
    expect(hello.primary).toBe(hello.me);
    expect(hello.hosts).toContain(hello.me);
    expect(typeof hello.setVersion).toBe('number');
  });

  test('legacy isMaster answers with ismaster: true', async () => {
    const reply = await ctx.db.admin().command({ isMaster: 1 });
    expect(reply.ok).toBe(1);
    expect(reply.ismaster).toBe(true);
    expect(reply.maxWireVersion).toBeGreaterThanOrEqual(21);
  });

  test('ping answers ok: 1', async () => {
    expect(await ctx.db.admin().command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(await ctx.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  test('buildInfo reports a 7.x version string and a matching versionArray', async () => {
    const info = await ctx.db.admin().command({ buildInfo: 1 });
    expect(info.ok).toBe(1);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    const [major, minor, patch] = String(info.version).split(/[.-]/).map(Number);
    expect(major).toBeGreaterThanOrEqual(7);
    expect(info.versionArray.slice(0, 3).map(Number)).toEqual([major, minor, patch]);
    expect(info.maxBsonObjectSize).toBe(16 * 1024 * 1024);
  });

  test('getParameter returns featureCompatibilityVersion', async () => {
    const reply = await ctx.db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(reply.ok).toBe(1);
    expect(reply.featureCompatibilityVersion.version).toMatch(/^\d+\.\d+$/);
    expect(Number(String(reply.featureCompatibilityVersion.version).split('.')[0])).toBeGreaterThanOrEqual(7);
  });

  test('endSessions acknowledges sessions the server has seen', async () => {
    const session = ctx.mongo.client.startSession();
    await ctx.db.collection('sessions_probe').findOne({}, { session });
    const lsid = session.id;
    await session.endSession();
    expect(lsid).toBeDefined();
    expect(await ctx.db.admin().command({ endSessions: [lsid!] })).toMatchObject({ ok: 1 });
  });

  test('endSessions ends the session\'s open transaction (the embedded server at once)', async () => {
    if (skipWithoutReplicaSet()) return;
    await ctx.db.createCollection('sessions_txn');
    const session = ctx.mongo.client.startSession();
    try {
      session.startTransaction();
      await ctx.db.collection('sessions_txn').insertOne({ _id: 'pending' } as Document, { session });
      expect(await ctx.db.admin().command({ endSessions: [session.id!] })).toMatchObject({ ok: 1 });
      if (!ctx.mongo.isEmbedded) {
        // MongoDB docs, "endSessions": it marks the session expired; the server's session cache then
        // kills it at its next refresh (logicalSessionRefreshMillis, 5 minutes), so a real server
        // may still commit here. Nothing more is certain on a real server.
        await session.abortTransaction();
        return;
      }
      await expectServerError(session.commitTransaction(), 251, 'NoSuchTransaction');
      expect(await ctx.db.collection('sessions_txn').countDocuments()).toBe(0);
    } finally {
      await session.endSession();
    }
  });

  test('closing a client sends endSessions and the server keeps serving other clients', async () => {
    const recorder = await recordCommands(ctx.mongo.uri, 'admin');
    const session = recorder.client.startSession();
    await recorder.client.db(ctx.db.databaseName).collection('sessions_probe').findOne({}, { session });
    await session.endSession();
    await recorder.close();
    expect(recorder.started('endSessions')).toHaveLength(1);
    expect(await ctx.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });
});

describe('unknown commands', () => {
  test('an unknown command fails with 59 CommandNotFound and the connection stays usable', async () => {
    const error = await expectServerError(ctx.db.command({ notARealCommand: 1 }), 59, 'CommandNotFound');
    expect(error.errmsg).toMatch(/no such command/);
    expect(await ctx.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });
});

describe('databases and collections', () => {
  test('listDatabases lists a database once it has a collection, with nameOnly and filter', async () => {
    const db = ctx.mongo.freshDb('compat_listdb');
    await db.collection('c').insertOne({ a: 1 });
    const all = await ctx.db.admin().listDatabases();
    expect(all.databases.map((d) => d.name)).toContain(db.databaseName);
    const filtered = await ctx.db.admin().command({ listDatabases: 1, nameOnly: true, filter: { name: db.databaseName } });
    expect(filtered.databases).toEqual([{ name: db.databaseName }]);
  });

  test('create makes an empty collection that listCollections reports', async () => {
    const db = ctx.mongo.freshDb('compat_create');
    await db.createCollection('alpha');
    await db.createCollection('beta');
    const infos = await db.listCollections().toArray();
    expect(infos.map((info) => info.name).sort()).toEqual(['alpha', 'beta']);
    for (const info of infos) expect(info.type).toBe('collection');
    expect(await db.collection('alpha').countDocuments()).toBe(0);
  });

  test('listCollections honours filter and nameOnly', async () => {
    const db = ctx.mongo.freshDb('compat_listcoll');
    await db.collection('one').insertOne({});
    await db.collection('two').insertOne({});
    const filtered = await db.listCollections({ name: 'two' }).toArray();
    expect(filtered.map((info) => info.name)).toEqual(['two']);
    const namesOnly = await db.listCollections({}, { nameOnly: true }).toArray();
    expect(namesOnly.map((info) => info.name).sort()).toEqual(['one', 'two']);
  });

  test('listCollections and listIndexes page through getMore in the session that opened their cursors', async () => {
    const db = ctx.mongo.freshDb('compat_listpages');
    for (const name of ['a', 'b', 'c', 'd', 'e']) await db.collection(name).insertOne({});
    await db.collection('a').createIndexes([{ key: { x: 1 } }, { key: { y: 1 } }, { key: { z: 1 } }]);
    const collections = await db.listCollections({}, { nameOnly: true, batchSize: 2 }).toArray();
    expect(collections.map((info) => info.name).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    const indexes = await db.collection('a').listIndexes({ batchSize: 1 }).toArray();
    expect(indexes.map((index) => index.name).sort()).toEqual(['_id_', 'x_1', 'y_1', 'z_1']);
  });

  test('an insert creates its collection implicitly', async () => {
    const db = ctx.mongo.freshDb('compat_implicit');
    expect(await db.listCollections().toArray()).toEqual([]);
    await db.collection('made_by_insert').insertOne({ x: 1 });
    expect((await db.listCollections().toArray()).map((info) => info.name)).toEqual(['made_by_insert']);
  });

  test('create on an existing collection: same options succeed, different options fail with 48', async () => {
    // MongoDB jstests core/ddl/create_collection.js: "Creating a collection that already exists with
    // the same options reports success ... with different options reports failure" (NamespaceExists).
    const db = ctx.mongo.freshDb('compat_create_twice');
    await db.createCollection('twice');
    await db.command({ create: 'twice' });
    await expectServerError(
      db.command({ create: 'twice', validator: { a: { $type: 'string' } } }),
      48,
      'NamespaceExists',
    );
  });

  test('drop removes a collection and its documents', async () => {
    const db = ctx.mongo.freshDb('compat_drop');
    await db.collection('doomed').insertMany([{ a: 1 }, { a: 2 }]);
    await db.collection('kept').insertOne({ a: 3 });
    expect(await db.collection('doomed').drop()).toBe(true);
    expect((await db.listCollections().toArray()).map((info) => info.name)).toEqual(['kept']);
    expect(await db.collection('doomed').countDocuments()).toBe(0);
  });

  test('drop of a missing collection succeeds (MongoDB 7.0+)', async () => {
    // MongoDB 7.0 release notes / SERVER-43894: dropping a non-existent collection is a no-op, not NamespaceNotFound.
    const reply = await ctx.db.command({ drop: 'never_existed' });
    expect(reply.ok).toBe(1);
  });

  test('dropDatabase removes every collection and the database from listDatabases', async () => {
    const db = ctx.mongo.freshDb('compat_dropdb');
    await db.collection('a').insertOne({});
    await db.collection('b').insertOne({});
    expect(await db.dropDatabase()).toBe(true);
    expect(await db.listCollections().toArray()).toEqual([]);
    const names = (await ctx.db.admin().listDatabases({ nameOnly: true })).databases.map((d) => d.name);
    expect(names).not.toContain(db.databaseName);
    expect(await db.collection('a').findOne({})).toBeNull();
  });
});

describe('unacknowledged writes (OP_MSG moreToCome)', () => {
  test('a w:0 insert gets no reply, so later replies on the same connection still match their requests', async () => {
    // MongoDB docs, "OP_MSG": with moreToCome set the server must not reply. maxPoolSize 1 keeps
    // every command on one connection, where a stray reply would be read as the next command's answer.
    const client = await MongoClient.connect(ctx.mongo.uri, { maxPoolSize: 1 });
    try {
      const coll = client.db(ctx.db.databaseName).collection('unacknowledged');
      await coll.insertOne({ _id: 'w0' as never, n: 1 }, { writeConcern: { w: 0 } });
      expect(await client.db(ctx.db.databaseName).command({ ping: 1 })).toMatchObject({ ok: 1 });
      expect(await coll.findOne({ _id: 'w0' as never })).toEqual({ _id: 'w0', n: 1 });
      expect(await coll.countDocuments()).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('malformed messages', () => {
  /** Opens a raw TCP connection, writes `bytes`, and resolves true if the server closes it within 5 s. */
  async function serverCloses(bytes: Buffer): Promise<boolean> {
    const address = singleHostAddress(ctx.mongo.uri)!;
    const socket: Socket = connect(address.port, address.host);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    socket.write(bytes);
    const result = await closed;
    socket.destroy();
    return result;
  }

  /** A 16-byte message header: messageLength, requestID, responseTo, opCode. */
  const header = (messageLength: number, opCode = 2013) => {
    const bytes = Buffer.alloc(16);
    bytes.writeInt32LE(messageLength, 0);
    bytes.writeInt32LE(1, 4);
    bytes.writeInt32LE(0, 8);
    bytes.writeInt32LE(opCode, 12);
    return bytes;
  };

  test.each<[string, Buffer]>([
    ['an oversized messageLength (beyond maxMessageSizeBytes)', header(0x7ffffff0)],
    ['a messageLength shorter than the header', header(4)],
  ])('%s closes only that connection; other clients keep working', async (_label, bytes) => {
    if (!singleHostAddress(ctx.mongo.uri)) {
      console.warn('skipped: MONGODB_URI is not a single-host mongodb:// URI, so no raw socket can be opened');
      return;
    }
    expect(await serverCloses(bytes)).toBe(true);
    expect(await ctx.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(await ctx.db.collection('after_garbage').countDocuments()).toBe(0);
  });
});

describe('a second, independent client', () => {
  test('sees what the first one wrote (no per-connection state)', async () => {
    const other = await MongoClient.connect(ctx.mongo.uri);
    try {
      const coll = ctx.db.collection('shared');
      await coll.insertOne({ _id: 'shared-1' as never, v: 1 });
      expect(await other.db(ctx.db.databaseName).collection('shared').findOne({ _id: 'shared-1' as never })).toEqual({
        _id: 'shared-1',
        v: 1,
      });
    } finally {
      await other.close();
    }
  });
});
