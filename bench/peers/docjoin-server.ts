import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type * as docjoinPackage from 'docjoin';
import type { GatewaySettings } from 'docjoin';
import type * as processConfig from '../../src/config/config';
import type * as logging from '../../src/observability/logger';
import type { HttpPeer, PeerStartOptions } from './peer-implementation';
import { readByLookup } from './advised-strategies';
import { DEMO_CONFIG_FILE } from './peer-schema';

/** What the harness calls of docjoin: this build's modules, or a baseline build's (startBaseline). */
interface DocjoinModules {
  readonly docjoin: Pick<typeof docjoinPackage, 'connectMongo' | 'createGateway' | 'loadProject'>;
  readonly config: Pick<typeof processConfig, 'loadConfig' | 'gatewaySettingsOf'>;
  readonly logging: Pick<typeof logging, 'createLogger'>;
}

/** This build's modules, loaded only by the process that runs it (a baseline's process loads only the baseline's). */
function thisBuild(): DocjoinModules {
  return {
    docjoin: require('docjoin') as DocjoinModules['docjoin'],
    config: require('../../src/config/config') as DocjoinModules['config'],
    logging: require('../../src/observability/logger') as DocjoinModules['logging'],
  };
}

/**
 * docjoin as `docjoin serve` runs the demo project against a MongoDB URI: the project loaded from
 * docjoin.config.ts, the settings of a production process (NODE_ENV=production: no
 * strategy or commands headers, no stack traces) with every other default, its own HTTP server, and
 * serve's default logging (one JSON line per request at info, the lines of each turn of the event loop
 * written together, synchronously; to /dev/null here, where serve writes to stdout). Compiled
 * (compilePeers), `docjoin` is the package's build, dist/, as the docker image runs it.
 */

/**
 * Every feature an option turns off: the cost report, the estimate's limits and the document budget
 * (with all three off, no operation is estimated), and the metrics.
 */
export const FEATURES_OFF: GatewaySettings = {
  costReport: false,
  limits: { maxRoundTrips: Number.POSITIVE_INFINITY, maxDocuments: Number.POSITIVE_INFINITY, maxDepth: Number.POSITIVE_INFINITY, maxResponseNodes: Number.POSITIVE_INFINITY },
  maxDocumentsInFlight: Number.MAX_SAFE_INTEGER,
  metrics: false,
};

async function startDocjoin(
  options: PeerStartOptions,
  overrides: GatewaySettings,
  { docjoin, config: configModule, logging: loggingModule }: DocjoinModules = thisBuild(),
  editTypeDefs: (typeDefs: string[]) => string[] = (typeDefs) => typeDefs,
): Promise<HttpPeer> {
  const { connectMongo, createGateway, loadProject } = docjoin;
  const { gatewaySettingsOf, loadConfig } = configModule;
  const { createLogger } = loggingModule;
  const project = await loadProject({ cwd: path.dirname(DEMO_CONFIG_FILE), configPath: DEMO_CONFIG_FILE });
  const config = loadConfig({ NODE_ENV: 'production', PORT: '0', MONGODB_URI: options.mongoUri, MONGODB_DB: options.dbName }, {}, project.config);
  // docjoin always monitors commands: its cost report is built from them.
  const client = await connectMongo(options.mongoUri);
  options.commands?.attach(client);
  const devNull = openSync('/dev/null', 'w');
  let logsOpen = true;
  // A line logged after stop (work a timeout left running) is dropped: its file is closed.
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, destination: { write: (line: string) => logsOpen && writeSync(devNull, line) } });
  const closeLogs = () => {
    // Lines still held for the end of this turn go out before their file closes.
    logger.flush();
    logsOpen = false;
    closeSync(devNull);
  };
  try {
    const gateway = await createGateway({
      ...gatewaySettingsOf(config),
      ...overrides,
      logger,
      host: '127.0.0.1',
      typeDefs: editTypeDefs(project.typeDefs),
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
        closeLogs();
      },
    };
  } catch (error) {
    await client.close();
    closeLogs();
    throw error;
  }
}

export function start(options: PeerStartOptions): Promise<HttpPeer> {
  return startDocjoin(options, {});
}

/**
 * The same with each field in `lookups` read by lookup (`@read(strategy: LOOKUP)` added to its SDL):
 * the strategies `docjoin advise` advised at the phase's latency.
 */
export function startAdvised(options: PeerStartOptions, lookups: readonly string[]): Promise<HttpPeer> {
  if (lookups.length === 0) throw new Error('docjoin-advised: no field to read by lookup (the runner leaves it out of a phase without lookup advice)');
  return startDocjoin(options, {}, thisBuild(), (typeDefs) => readByLookup(typeDefs, lookups));
}

/** The same with FEATURES_OFF: what the features cost is the difference between the two. */
export function startWithFeaturesOff(options: PeerStartOptions): Promise<HttpPeer> {
  return startDocjoin(options, FEATURES_OFF);
}

/**
 * The same harness on the package build of another commit, checked out and compiled in `directory`
 * (baseline-build.ts): its dist/ for docjoin, its configuration and its logger (the configuration
 * moved from dist/config.js to dist/config/config.js along the way).
 */
export function startBaseline(options: PeerStartOptions, directory: string): Promise<HttpPeer> {
  const dist = path.join(directory, 'dist');
  const configFile = [path.join(dist, 'config/config.js'), path.join(dist, 'config.js')].find((file) => existsSync(file));
  if (!configFile) throw new Error(`no configuration module in ${dist}`);
  const modules: DocjoinModules = {
    docjoin: require(path.join(dist, 'index.js')) as DocjoinModules['docjoin'],
    config: require(configFile) as DocjoinModules['config'],
    logging: require(path.join(dist, 'observability/logger.js')) as DocjoinModules['logging'],
  };
  return startDocjoin(options, {}, modules);
}
