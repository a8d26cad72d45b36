import { gatewaySettingsOf, redactUri, type DocjoinConfig } from '../config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../embedded-mongo';
import { createGateway, type Gateway } from '../gateway/create-gateway';
import { connectMongo, type MongoClient } from '../gateway/mongo/mongo-funnel';
import type { Project } from '../project/load-project';
import { describeDatabase } from './describe-database';
import { firstLineOf, MongoUnreachableError } from './mongo-unreachable-error';

export interface StartServerOptions {
  /** One line per step (where MongoDB is, the URL); default: nothing. */
  readonly log?: (message: string) => void;
  /** Progress of the project's embedded seed (e.g. the CLI's progress printer). */
  readonly onSeedProgress?: (collection: string, inserted: number, total: number) => void;
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
 * What `docjoin serve` runs for `project`: with no MongoDB URI, an embedded MongoDB server inside this
 * process, filled by the project's `embedded.seed` (scale `config.seedScale`); otherwise the configured
 * MongoDB as it is. Then the gateway, validated against the database, on `config.port` (0 picks a free
 * port). A MongoDB that cannot be connected to rejects with MongoUnreachableError (one line for the CLI).
 */
export async function startServer(config: DocjoinConfig, project: Project, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? (() => undefined);
  const embedded: EmbeddedMongo | undefined = config.mongodbUri === undefined ? await startEmbeddedMongo() : undefined;
  const mongoUri = config.mongodbUri ?? embedded!.uri;
  let client: MongoClient | undefined;
  try {
    try {
      if (!embedded) log(`connecting to MongoDB at ${redactUri(mongoUri)}…`);
      client = await connectMongo(mongoUri, { serverSelectionTimeoutMS: config.mongoTimeoutMs });
    } catch (error) {
      throw new MongoUnreachableError(redactUri(mongoUri), firstLineOf(error));
    }
    const db = client.db(config.mongodbDb);
    const seed = project.config.seed;
    if (embedded && seed) {
      const started = Date.now();
      log(`embedded MongoDB at ${mongoUri}; seeding it (scale ${config.seedScale})…`);
      await seed(db, { scale: config.seedScale, onProgress: options.onSeedProgress ?? (() => undefined) });
      const { documents } = await describeDatabase(db);
      log(`loaded ${documents.toLocaleString('en')} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else if (embedded) {
      log(`embedded MongoDB at ${mongoUri}, database "${config.mongodbDb}" (empty: the project's config has no seed)`);
    } else {
      log(`MongoDB at ${redactUri(mongoUri)}, database "${config.mongodbDb}"`);
    }
    const gateway = await createGateway({
      ...gatewaySettingsOf(config),
      typeDefs: project.typeDefs,
      resolvers: project.resolvers,
      writePlans: project.writePlans,
      db,
      mongoClient: client,
      mongoKind: embedded ? 'embedded' : 'external',
      mongoUri,
      listen: options.listen ?? true,
      // An unseeded embedded database starts empty: there is nothing yet to check the schema against.
      validateDatabase: !(embedded && !seed),
    });
    if (gateway.url) {
      const ide = gateway.settings.landingPage === 'none' ? '' : `; IDE at http://localhost:${gateway.port}/ide`;
      log(`GraphQL at ${gateway.url}${ide}; health at http://localhost:${gateway.port}/health`);
    }
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
