import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../../src/embedded-mongo';

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
