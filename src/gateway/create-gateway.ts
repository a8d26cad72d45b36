import { ApolloServer, HeaderMap, type GraphQLRequest } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import type { IResolvers } from '@graphql-tools/utils';
import type { FormattedExecutionResult, GraphQLSchema } from 'graphql';
import type { DocjoinConfig } from '../config';
import { rootResolvers, rootWritePlans } from '../../resolvers';
import { createRequestContext, type GatewayContext } from './context/request-context';
import { NO_OVERRIDES, parseStrategyOverrides, STRATEGY_HEADER } from './context/strategy-overrides';
import { ApolloServerPluginDocjoinCost, COST_HEADER } from './cost/cost-plugin';
import { processEstimateViolations, type EstimateViolationRecorder } from './cost/estimate-check';
import type { CostReport } from './cost/cost-ledger';
import { createFormatError } from './errors/format-error';
import { DEFAULT_ASSUMED_LIST_SIZE } from './estimate/estimate-operation';
import { estimateRequest } from './estimate/estimate-request';
import { checkHealth, type MongoKind } from './http/health';
import { startHttpServer, type RunningHttpServer } from './http/http-server';
import { MongoFunnel, type Db, type MongoClient } from './mongo/mongo-funnel';
import { buildGatewaySchema } from './schema/build-gateway-schema';
import { loadSdl } from './schema/load-sdl';
import type { StorageMap } from './storage-map/storage-map-types';
import { validateAgainstDatabase } from './storage-map/validate-against-database';
import type { WriteOptions } from './writes/request-writes';
import type { MutationWritePlans } from './writes/write-plan';
import { createWriteRuntime } from './writes/write-runtime';

export interface CreateGatewayOptions {
  readonly db: Db;
  /** Must be created with `{ monitorCommands: true }` (see connectMongo); the caller owns and closes it. */
  readonly mongoClient: MongoClient;
  readonly mongoKind: MongoKind;
  readonly config: DocjoinConfig;
  /** Shown (redacted) by /health; defaults to the client's hosts. */
  readonly mongoUri?: string;
  /** SDL documents; defaults to every schema/*.graphql file. */
  readonly typeDefs?: readonly string[];
  /** Hand-written resolvers (Query, scalars, abstract types); defaults to resolvers/. */
  readonly resolvers?: IResolvers;
  /** Check collections and join indexes before serving (default true). */
  readonly validateDatabase?: boolean;
  /** Serve HTTP on `config.port` (default true); false for executeOperation-only tests. */
  readonly listen?: boolean;
  /** How mutations write (default: a transaction when the server supports it). Tests force the other paths. */
  readonly writes?: WriteOptions;
  /**
   * What each Mutation field's write unit does (writes/write-plan.ts), to estimate its writes before it
   * runs; default: resolvers/'s plans. Every Mutation field of the schema needs one (checked at startup).
   */
  readonly writePlans?: MutationWritePlans;
  /**
   * Check that each operation's measured round trips and documents stay within its estimate, adding an
   * error to the response otherwise (default: under jest, NODE_ENV=test). Mutations included; commands
   * of write attempts a transaction retried are left out (the estimate bounds one attempt).
   */
  readonly checkEstimates?: boolean;
  /**
   * Receives each violation the check finds. Default: `processEstimateViolations.record`, the log that
   * jest's setup file (test/support/fail-on-estimate-violations.ts) asserts is empty after every test.
   */
  readonly onEstimateViolation?: EstimateViolationRecorder;
  /**
   * Entries the document estimate assumes in a list nothing bounds (reference arrays, embedded arrays
   * without `first`). Default: `config.assumedListSize` (DOCJOIN_ASSUMED_LIST_SIZE), else 20.
   */
  readonly assumedListSize?: number;
}

/** One operation's result as tests want it. */
export interface ExecutedOperation {
  readonly data: FormattedExecutionResult['data'];
  readonly errors: FormattedExecutionResult['errors'];
  readonly cost: CostReport | undefined;
}

export interface Gateway {
  /** `http://localhost:<port>/graphql`, or undefined when not listening. */
  readonly url: string | undefined;
  readonly port: number | undefined;
  readonly apollo: ApolloServer<GatewayContext>;
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  /** A fresh request context, honouring an `x-docjoin-strategy` value when overrides are enabled. */
  createContext(options?: { strategyHeader?: string }): GatewayContext;
  /** Runs an operation in-process through `apollo.executeOperation` with a fresh context (headers as over HTTP). */
  execute(request: Omit<GraphQLRequest, 'http'>, options?: { strategyHeader?: string; costHeader?: string }): Promise<ExecutedOperation>;
  stop(): Promise<void>;
}

