import { gatewaySettingsOf, redactSecrets, type DocjoinConfig } from '../config/config';
import { startEmbeddedMongo, type EmbeddedMongo } from '../embedded-mongo';
import { type EstimateViolationRecorder, createGateway, type Gateway, connectMongo, type MongoClient, assertCanListen, checkAuthOptions, buildGatewaySchema } from '../gateway';
import type { Project } from '../project/load-project';
import type { DocjoinLogger } from '../observability/logger';
import { describeDatabase } from './describe-database';
import { firstLineOf, MongoUnreachableError } from './mongo-unreachable-error';

export interface StartServerOptions {
  /** One line per step (where MongoDB is, the URL); default: nothing. */
  readonly log?: (message: string) => void;
  /** The same steps as structured log lines, and the gateway's own logs (requests, outages). */
  readonly logger?: DocjoinLogger;
  /** Progress of the project's embedded seed (e.g. the CLI's progress printer). */
  readonly onSeedProgress?: (collection: string, inserted: number, total: number) => void;
  /** Serve HTTP on `config.port` (default true). `docjoin explain --run` runs in-process only. */
  readonly listen?: boolean;
  /** Check every operation's cost against its estimate, telling this of each violation (createGateway's checkEstimates). */
  readonly onEstimateViolation?: EstimateViolationRecorder;
}

export interface RunningServer {
  readonly gateway: Gateway;
  readonly client: MongoClient;
  /** The MongoDB in use: the embedded server's URI, or the configured one. */
  readonly mongoUri: string;
  readonly embedded: boolean;
  /** Stops HTTP (see Gateway.stop for `drainFirst`), closes the client and (when embedded) the embedded server and its data. */
  stop(options?: { drainFirst?: boolean }): Promise<void>;
}

/**
 * What `docjoin serve` runs for `project`: with no MongoDB URI, an embedded MongoDB server inside this
 * process, filled by the project's `embedded.seed` (scale `config.seedScale`); otherwise the configured
 * MongoDB as it is. Then the gateway, validated against the database, on `config.port` (0 picks a free
 * port). A MongoDB that cannot be connected to rejects with MongoUnreachableError (one line for the CLI).
 */
export async function startServer(config: DocjoinConfig, project: Project, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = (message: string, fields: Record<string, unknown> = {}): void => {
    options.log?.(message);
    options.logger?.info(fields, message);
  };
  // Before anything slow (the seed): a taken port or a wrong auth option is found in a second, not after the seeding.
  if (options.listen ?? true) await assertCanListen(config.port, config.host);
  await checkAuthOptions(project.config.auth);
  // What the schema alone refuses is refused before the embedded server is filled; the database's own check follows the seed.
  if (config.mongodbUri === undefined && project.config.seed) buildGatewaySchema({ typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans });
  const embedded: EmbeddedMongo | undefined = config.mongodbUri === undefined ? await startEmbeddedMongo() : undefined;
  const mongoUri = config.mongodbUri ?? embedded!.uri;
  let client: MongoClient | undefined;
  try {
    try {
      if (!embedded) log(`connecting to MongoDB at ${redactSecrets(mongoUri)}…`, { mongo: redactSecrets(mongoUri) });
      client = await whileWaiting(connectMongo(mongoUri, { serverSelectionTimeoutMS: config.mongoTimeoutMs }), (seconds) =>
        log(`still waiting for MongoDB at ${redactSecrets(mongoUri)} (${seconds} s; gives up after ${config.mongoTimeoutMs / 1000} s, DOCJOIN_MONGO_TIMEOUT_MS)`, { mongo: redactSecrets(mongoUri), waitedSeconds: seconds }),
      );
    } catch (error) {
      throw new MongoUnreachableError(redactSecrets(mongoUri), redactSecrets(firstLineOf(error), [mongoUri]));
    }
    const db = client.db(config.mongodbDb);
    const seed = project.config.seed;
    if (embedded && seed) {
      const started = Date.now();
      log(`embedded MongoDB at ${mongoUri}; seeding it (scale ${config.seedScale})…`, { mongo: { kind: 'embedded', uri: mongoUri, db: config.mongodbDb }, seedScale: config.seedScale });
      await seed(db, { scale: config.seedScale, onProgress: options.onSeedProgress ?? (() => undefined) });
      const { documents } = await describeDatabase(db);
      const seconds = (Date.now() - started) / 1000;
      log(`loaded ${documents.toLocaleString('en')} documents in ${seconds.toFixed(1)} s`, { documents, seconds });
    } else if (embedded) {
      log(`embedded MongoDB at ${mongoUri}, database "${config.mongodbDb}" (empty: the project's config has no seed)`, { mongo: { kind: 'embedded', uri: mongoUri, db: config.mongodbDb } });
    } else {
      log(`MongoDB at ${redactSecrets(mongoUri)}, database "${config.mongodbDb}"`, { mongo: { kind: 'external', uri: redactSecrets(mongoUri), db: config.mongodbDb } });
    }
    const gateway = await createGateway({
      ...gatewaySettingsOf(config),
      limitOrigins: config.limitOrigins,
      typeDefs: project.typeDefs,
      resolvers: project.resolvers,
      writePlans: project.writePlans,
      ...(project.config.writes && { writes: project.config.writes }),
      ...(project.config.auth && { auth: project.config.auth }),
      db,
      mongoClient: client,
      mongoKind: embedded ? 'embedded' : 'external',
      mongoUri,
      listen: options.listen ?? true,
      // An unseeded embedded database starts empty: there is nothing yet to check the schema against.
      validateDatabase: !(embedded && !seed),
      ...(options.logger && { logger: options.logger }),
      ...(options.onEstimateViolation && { checkEstimates: true, onEstimateViolation: options.onEstimateViolation }),
    });
    const { storageMap } = gateway;
    log(`schema of ${project.configFile ?? project.root}: ${storageMap.types.size} types, ${storageMap.relations.size} relation fields, ${storageMap.roots.size} generated root fields`, {
      project: project.configFile ?? project.root,
      types: storageMap.types.size,
      relations: storageMap.relations.size,
      roots: storageMap.roots.size,
    });
    if (gateway.url) {
      const origin = `http://localhost:${gateway.port}`;
      const urls = {
        graphql: gateway.url,
        ...(gateway.settings.landingPage !== 'none' && { ide: `${origin}/ide` }),
        health: `${origin}/health`,
        ...(gateway.settings.metrics && { metrics: `${origin}/metrics` }),
      };
      log(`GraphQL at ${urls.graphql}${urls.ide ? `; IDE at ${urls.ide}` : ''}; health at ${urls.health}${urls.metrics ? `; metrics at ${urls.metrics}` : ''}`, urls);
    }
    const running = client;
    return {
      gateway,
      client: running,
      mongoUri,
      embedded: embedded !== undefined,
      async stop(stopOptions) {
        await gateway.stop(stopOptions);
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

/** Calls `progress` with the seconds waited, once a second, until `work` settles. */
async function whileWaiting<T>(work: Promise<T>, progress: (seconds: number) => void): Promise<T> {
  let seconds = 0;
  const timer = setInterval(() => progress(++seconds), 1000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
