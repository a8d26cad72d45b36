import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../../src/embedded-mongo';
import { connectMongo } from '../../src/gateway/request/mongo/mongo-funnel';

/** A MongoDB for one test file: the real one at MONGODB_URI when set, else a fresh embedded server. */
export interface TestMongo {
  readonly uri: string;
  readonly client: MongoClient;
  readonly isEmbedded: boolean;
  /** A database whose name is unique to this test run, so files never see each other's data. */
  freshDb(prefix?: string): Db;
  stop(): Promise<void>;
}

export async function startTestMongo(options: { latencyMs?: number } = {}): Promise<TestMongo> {
  const external = process.env.MONGODB_URI;
  const embedded = external ? null : await startEmbeddedMongo({ port: 0, latencyMs: options.latencyMs ?? 0 });
  const uri = external ?? embedded!.uri;
  const client = await MongoClient.connect(uri);
  const created: Db[] = [];
  return {
    uri,
    client,
    isEmbedded: embedded !== null,
    freshDb(prefix = 'test') {
      const db = client.db(`${prefix}_${randomBytes(4).toString('hex')}`);
      created.push(db);
      return db;
    },
    async stop() {
      if (external) await Promise.all(created.map((db) => db.dropDatabase().catch(() => undefined)));
      await client.close();
      await embedded?.stop();
    },
  };
}

/** The test file's MongoDB and a client as the gateway needs it (connectMongo: command monitoring on). */
export interface FileMongo {
  readonly mongo: TestMongo;
  readonly client: MongoClient;
}

/** Starts a MongoDB and its gateway client before the file's tests and closes both after them (registers beforeAll/afterAll). */
export function mongoForFile(): FileMongo {
  const started: { mongo?: TestMongo; client?: MongoClient } = {};
  beforeAll(async () => {
    started.mongo = await startTestMongo();
    started.client = await connectMongo(started.mongo.uri);
  }, 60_000);
  afterAll(async () => {
    await started.client?.close();
    await started.mongo?.stop();
  });
  return {
    get mongo() {
      return started.mongo!;
    },
    get client() {
      return started.client!;
    },
  };
}