/**
 * Startup: SDL → storage map (static validation) → database validation → Apollo Server with the cost
 * plugin → HTTP. Any StorageConfigError / DatabaseMismatchError aborts the start with a message naming
 * `Type.field` and the fix.
 */
export async function createGateway(options: CreateGatewayOptions): Promise<Gateway> {
  const { config } = options;
  const assumedListSize = options.assumedListSize ?? config.assumedListSize ?? DEFAULT_ASSUMED_LIST_SIZE;
  const typeDefs = options.typeDefs ?? loadSdl();
  const { schema, storageMap } = buildGatewaySchema({ typeDefs, resolvers: options.resolvers ?? rootResolvers });
  const funnel = new MongoFunnel(options.mongoClient, options.db);
  const writeRuntime = createWriteRuntime({ typeDefs, storageMap, funnel, plans: options.writePlans ?? rootWritePlans, writes: options.writes });
  try {
    if (options.validateDatabase ?? true) await validateAgainstDatabase(storageMap, funnel);
  } catch (error) {
    funnel.detach();
    throw error;
  }

  const createContext = (contextOptions: { strategyHeader?: string } = {}): GatewayContext => {
    return createRequestContext({
      storageMap,
      funnel,
      overrides: config.strategyOverrides ? parseStrategyOverrides(contextOptions.strategyHeader, storageMap) : NO_OVERRIDES,
      writes: writeRuntime,
    });
  };

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    nodeEnv: config.nodeEnv,
    introspection: true,
    includeStacktraceInErrorResponses: !config.production,
    // Whoever starts the gateway owns the process's signals and stops it (see src/server/start-server.ts).
    stopOnTerminationSignals: false,
    formatError: createFormatError({ production: config.production }),
    plugins: [
      ApolloServerPluginDocjoinCost<GatewayContext>({
        estimate: ({ schema: resolvedSchema, document, operation, request, contextValue }) =>
          operation &&
          estimateRequest({
            schema: resolvedSchema,
            storageMap,
            document,
            operation,
            variables: request.variables,
            strategyFor: contextValue.strategyFor,
            assumedListSize,
            writeEstimate: (field) => writeRuntime.estimates.get(field),
          }),
        limits: config.limits,
        commandsView: ({ request }) => config.costCommands && request.http?.headers.get(COST_HEADER)?.trim().toLowerCase() === 'commands',
        checkEstimate: options.checkEstimates ?? process.env.NODE_ENV === 'test',
        onEstimateViolation: options.onEstimateViolation ?? processEstimateViolations.record,
      }),
      config.production ? ApolloServerPluginLandingPageProductionDefault({ footer: false }) : ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false }),
    ],
  });
  await apollo.start();

  let http: RunningHttpServer | undefined;
  try {
    if (options.listen ?? true) {
      const mongoUri = options.mongoUri ?? `mongodb://${options.mongoClient.options.hosts.map((host) => host.toString()).join(',')}`;
      http = await startHttpServer({
        apollo,
        port: config.port,
        context: async (headers: HeaderMap) => createContext({ strategyHeader: headers.get(STRATEGY_HEADER) }),
        health: () => checkHealth({ ping: () => funnel.ping(), kind: options.mongoKind, db: options.db.databaseName, uri: mongoUri }),
      });
    }
  } catch (error) {
    await apollo.stop();
    funnel.detach();
    throw error;
  }

  return {
    url: http?.url,
    port: http?.port,
    apollo,
    schema,
    storageMap,
    createContext,
    async execute(request, executeOptions = {}) {
      const http = executeOptions.costHeader === undefined ? undefined : { method: 'POST', headers: new HeaderMap([[COST_HEADER, executeOptions.costHeader]]), search: '', body: {} };
      const response = await apollo.executeOperation({ ...request, ...(http && { http }) }, { contextValue: createContext(executeOptions) });
      if (response.body.kind !== 'single') throw new Error('execute() does not support incremental delivery');
      const { data, errors, extensions } = response.body.singleResult;
      return { data, errors, cost: extensions?.cost as CostReport | undefined };
    },
    async stop() {
      await http?.close();
      await apollo.stop();
      funnel.detach();
    },
  };
}
