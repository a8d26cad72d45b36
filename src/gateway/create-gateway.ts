import { ApolloServer, HeaderMap, type GraphQLRequest } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type FormattedExecutionResult, type GraphQLSchema } from 'graphql';
import type { GatewayContext } from './request/context/request-context';
import type { Viewer } from './request/authentication/authenticate';
import { createDocjoin, type DocjoinOptions } from './create-docjoin';
import { COST_HEADER } from './operation/cost/cost-plugin';
import { exampleStrategyOverride } from './operation/plan/strategy-overrides';
import type { CostReport } from './request/cost/cost-ledger';
import type { ResolvedSettings } from './gateway-options';
import { startHttpServer, type RunningHttpServer } from './http/http-server';
import { clientAddressReader } from './http/client-address';
import { observeRefusal } from './observability/request-observer-plugin';
import { responseStringifier } from './http/stringify-response';
import { Admission } from './http/admission';
import { guardDroppedFieldErrors, unhandledRejectionsMode } from './errors/dropped-field-errors';
import { createIdeRoutes } from './http/ide';
import { defaultIdeQuery } from './http/ide-default-query';
import { landingPagePlugin } from './http/landing-page';
import type { StorageMap } from './startup/storage-map/storage-map-types';
import type { WorkloadCapture } from './workload/workload-capture';

export interface CreateGatewayOptions extends DocjoinOptions {
  /** Serve HTTP on `port` (default true); false to run operations in-process only (`execute`). */
  readonly listen?: boolean;
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
  readonly settings: ResolvedSettings;
  /** The workload capture (the `workload` option), undefined when off; `flush()` writes the counts now. */
  readonly workload: WorkloadCapture | undefined;
  /** A fresh request context, honouring an `x-docjoin-strategy` value when overrides are enabled. */
  createContext(options?: { strategyHeader?: string; viewer?: Viewer }): GatewayContext;
  /** Runs an operation in-process through `apollo.executeOperation` with a fresh context (headers as over HTTP; the anonymous viewer unless one is given). */
  execute(request: Omit<GraphQLRequest, 'http'>, options?: { strategyHeader?: string; costHeader?: string; viewer?: Viewer }): Promise<ExecutedOperation>;
  /**
   * Stops HTTP (no new connections; requests in flight get `shutdownGraceMs` to finish) and Apollo, then
   * writes the workload's last counts; the MongoDB client stays yours to close. With `drainFirst` (what
   * `docjoin serve` does on SIGTERM), HTTP first keeps accepting for `shutdownDelayMs` while `/health`
   * answers 503 `draining`. A second call (SIGINT after SIGTERM) waits for the first stop's end.
   */
  stop(options?: { drainFirst?: boolean }): Promise<void>;
}

/**
 * The standalone gateway: createDocjoin's schema, plugin and contexts in an Apollo Server, served over
 * node:http at `/graphql` (with the landing page), `/health`, and docjoin's IDE at `/ide` (unless the
 * landing page is "none").
 */
