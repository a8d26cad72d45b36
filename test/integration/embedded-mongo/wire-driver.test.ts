import { Long, ObjectId } from 'bson';
import { MongoClient, MongoServerError, type CommandStartedEvent, type ServerDescription, type ServerHeartbeatSucceededEvent } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';

/**
 * The embedded server as the official driver sees it: handshake, connection-level commands and
 * errors. These describe this server's own identity (replica set "docjoin"), so they run only
 * against the embedded server, never against MONGODB_URI.
 */
describe('embedded server through the mongodb driver', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let host: string;
  const started: CommandStartedEvent[] = [];
  const descriptions: ServerDescription[] = [];

  beforeAll(async () => {
    server = await startEmbeddedMongo({ port: 0 });
    host = new URL(server.uri).host;
    client = new MongoClient(server.uri, { monitorCommands: true });
    client.on('commandStarted', (event) => started.push(event));
    client.on('serverDescriptionChanged', (event) => descriptions.push(event.newDescription));
    await client.connect();
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('uses the documented URI shape with a real port', () => {
    expect(server.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true$/);
    expect(Number(new URL(server.uri).port)).toBeGreaterThan(0);
  });

  it('answers ping with ok: 1', async () => {
    expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('advertises the primary of a one-member replica set named docjoin in hello', async () => {
    const hello = await client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({
      hosts: [host],
      setName: 'docjoin',
      setVersion: 1,
      isWritablePrimary: true,
      secondary: false,
      primary: host,
      me: host,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      logicalSessionTimeoutMinutes: 30,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ok: 1,
    });
    expect(hello.ismaster).toBeUndefined();
    expect(hello.topologyVersion.processId).toBeInstanceOf(ObjectId);
    expect(hello.electionId.toHexString()).toBe('7fffffff0000000000000001');
    expect(hello.localTime).toBeInstanceOf(Date);
    expect(Number.isInteger(hello.connectionId) && hello.connectionId > 0).toBe(true);
    expect(hello.lastWrite.lastWriteDate).toBeInstanceOf(Date);
  });

  it('answers the legacy isMaster with ismaster: true and echoes helloOk', async () => {
    const reply = await client.db('admin').command({ isMaster: 1, helloOk: true });
    expect(reply).toMatchObject({ ismaster: true, helloOk: true, setName: 'docjoin', maxWireVersion: 21 });
    expect(reply.isWritablePrimary).toBeUndefined();
    const lower = await client.db('admin').command({ ismaster: 1 });
    expect(lower.ismaster).toBe(true);
    expect(lower.helloOk).toBeUndefined();
  });

  it('is seen by the driver as a replica-set primary, so sessions get an lsid', async () => {
    const description = descriptions.at(-1);
    expect(description).toMatchObject({ type: 'RSPrimary', setName: 'docjoin', maxWireVersion: 21, logicalSessionTimeoutMinutes: 30 });
    const session = client.startSession();
    try {
      started.length = 0;
      await client.db('admin').command({ ping: 1 }, { session });
      const ping = started.find((event) => event.commandName === 'ping');
      expect(ping?.command.lsid?.id).toBeDefined();
    } finally {
      await session.endSession();
    }
  });

  it('fails an unknown command with 59 CommandNotFound', async () => {
    const error = await client
      .db('test')
      .command({ definitelyNotACommand: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound', message: "no such command: 'definitelyNotACommand'" });
  });

  it('answers a URI with a user and password by saying it has no authentication', async () => {
    const withPassword = new MongoClient(server.uri.replace('mongodb://', 'mongodb://reader:secret@'), { serverSelectionTimeoutMS: 2000 });
    try {
      await expect(withPassword.connect()).rejects.toThrow(
        `docjoin's embedded MongoDB has no authentication: remove the user name and password from the URI (mongodb://${host}/)`,
      );
    } finally {
      await withPassword.close();
    }
  });

  it('does not resolve Object.prototype names as commands', async () => {
    await expect(client.db('test').command({ constructor: 1 })).rejects.toMatchObject({ code: 59 });
  });

  it('reports version 7.0.0 in buildInfo', async () => {
    const info = await client.db('admin').command({ buildInfo: 1 });
    expect(info).toMatchObject({ version: '7.0.0', versionArray: [7, 0, 0, 0], bits: 64, ok: 1 });
  });

  it('answers getParameter for featureCompatibilityVersion and rejects unknown parameters with 72', async () => {
    expect(await client.db('admin').command({ getParameter: 1, featureCompatibilityVersion: 1 })).toEqual({
      featureCompatibilityVersion: { version: '7.0' },
      ok: 1,
    });
    await expect(client.db('admin').command({ getParameter: 1, noSuchParameter: 1 })).rejects.toMatchObject({
      code: 72,
      codeName: 'InvalidOptions',
    });
    const all = await client.db('admin').command({ getParameter: '*' });
    expect(all.featureCompatibilityVersion).toEqual({ version: '7.0' });
  });

  it('answers the informational commands shells send', async () => {
    const admin = client.db('admin');
    const whoami = await admin.command({ whatsmyuri: 1 });
    expect(whoami.you).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await admin.command({ connectionStatus: 1 })).toEqual({
      authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
      ok: 1,
    });
    expect(await admin.command({ getLog: '*' })).toEqual({ names: ['global', 'startupWarnings'], ok: 1 });
    expect((await admin.command({ hostInfo: 1 })).system.cpuAddrSize).toBe(64);
    expect(await admin.command({ getCmdLineOpts: 1 })).toEqual({ argv: ['embedded-mongo'], parsed: {}, ok: 1 });
    const status = await admin.command({ serverStatus: 1 });
    expect(status.version).toBe('7.0.0');
    expect(status.connections.current).toBeGreaterThanOrEqual(1);
  });

  it('keeps Long as Int64 in replies (promoteLongs off on both sides)', async () => {
    const reply = await client.db('admin').command({ hello: 1 }, { promoteLongs: false });
    expect(reply.topologyVersion.counter).toBeInstanceOf(Long);
    expect(reply.lastWrite.opTime.t).toBeInstanceOf(Long);
  });
});

describe('server monitoring', () => {
  it('serves the driver’s streaming (awaitable) hello without heartbeat failures', async () => {
    const server = await startEmbeddedMongo();
    // 500 ms is the driver's minimum heartbeat interval.
    const client = new MongoClient(server.uri, { heartbeatFrequencyMS: 500 });
    const succeeded: ServerHeartbeatSucceededEvent[] = [];
    let failed = 0;
    client.on('serverHeartbeatSucceeded', (event) => succeeded.push(event));
    client.on('serverHeartbeatFailed', () => failed++);
    try {
      await client.connect();
      await new Promise((resolve) => setTimeout(resolve, 1700));
      await client.db('admin').command({ ping: 1 });
      expect(failed).toBe(0);
      expect(succeeded.filter((event) => event.awaited).length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('startEmbeddedMongo options', () => {
  it('rejects a bad port or latency, naming the option', async () => {
    await expect(startEmbeddedMongo({ port: -1 })).rejects.toThrow('option "port" must be an integer from 0 to 65535, got -1');
    await expect(startEmbeddedMongo({ latencyMs: Number.NaN })).rejects.toThrow('option "latencyMs" must be a number ≥ 0, got NaN');
  });

  it('stops with clients still connected, and a second stop resolves too', async () => {
    const server = await startEmbeddedMongo();
    const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 500 });
    await server.stop();
    await server.stop();
    await expect(client.db('admin').command({ ping: 1 })).rejects.toThrow();
    await client.close();
  });
});

describe('large messages through the driver (needs the storage commands)', () => {
  // Driver 7 sends insert's `documents` as an OP_MSG kind-1 section; 20,000 × ~230 bytes spans many TCP chunks.
  it('carries a multi-megabyte insertMany (a kind-1 document sequence) and its read-back intact', async () => {
    const server = await startEmbeddedMongo();
    const client = await MongoClient.connect(server.uri);
    try {
      const docs = Array.from({ length: 20_000 }, (_, i) => ({ _id: i, payload: 'x'.repeat(200), big: Long.fromNumber(i) }));
      const collection = client.db('wire').collection<{ _id: number; payload: string; big: Long }>('large');
      const result = await collection.insertMany(docs);
      expect(result.insertedCount).toBe(20_000);
      const back = await collection.find({}, { promoteLongs: false }).sort({ _id: 1 }).toArray();
      expect(back).toHaveLength(20_000);
      expect(back[19_999]).toEqual({ _id: 19_999, payload: 'x'.repeat(200), big: Long.fromNumber(19_999) });
      expect(back.every((doc, i) => doc._id === i && doc.payload.length === 200)).toBe(true);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('connecting as a replica set (?replicaSet=docjoin)', () => {
  // The issue: connect "with directConnection=true or replicaSet=…, whichever the server advertises".
  it('discovers the one-member set "docjoin" and runs a transaction through it', async () => {
    const server = await startEmbeddedMongo();
    const client = new MongoClient(`mongodb://${new URL(server.uri).host}/?replicaSet=docjoin`, { serverSelectionTimeoutMS: 3000 });
    let topologyType: string | undefined;
    client.on('topologyDescriptionChanged', (event) => (topologyType = event.newDescription.type));
    try {
      await client.connect();
      const items = client.db('rs').collection<{ _id: number; v: string }>('items');
      await items.insertOne({ _id: 0, v: 'before' });
      const session = client.startSession();
      try {
        await session.withTransaction(async () => {
          await items.insertOne({ _id: 1, v: 'in txn' }, { session });
          await items.updateOne({ _id: 0 }, { $set: { v: 'changed in txn' } }, { session });
        });
      } finally {
        await session.endSession();
      }
      expect(topologyType).toBe('ReplicaSetWithPrimary');
      expect(await items.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 0, v: 'changed in txn' },
        { _id: 1, v: 'in txn' },
      ]);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
