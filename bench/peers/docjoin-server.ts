import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { connectMongo, createGateway, loadProject, type GatewaySettings } from 'docjoin';
import { gatewaySettingsOf, loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/observability/logger';
import type { HttpPeer, PeerStartOptions } from './peer-implementation';
import { DEMO_CONFIG_FILE } from './peer-schema';

/**
 * docjoin as `docjoin serve` runs the demo project against a MongoDB URI: the project loaded from
 * examples/demo/docjoin.config.ts, the settings of a production process (NODE_ENV=production: no
 * strategy or commands headers, no stack traces) with every other default, its own HTTP server, and
 * serve's default logging (one JSON line per request at info, written synchronously; to /dev/null here,
 * where serve writes to stdout). Compiled (compilePeers), `docjoin` is the package's build, dist/, as
 * the docker image runs it.
 */

/**
 * Every feature an option turns off: the cost report, the estimate's limits and the document budget
 * (with all three off, no operation is estimated), and the metrics.
 */
export const FEATURES_OFF: GatewaySettings = {
  costReport: false,
  limits: { maxRoundTrips: Number.POSITIVE_INFINITY, maxDocuments: Number.POSITIVE_INFINITY, maxDepth: Number.POSITIVE_INFINITY },
  maxDocumentsInFlight: Number.MAX_SAFE_INTEGER,
  metrics: false,
};

async function startDocjoin(options: PeerStartOptions, overrides: GatewaySettings): Promise<HttpPeer> {
  const project = await loadProject({ cwd: path.dirname(DEMO_CONFIG_FILE), configPath: DEMO_CONFIG_FILE });
  const config = loadConfig({ NODE_ENV: 'production', PORT: '0', MONGODB_URI: options.mongoUri, MONGODB_DB: options.dbName }, {}, project.config);
  // docjoin always monitors commands: its cost report is built from them.
  const client = await connectMongo(options.mongoUri);
  options.commands?.attach(client);
  const devNull = openSync('/dev/null', 'w');
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, destination: { write: (line: string) => writeSync(devNull, line) } });
  try {
    const gateway = await createGateway({
      ...gatewaySettingsOf(config),
      ...overrides,
      logger,
      host: '127.0.0.1',
      typeDefs: project.typeDefs,
      resolvers: project.resolvers,
      writePlans: project.writePlans,
      db: config.mongodbDb,
      mongoClient: client,
      mongoKind: 'external',
      mongoUri: options.mongoUri,
      listen: true,
    });
    return {
      kind: 'http',
      port: gateway.port!,
      async stop() {
        await gateway.stop();
        await client.close();
        closeSync(devNull);
      },
    };
  } catch (error) {
    await client.close();
    closeSync(devNull);
    throw error;
  }
}

export function start(options: PeerStartOptions): Promise<HttpPeer> {
  return startDocjoin(options, {});
}

/** The same with FEATURES_OFF: what the features cost is the difference between the two. */
export function startWithFeaturesOff(options: PeerStartOptions): Promise<HttpPeer> {
  return startDocjoin(options, FEATURES_OFF);
}
