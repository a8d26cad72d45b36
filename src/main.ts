/**
 * `npm start`: the gateway on http://localhost:$PORT/graphql. With MONGODB_URI unset it starts the
 * embedded MongoDB server in this process and loads the demo dataset into it first.
 */
import { ConfigError, loadConfig, redactUri, type DocjoinConfig } from './config';
import { startEmbeddedMongo, type EmbeddedMongo } from './embedded-mongo';
import { connectMongo, createGateway, type Gateway, type MongoClient } from './gateway';
import { seedDemoData } from './seed/seed-database';

interface Running {
  readonly gateway: Gateway;
  readonly client: MongoClient;
  readonly embedded: EmbeddedMongo | undefined;
}

async function start(config: DocjoinConfig): Promise<Running> {
  const embedded = config.mongodbUri ? undefined : await startEmbeddedMongo();
  const uri = config.mongodbUri ?? embedded!.uri;
  const client = await connectMongo(uri);
  try {
    const db = client.db(config.mongodbDb);
    if (embedded) {
      const started = Date.now();
      log(`embedded MongoDB at ${uri}; loading the demo dataset (scale ${config.seedScale})…`);
      const summary = await seedDemoData(db, { scale: config.seedScale });
      const total = Object.values(summary.counts).reduce((sum, count) => sum + count, 0);
      log(`loaded ${total.toLocaleString('en')} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } else {
      log(`MongoDB at ${redactUri(uri)}, database "${config.mongodbDb}"`);
    }
    const gateway = await createGateway({ db, mongoClient: client, mongoKind: embedded ? 'embedded' : 'external', mongoUri: uri, config });
    log(`GraphQL at ${gateway.url} (open it in a browser for Apollo Sandbox); health at http://localhost:${gateway.port}/health`);
    return { gateway, client, embedded };
  } catch (error) {
    await client.close();
    await embedded?.stop();
    throw error;
  }
}

async function stop(running: Running): Promise<void> {
  await running.gateway.stop();
  await running.client.close();
  await running.embedded?.stop();
}

function log(message: string): void {
  process.stdout.write(`docjoin: ${message}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const running = await start(config);
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    stop(running).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  // Configuration and schema errors are written for people: print the message, not a stack.
  const known = error instanceof ConfigError || (error instanceof Error && /StorageConfigError|DatabaseMismatchError/.test(error.name));
  console.error(`docjoin: ${known ? (error as Error).message : error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
