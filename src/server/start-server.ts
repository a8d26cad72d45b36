import { redactUri, type DocjoinConfig } from '../config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../embedded-mongo';
import { connectMongo, createGateway, type Gateway, type MongoClient } from '../gateway';
import type { DemoCollectionName } from '../seed/demo-documents';
import { seedDemoData } from '../seed/seed-database';
import { firstLineOf, MongoUnreachableError } from './mongo-unreachable-error';

export interface StartServerOptions {
  /** One line per step (where MongoDB is, the URL); default: nothing. */
  readonly log?: (message: string) => void;
  /** Seeding progress of the embedded demo data (e.g. the seed CLI's progress printer). */
  readonly onSeedProgress?: (collection: DemoCollectionName, inserted: number, total: number) => void;
  /** Serve HTTP on `config.port` (default true). `docjoin explain --run` runs in-process only. */
  readonly listen?: boolean;
}

export interface RunningServer {
  readonly gateway: Gateway;
  readonly client: MongoClient;
  /** The MongoDB in use: the embedded server's URI, or the configured one. */
  readonly mongoUri: string;
  readonly embedded: boolean;
  /** Stops HTTP, closes the client and (when embedded) the embedded server and its data. */
  stop(): Promise<void>;
}

/**
 * What `npm start` / `docjoin serve` run: with no MONGODB_URI, an embedded MongoDB server inside this
 * process seeded with the demo dataset (scale `config.seedScale`); otherwise the configured MongoDB as it
 * is. Then the gateway, validated against the database, on `config.port` (0 picks a free port).
 * A MongoDB that cannot be connected to rejects with MongoUnreachableError (one line for the CLI).
 */
export async function startServer(config: DocjoinConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? (() => undefined);
  const embedded: EmbeddedMongo | undefined = config.mongodbUri === undefined ? await startEmbeddedMongo() : undefined;
  const mongoUri = config.mongodbUri ?? embedded!.uri;
  let client: MongoClient | undefined;
  try {
    try {
      client = await connectMongo(mongoUri);
    } catch (error) {
      throw new MongoUnreachableError(redactUri(mongoUri), firstLineOf(error));
    }
    const db = client.db(config.mongodbDb);
    if (embedded) {
      const started = Date.now();
      log(`embedded MongoDB at ${mongoUri}; loading the demo dataset (scale ${config.seedScale})…`);
      const summary = await seedDemoData(db, { scale: config.seedScale, onProgress: options.onSeedProgress });
      const total = Object.values(summary.counts).reduce((sum, count) => sum + count, 0);
      log(`loaded ${total.toLocaleString('en')} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else {
      log(`MongoDB at ${redactUri(mongoUri)}, database "${config.mongodbDb}"`);
    }
    const gateway = await createGateway({
      db,
      mongoClient: client,
      mongoKind: embedded ? 'embedded' : 'external',
      mongoUri,
      config,
      listen: options.listen ?? true,
    });
    if (gateway.url) log(`GraphQL at ${gateway.url} (open it in a browser for Apollo Sandbox); health at http://localhost:${gateway.port}/health`);
    const running = client;
    return {
      gateway,
      client: running,
      mongoUri,
      embedded: embedded !== undefined,
      async stop() {
        await gateway.stop();
        await running.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await client?.close();
    await embedded?.stop();
    throw error;
  }
}
