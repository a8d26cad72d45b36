import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BSON, Binary, Decimal128, Double, Int32, Long, MongoClient, ObjectId, Timestamp, type Db, type Document } from 'mongodb';
import { freePort } from './support/free-port';

/**
 * `npm run mongo -- --data-dir DIR` as a child process, killed with SIGKILL and started again on the
 * same port and directory: every acknowledged change is there exactly (documents with their BSON
 * types and natural order, collection options, views, index definitions), and nothing a
 * transaction had not committed.
 */
const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'src/embedded-mongo/cli.ts');

interface RunningServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly uri: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
}

const dirs: string[] = [];
const running = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docjoin-durable-'));
  dirs.push(dir);
  return dir;
}

async function startServer(args: string[]): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const uri = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('mongodb://'));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${String(code)}) before printing a URI: ${stderr}`)));
  });
  return { child, uri, stderr: () => stderr };
}

/** Documents with a numeric or string `_id` (the driver's default document type says ObjectId). */
type Row = Document & { _id?: number | string };

async function kill(server: RunningServer): Promise<void> {
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  await exited;
  running.delete(server.child);
}

/** A short server selection timeout: closing a client whose server was killed must not wait 30 s. */
async function connect(uri: string): Promise<MongoClient> {
  return MongoClient.connect(uri, { serverSelectionTimeoutMS: 2_000 });
}

/** Decoded unpromoted, Int32, Double, Long and Binary values keep their BSON types in a dump. */
const EXACT_TYPES = { promoteValues: false, promoteLongs: false, promoteBuffers: false } as const;

/** A database as canonical Extended JSON: its collections and views (without UUIDs), indexes and documents in natural order. */
async function dump(db: Db): Promise<string> {
  const collections = (await db.listCollections({}, EXACT_TYPES).toArray()).map(({ info, ...entry }: { info?: { readOnly?: boolean }; name: string; type?: string }) => ({
    ...entry,
    readOnly: info?.readOnly,
  }));
  const contents: Record<string, unknown> = {};
  for (const { name, type } of collections) {
    if (type !== 'collection') continue;
    contents[name] = {
      indexes: await db.collection(name).listIndexes(EXACT_TYPES).toArray(),
      documents: await db.collection(name).find({}, EXACT_TYPES).toArray(),
    };
  }
  return BSON.EJSON.stringify({ collections, contents }, undefined, 1, { relaxed: false });
}

describe('npm run mongo -- --data-dir (durable storage)', () => {
  it('keeps every acknowledged change across a SIGKILL, and nothing uncommitted', async () => {
    const dir = dataDir();
    const port = await freePort();
    const first = await startServer(['--port', String(port), '--data-dir', dir]);
    const client = await connect(first.uri);
    const app = client.db('app');
    const people = app.collection<Row>('people');

    await app.createCollection('people', { collation: { locale: 'fr', strength: 2 } });
    await people.createIndexes([
      { key: { email: 1 }, name: 'email_1', unique: true },
      { key: { 'address.city': 1, age: -1 }, name: 'city_age', sparse: true },
      { key: { nick: 1 }, name: 'nick_1', partialFilterExpression: { nick: { $exists: true } } },
      { key: { temporary: 1 }, name: 'temporary_1' },
    ]);
    await people.insertMany([
      {
        _id: 1,
        email: 'ann@x',
        age: new Int32(34),
        score: new Double(1),
        ratio: 0.25,
        balance: Decimal128.fromString('10.10'),
        visits: Long.fromString('9007199254740993'),
        since: new Date('2020-02-29T12:00:00Z'),
        avatar: new Binary(Buffer.from([1, 2, 3]), 0x80),
        pattern: /^a.*z$/i,
        stamp: new Timestamp({ t: 7, i: 1 }),
        ref: new ObjectId('65a1b2c3d4e5f60718293a4b'),
        address: { city: 'Paris', geo: [2.35, 48.85] },
        tags: ['a', null, { nested: [] }],
      },
      { _id: 2, email: 'bob@x', age: 17 },
      { _id: 3, email: 'cy@x', age: 50 },
      { _id: 4, email: 'dee@x', age: 40 },
      { _id: 5, email: 'eve@x', age: 22 },
    ]);
    await people.updateOne({ _id: 2 }, { $set: { 'address.city': 'Lyon' }, $inc: { age: 1 } });
    await people.replaceOne({ _id: 3 }, { email: 'cy@x', replaced: true });
    await people.deleteOne({ _id: 4 });
    await people.findOneAndUpdate({ _id: 1 }, { $push: { tags: 'new' } } as Document);
    await people.dropIndex('temporary_1');
    await app.createCollection('adults', { viewOn: 'people', pipeline: [{ $match: { age: { $gte: 18 } } }], collation: { locale: 'fr', strength: 2 } });
    await app.createCollection('dropped');
    await app.collection('dropped').drop();
    await client.db('scratch').collection<Row>('things').insertOne({ _id: 1 });
    await client.db('scratch').dropDatabase();
    await people.aggregate([{ $match: { age: { $gte: 18 } } }, { $project: { email: 1 } }, { $out: 'adultEmails' }]).toArray();
    await app.collection<Row>('ledger').insertOne({ _id: 'opening', amount: Decimal128.fromString('100') });

    const committed = client.startSession();
    await committed.withTransaction(async () => {
      await people.insertOne({ _id: 10, email: 'tx@x' }, { session: committed });
      await people.deleteOne({ _id: 5 }, { session: committed });
      await app.collection<Row>('ledger').insertOne({ _id: 'tx', amount: Decimal128.fromString('-5.5') }, { session: committed });
    });
    await committed.endSession();
    const aborted = client.startSession();
    aborted.startTransaction();
    await people.insertOne({ _id: 20, email: 'aborted@x' }, { session: aborted });
    await aborted.abortTransaction();
    // still open when the server dies: never committed, so never acknowledged as a write
    const open = client.startSession();
    open.startTransaction();
    await people.insertOne({ _id: 21, email: 'open@x' }, { session: open });
    await app.collection<Row>('ledger').updateOne({ _id: 'opening' }, { $set: { amount: Decimal128.fromString('0') } }, { session: open });

    const before = await dump(app);
    await kill(first);
    await client.close(true).catch(() => undefined);

    const second = await startServer(['--port', String(port), '--data-dir', dir]);
    expect(second.uri).toBe(first.uri);
    const reconnected = await connect(second.uri);
    try {
      const restored = reconnected.db('app');
      expect(await dump(restored)).toBe(before);
      expect((await restored.collection<Row>('people').find().toArray()).map((doc) => doc._id)).toEqual([1, 2, 3, 10]);
      expect(await restored.collection<Row>('ledger').find().toArray()).toEqual([
        { _id: 'opening', amount: Decimal128.fromString('100') },
        { _id: 'tx', amount: Decimal128.fromString('-5.5') },
      ]);
      expect((await restored.collection<Row>('people').listIndexes().toArray()).map(({ v: _v, ...index }) => index)).toEqual([
        { key: { _id: 1 }, name: '_id_' },
        { key: { email: 1 }, name: 'email_1', unique: true },
        { key: { 'address.city': 1, age: -1 }, name: 'city_age', sparse: true },
        { key: { nick: 1 }, name: 'nick_1', partialFilterExpression: { nick: { $exists: true } } },
      ]);
      // the default collation still applies (strength 2 ignores case), and the view still runs
      expect(await restored.collection<Row>('people').countDocuments({ email: 'ANN@X' })).toBe(1);
      expect((await restored.collection('adults').find().toArray()).map((doc) => doc._id)).toEqual([1, 2]);
      expect(await reconnected.db('admin').admin().listDatabases({ nameOnly: true })).toMatchObject({ databases: [{ name: 'app' }] });
      // the unique index is enforced again
      await expect(restored.collection<Row>('people').insertOne({ email: 'bob@x' })).rejects.toMatchObject({ code: 11000 });
    } finally {
      await reconnected.close();
      await kill(second);
    }
  });

  it('answers a commitTransaction retried after a restart as committed, and applies the transaction once', async () => {
    // A driver sends commitTransaction again when its reply is lost (and when asked to commit again); a
    // server that restarted in between must still know the transaction committed (MongoDB's
    // config.transactions), or the client runs the transaction a second time.
    const dir = dataDir();
    const port = await freePort();
    let server = await startServer(['--port', String(port), '--data-dir', dir]);
    // One client throughout, as a gateway keeps it: it reconnects to the restarted server.
    const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 30_000 });
    const counters = client.db('app').collection<Row>('counters');
    const session = client.startSession();
    try {
      await counters.insertOne({ _id: 'c', n: 0 });
      session.startTransaction();
      await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { session });
      await session.commitTransaction();
      // Twice: the first restart replays the journal and compacts it into the snapshot, the second reads the snapshot.
      for (const restart of [1, 2]) {
        await kill(server);
        server = await startServer(['--port', String(port), '--data-dir', dir]);
        await expect(session.commitTransaction()).resolves.toBeUndefined();
        expect([restart, await counters.findOne({ _id: 'c' })]).toEqual([restart, { _id: 'c', n: 1 }]);
      }
    } finally {
      await session.endSession().catch(() => undefined);
      await client.close(true).catch(() => undefined);
      await kill(server);
    }
  });

  it('ignores a journal record cut off mid-write, and journals on after it', async () => {
    const dir = dataDir();
    const first = await startServer(['--data-dir', dir, '--fsync']);
    let client = await connect(first.uri);
    await client.db('app').collection<Row>('things').insertOne({ _id: 'kept' });
    await client.db('app').collection<Row>('things').insertOne({ _id: 'cut' });
    await kill(first);
    await client.close(true).catch(() => undefined);

    // as if the kill had come while the last record was being written
    const journal = path.join(dir, 'journal');
    truncateSync(journal, statSync(journal).size - 10);

    const second = await startServer(['--data-dir', dir]);
    expect(second.stderr()).toContain('embedded-mongo: ignored an incomplete record at the end of the journal (');
    client = await connect(second.uri);
    expect(await client.db('app').collection<Row>('things').find().toArray()).toEqual([{ _id: 'kept' }]);
    await client.db('app').collection<Row>('things').insertOne({ _id: 'after' });
    await kill(second);
    await client.close(true).catch(() => undefined);

    const third = await startServer(['--data-dir', dir]);
    client = await connect(third.uri);
    try {
      expect(third.stderr()).toBe('');
      expect(await client.db('app').collection<Row>('things').find().toArray()).toEqual([{ _id: 'kept' }, { _id: 'after' }]);
    } finally {
      await client.close();
      await kill(third);
    }
  });

  it('compacts the journal into the snapshot on start, keeping the data', async () => {
    const dir = dataDir();
    const journal = path.join(dir, 'journal');
    const first = await startServer(['--data-dir', dir]);
    const emptyJournalBytes = statSync(journal).size;
    let client = await connect(first.uri);
    const docs = Array.from({ length: 300 }, (_, i) => ({ _id: i, group: i % 7, label: `item ${i}` }));
    await client.db('app').collection<Row>('items').insertMany(docs);
    await client.db('app').collection('items').createIndex({ group: 1 });
    await client.db('app').collection('items').deleteMany({ group: 0 });
    await kill(first);
    await client.close(true).catch(() => undefined);
    expect(statSync(journal).size).toBeGreaterThan(emptyJournalBytes);

    for (let restart = 0; restart < 2; restart++) {
      const server = await startServer(['--data-dir', dir]);
      expect(statSync(journal).size).toBe(emptyJournalBytes);
      client = await connect(server.uri);
      try {
        const items = client.db('app').collection('items');
        expect(await items.find().toArray()).toEqual(docs.filter((doc) => doc.group !== 0));
        expect((await items.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'group_1']);
      } finally {
        await client.close();
        await kill(server);
      }
    }
  });

  it('rejects --data-dir without a directory and --fsync without --data-dir, in one line', async () => {
    const run = async (args: string[]): Promise<{ code: number | null; stderr: string }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, stderr };
    };
    expect(await run(['--data-dir'])).toEqual({ code: 2, stderr: "embedded-mongo: --data-dir needs a directory, got ''\n" });
    expect(await run(['--fsync'])).toEqual({ code: 2, stderr: 'embedded-mongo: --fsync needs --data-dir\n' });
  });
});