export async function createGateway(options: CreateGatewayOptions): Promise<Gateway> {
  const docjoin = await createDocjoin(options);
  const { settings } = docjoin;
  // The page is served to anyone: where introspection is not everyone's, it names nothing of the schema.
  const schemaShown = settings.introspection === true;
  const ide = {
    endpoint: '/graphql',
    defaultQuery: schemaShown ? defaultIdeQuery(docjoin.schema, docjoin.storageMap) : '{ __typename }',
    strategyExample: settings.strategyOverrides && schemaShown ? exampleStrategyOverride(docjoin.storageMap) : undefined,
  };
  const errorShaping = { formatError: docjoin.formatError, includeStacktraceInErrorResponses: !settings.production };
  const apollo = new ApolloServer<GatewayContext>({
    schema: docjoin.schema,
    introspection: true,
    // Where introspection is not everyone's, validation errors do not suggest field names ("Did you mean…").
    hideSchemaDetailsFromClientErrors: settings.introspection !== true,
    ...(docjoin.persistedQueries && { persistedQueries: docjoin.persistedQueries }),
    ...errorShaping,
    // Whoever starts the gateway owns the process's signals and stops it.
    stopOnTerminationSignals: false,
    stringifyResult: responseStringifier(settings.production, settings.maxResponseBytes),
    plugins: [
      // docjoin sets no cache hints; the default cache-control plugin would wrap every field's resolver to collect them.
      ApolloServerPluginCacheControlDisabled(),
      ...docjoin.plugins,
      // No other plugin here needs Apollo's execution hooks: docjoin runs mutations and hand-written roots too.
      docjoin.compiledExecution({ ...errorShaping, mutationsAndHandWrittenRoots: true }),
      landingPagePlugin(settings.landingPage, ide),
    ],
  });
  try {
    await apollo.start();
  } catch (error) {
    docjoin.close();
    throw error;
  }

  let http: RunningHttpServer | undefined;
  const releaseGuard = guardDroppedFieldErrors(docjoin.logger, { onDropped: () => docjoin.metrics?.droppedFieldError() });
  if (unhandledRejectionsMode() === 'strict') docjoin.logger.warn('node runs with --unhandled-rejections=strict: a field error graphql-js 16 leaves unhandled (graphql/graphql-js#3528) will end the process');
  try {
    if (options.listen ?? true) {
      const admission = new Admission(settings.maxConcurrentOperations, settings.maxQueuedOperations, settings.queueTimeoutMs);
      docjoin.metrics?.watchAdmission(() => ({ running: admission.running, queued: admission.queued, lent: admission.lent }));
      http = await startHttpServer({
        apollo,
        port: settings.port,
        host: settings.host,
        cors: settings.cors,
        context: async (headers: HeaderMap, deadline, clientAddress, afterAnswer, admissionSlot) =>
          docjoin.createContext({ headers, deadline, afterAnswer, admissionSlot, viewer: await docjoin.authenticate(headers), ...(clientAddress !== undefined && { clientAddress }) }),
        clientAddressOf: clientAddressReader(settings.trustProxy),
        operationTimeoutMs: settings.operationTimeoutMs,
        maxResponseBytes: settings.maxResponseBytes,
        health: () => docjoin.health(),
        admission,
        ...(settings.landingPage !== 'none' && { routes: createIdeRoutes(ide) }),
        ...(docjoin.metrics && { metrics: async () => ({ contentType: docjoin.metrics!.contentType, body: await docjoin.metrics!.text() }) }),
        ...(settings.metricsToken !== undefined && { metricsToken: settings.metricsToken }),
        onRefused: (code, reason) => observeRefusal(docjoin, code, reason === undefined ? {} : { reason }),
        refuseSource: (text, variables) => docjoin.refuseSource(text, variables),
      });
      if (!docjoin.metrics && settings.metricsToken !== undefined) docjoin.logger.warn('DOCJOIN_METRICS_TOKEN (metricsToken) is set, but the metrics are off (DOCJOIN_METRICS=false): no /metrics is served');
      if (docjoin.metrics && settings.metricsToken === undefined && settings.production) {
        docjoin.logger.warn(
          { port: http.port },
          'GET /metrics is open to anyone who reaches this port (its series name operations and count documents per field): set DOCJOIN_METRICS_TOKEN (createGateway: metricsToken) to require a bearer token, or DOCJOIN_METRICS=false',
        );
      }
    }
  } catch (error) {
    releaseGuard();
    await apollo.stop();
    docjoin.close();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    url: http?.url,
    port: http?.port,
    apollo,
    schema: docjoin.schema,
    storageMap: docjoin.storageMap,
    settings,
    workload: docjoin.workload,
    createContext: (contextOptions) => docjoin.createContext(contextOptions),
    async execute(request, executeOptions = {}) {
      const refused = docjoin.refuseSource(request.query ?? '', request.variables);
      if (refused) return refusedBeforeExecution(refused);
      let contextValue: GatewayContext;
      try {
        contextValue = docjoin.createContext(executeOptions);
      } catch (error) {
        // A bad strategy header: answered as over HTTP, where the same error becomes the response's errors.
        if (error instanceof GraphQLError) return refusedBeforeExecution(error);
        throw error;
      }
      const http = executeOptions.costHeader === undefined ? undefined : { method: 'POST', headers: new HeaderMap([[COST_HEADER, executeOptions.costHeader]]), search: '', body: {} };
      const response = await apollo.executeOperation({ ...request, ...(http && { http }) }, { contextValue });
      if (response.body.kind !== 'single') throw new Error('execute() does not support incremental delivery');
      const { data, errors, extensions } = response.body.singleResult;
      return { data, errors, cost: extensions?.cost as CostReport | undefined };
    },
    stop(stopOptions = {}) {
      stopping ??= stopOnce(stopOptions);
      return stopping;
    },
  };

  async function stopOnce(stopOptions: { drainFirst?: boolean }): Promise<void> {
    try {
      if (http && stopOptions.drainFirst && settings.shutdownDelayMs > 0) {
        docjoin.logger.info({ delayMs: settings.shutdownDelayMs }, 'draining: /health answers 503 while requests are still taken');
        http.drain();
        await new Promise((resolve) => setTimeout(resolve, settings.shutdownDelayMs));
      }
      if (http) {
        docjoin.logger.info({ graceMs: settings.shutdownGraceMs }, 'stopping: finishing the requests in flight');
        const cut = await http.close(settings.shutdownGraceMs);
        if (cut > 0) docjoin.logger.warn({ cut, graceMs: settings.shutdownGraceMs }, `cut off ${cut} request(s) still running after the grace period`);
      }
      await apollo.stop();
      // After the requests in flight: their operations are in the last window.
      await docjoin.workload?.stop();
      docjoin.close();
    } finally {
      releaseGuard();
    }
  }
}

/** An operation refused before it ran, as execute() answers it: the error without its HTTP status, no data and no cost. */
function refusedBeforeExecution(error: GraphQLError): ExecutedOperation {
  const { http: _status, ...extensions } = error.extensions;
  return { data: undefined, errors: [{ message: error.message, extensions }], cost: undefined };
}
