import type { ApolloServerOptions, ApolloServerPlugin } from '@apollo/server';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import { createRequestContext, type AfterAnswerTask, type GatewayContext } from './request/context/request-context';
import { NO_OVERRIDES, parseStrategyOverrides, STRATEGY_HEADER } from './operation/plan/strategy-overrides';
import { createAuthenticator, type AuthOptions, type Viewer } from './request/authentication/authenticate';
import { ViewerAccess } from './request/access/viewer-access';
import { claimShapeCheck } from './request/access/claim-shape-check';
import { collectionsReadInPart, presetReferences, type AccessRules } from './startup/access-rules/access-rule-types';
import { checkAccessIndexes } from './startup/access-rules/check-access-indexes';
import { integrityOracleWarnings } from './startup/access-rules/integrity-oracles';
import { incomingReferences } from './writes/delete-planner';
import { operationRefusal } from './operation/access/refuse-operation';
import { comparisonRefusal } from './operation/access/operation-access';
import { explainedViewer } from './operation/explain/viewer-explanation';
import { TrustedDocuments, type PersistedQueryCache } from './operation/access/trusted-documents';
import { documentNestingError, variablesNestingError } from './operation/limits/document-nesting';
import { ApolloServerPluginDocjoinCost, COST_HEADER, parseCostHeader } from './operation/cost/cost-plugin';
import type { EstimateViolationRecorder } from './operation/cost/estimate-check';
import type { LimitOrigins } from './operation/cost/cost-limits';
import { createFormatError } from './errors/format-error';
import { unservableValue } from './errors/unservable-value';
import { compiledExecutionPlugin, type ErrorShaping, type ExecutionScope } from './request/execution/compiled-execution';
import { CollectionSizes } from './operation/estimate/collection-sizes';
import { estimateWithVariables } from './operation/estimate/estimate-request';
import { OperationPlanner } from './operation/plan/operation-planner';
import { EstimateCache } from './operation/estimate/estimate-cache';
import { CopyBackfills } from './operation/estimate/copy-backfills';
import { counterCount } from './operation/planning/batch-specs';
import { totalSum } from './operation/planning/total-sum';
import { checkOptionNames, GatewayOptionError, resolveSettings, type GatewaySettings, type ResolvedSettings } from './gateway-options';
import { checkHealth, type HealthReport, type MongoKind } from './http/health';
import { DocumentBudget } from './operation/limits/document-budget';
import { ClientBudgets, costPoints, type BudgetCharge } from './operation/limits/client-budgets';
import { OperationDeadline } from './operation/limits/operation-deadline';
import type { LendableSlot, LentSlot } from './operation/limits/lendable-slot';
import { operationDeadlinePlugin } from './operation/limits/operation-deadline-plugin';
import { MongoFunnel, type Db, type MongoClient } from './request/mongo/mongo-funnel';
import { WorkloadCollection } from './workload/workload-collection';
import { buildGatewaySchema, SchemaProblems, type GatewaySchema } from './startup/schema/build-gateway-schema';
import { DatabaseMismatchError, StorageConfigError } from './errors/internal-errors';
import { withDirectiveTypeDefs } from './startup/schema/schema-sources';
import { checkSchemaSources } from './startup/schema/check-schema-sources';
import type { StorageMap } from './startup/storage-map/storage-map-types';
import { validateAgainstDatabase } from './startup/storage-map/validate-against-database';
import { derivedValues } from './startup/write-model/derived-values';
import type { WriteOptions } from './writes/request-writes';
import type { MutationWritePlans } from './writes/write-plan';
import { createWriteRuntime, type WriteRuntime } from './writes/write-runtime';
import { messageOf, WorkloadCapture } from './workload/workload-capture';
import { WorkloadFile } from './workload/workload-file';
import { ApolloServerPluginDocjoinWorkload } from './workload/workload-plugin';
import { redactSecrets } from '../observability/redact-secrets';
import { silentLogger, type DocjoinLogger } from '../observability/logger';
import { GatewayMetrics } from './observability/metrics';
import { MongoAvailability } from './observability/mongo-availability';
import { requestObserverPlugin } from './observability/request-observer-plugin';
import { accessJoinsByRole, withAccessJoins } from './operation/access/role-joins';

export interface DocjoinOptions extends GatewaySettings {
  /** Your SDL, annotated with docjoin's directives (their definitions are added unless you include them). */
  readonly typeDefs: string | readonly string[];
  /** Resolvers for what the directives do not cover: root fields, scalars, abstract types. */
  readonly resolvers?: IResolvers | readonly IResolvers[];
  /** What each Mutation field's write unit does (one entry per WriteUnit call), by field name. */
  readonly writePlans?: MutationWritePlans;
  /** Created with `{ monitorCommands: true }` (connectMongo does); you own it and close it. */
  readonly mongoClient: MongoClient;
  /** The database, or its name; always read through `mongoClient` (a Db of another client is taken by name). */
  readonly db: Db | string;
  /** Shown by /health: `embedded` for docjoin's embedded server (default `external`). */
  readonly mongoKind?: MongoKind;
  /** Shown (credentials hidden) by /health; defaults to the client's hosts. */
  readonly mongoUri?: string;
  /** Check collections, join indexes and a sample of documents before serving (default true). */
  readonly validateDatabase?: boolean;
  /**
   * Receives each startup warning (a sampled document that disagrees with the schema, an order no index
   * serves); the start goes on. Default: one `docjoin: warning: …` line on stderr.
   */
  readonly onWarning?: (message: string) => void;
  /** How mutations write (default: a transaction when the server supports it). */
  readonly writes?: WriteOptions;
  /** Add an error to a response whose measured cost exceeds its estimate (default off). */
  readonly checkEstimates?: boolean;
  /** Receives each violation `checkEstimates` finds. */
  readonly onEstimateViolation?: EstimateViolationRecorder;
  /**
   * Where each cost limit was set, named by COST_LIMIT_EXCEEDED messages (`docjoin serve` says which came
   * from the environment and which from the config file). Unset: a limit `limits` gives is named as that
   * option, any other as the default.
   */
  readonly limitOrigins?: LimitOrigins;
  /**
   * How requests are authenticated: `{ jwt: { secret | publicKey | jwksUrl, issuer, audience, … } }`, or
   * your own `authenticate(request)`; the viewer's role picks its `@access` rules. Without it every
   * request is anonymous (role `anonymousRole`, default "anonymous").
   */
  readonly auth?: AuthOptions;
  /**
   * Where docjoin logs (a pino logger, or one with pino's methods): each request, slow operations,
   * MongoDB outages and recoveries. Default: nothing (`docjoin serve` gives its own, see DOCJOIN_LOG_LEVEL).
   */
  readonly logger?: DocjoinLogger;
}

export interface ContextOptions {
  readonly headers?: RequestHeaders;
  readonly strategyHeader?: string;
  readonly deadline?: OperationDeadline;
  /** Who sends the request (`await docjoin.authenticate(headers)`); default: the anonymous viewer. */
  readonly viewer?: Viewer;
  /** The address the request came from (`req.socket.remoteAddress`): an anonymous client's budget is kept by it. */
  readonly clientAddress?: string;
  /** Where the request's tasks wait for its answer to be written (GatewayContext.afterAnswer); default: they run at once. */
  readonly afterAnswer?: (task: AfterAnswerTask) => void;
  /** The request's place among those the server runs at once, lent while it waits for the document budget; default: none. */
  readonly admissionSlot?: LendableSlot;
}

/** Request headers as Node (`req.headers`) or Fetch/Apollo (`HeaderMap`) hold them. */
export type RequestHeaders = { get(name: string): string | undefined | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * docjoin's parts for an Apollo Server you run yourself: give `schema`, `plugins` and `formatError` to
 * `new ApolloServer(...)`, and build each request's context with `createContext({ headers })`.
 */
export interface Docjoin {
  /** The executable public schema: your types with docjoin's resolvers, storage directives removed. */
  readonly schema: GraphQLSchema;
  /**
   * A plugin that runs each query docjoin owns end to end (generated root fields, and below them only
   * fields docjoin resolves) straight from docjoin's plan, level by level, as `docjoin serve` does
   * (request/execution/compiled-execution.ts): the same `data`, errors and cost as graphql-js, less work per
   * parent. Mutations and hand-written root fields too with `mutationsAndHandWrittenRoots: true`, when
   * no plugin of yours needs Apollo's execution hooks for them (willResolveField, `info.cacheControl`).
   * Every other operation runs on Apollo's graphql-js. Add it to your Apollo's plugins, after any plugin
   * of yours that answers operations itself. Its errors are shaped as your server shapes the others when
   * it uses docjoin's `formatError` and Apollo's default for stack traces (none when NODE_ENV is
   * production or test); give it yours when they differ.
   */
  compiledExecution(options?: Partial<ErrorShaping<GatewayContext>> & ExecutionScope): ApolloServerPlugin<GatewayContext>;
  readonly storageMap: StorageMap;
  readonly settings: ResolvedSettings;
  /**
   * The cost plugin (`extensions.cost`, the estimate and its limits), then the request log and metrics,
   * and the workload capture's when it is on.
   */
  readonly plugins: readonly ApolloServerPlugin<GatewayContext>[];
  /**
   * The workload capture (the `workload` option), undefined when off: `flush()` writes the counts now;
   * call `stop()` before `close()` to write the last ones.
   */
  readonly workload: WorkloadCapture | undefined;
  /** Prometheus metrics (serve `metrics.text()` with `metrics.contentType`); undefined with `metrics: false`. */
  readonly metrics: GatewayMetrics | undefined;
  readonly logger: DocjoinLogger;
  /** Maps docjoin's internal errors to public codes (stack traces hidden in production). */
  readonly formatError: NonNullable<ApolloServerOptions<GatewayContext>['formatError']>;
  /**
   * A fresh per-request context; `headers` may switch strategies (`x-docjoin-strategy`) when that is
   * enabled. Its deadline starts now (operationTimeoutMs) unless one is given (the HTTP server starts
   * it when the request arrives, and stops it when the client goes away).
   */
  createContext(options?: ContextOptions): GatewayContext;
  /**
   * The request's viewer from its headers (the `auth` option), for createContext; rejects with a
   * GraphQLError (401 UNAUTHENTICATED, or 503 AUTHENTICATION_UNAVAILABLE) that your context function throws on.
   */
  authenticate(headers: RequestHeaders): Promise<Viewer>;
  /**
   * The refusal of a request's document text and variables before Apollo parses or validates them, or
   * undefined: either nesting deeper than graphql-js's stack allows, or, with trusted documents only, a
   * text the manifest does not hold (validation's errors would name the schema's fields). Refuse the
   * request with it, as a failing context function does.
   */
  refuseSource(text: string, variables?: unknown): GraphQLError | undefined;
  /** The `@access` rules of the schema (`enabled` is false when it has none). */
  readonly accessRules: AccessRules;
  /**
   * With the trustedDocuments setting, your Apollo Server's `persistedQueries` option (its cache serves
   * the manifest's documents by hash); undefined leaves Apollo's automatic persisted queries as they are.
   */
  readonly persistedQueries: { readonly cache: PersistedQueryCache } | undefined;
  /** `GET /health`'s answer: 200 when MongoDB answers a ping, else 503. */
  health(): Promise<{ status: number; body: HealthReport }>;
  /** Stops listening to the client's command events (and the workload's flush timer); the client stays yours to close. */
  close(): void;
}

/**
 * The schema's problems and, in the same start, the database check of what the schema could build
 * despite them (its missing collections and indexes, its sampled documents), so one start reports every
 * mistake. The database's warnings are given to `warn`; a database that cannot be reached adds nothing.
 */
async function withDatabaseProblems(error: SchemaProblems, catalog: MongoFunnel, warn: (message: string) => void): Promise<StorageConfigError> {
  try {
    for (const warning of await validateAgainstDatabase(error.storageMap, catalog, { counters: error.counters })) warn(warning);
    return error;
  } catch (databaseError) {
    return databaseError instanceof DatabaseMismatchError ? new StorageConfigError(error.problems, databaseError.problems) : error;
  }
}

/**
 * Startup: SDL → storage map (static validation) → database validation → schema, plugin and context
 * factory. A StorageConfigError or DatabaseMismatchError names `Type.field` and the fix; a bad option
 * is a GatewayOptionError naming the option and its value.
 */
export async function createDocjoin(options: DocjoinOptions): Promise<Docjoin> {
  checkOptionNames({ ...options });
  const settings = resolveSettings(options, process.env.NODE_ENV);
  const sources = typeof options.typeDefs === 'string' ? [options.typeDefs] : options.typeDefs;
  checkSchemaSources(sources.map((body, index) => ({ name: sources.length === 1 ? 'typeDefs' : `typeDefs[${index}]`, body })));
  const typeDefs = withDirectiveTypeDefs(options.typeDefs);
  const warn = options.onWarning ?? (options.logger ? (message: string) => options.logger!.warn(message) : (message: string) => process.stderr.write(`docjoin: warning: ${message}\n`));
  // Before the funnel listens to the client: a bad auth option or trusted-documents file leaves nothing attached.
  const authenticator = await createAuthenticator(options.auth);
  const trusted = settings.trustedDocuments ? TrustedDocuments.load(settings.trustedDocuments, settings.production) : undefined;
  // Commands are measured on mongoClient's event stream: a Db of another client would cost nothing.
  const db = options.mongoClient.db(typeof options.db === 'string' ? options.db : options.db.databaseName);
  const funnel = new MongoFunnel(options.mongoClient, db);
  let built: GatewaySchema;
  try {
    built = buildGatewaySchema({ typeDefs, resolvers: options.resolvers ?? [], ...(options.writePlans && { writePlans: options.writePlans }) });
  } catch (error) {
    const reported = error instanceof SchemaProblems && (options.validateDatabase ?? true) ? await withDatabaseProblems(error, funnel, warn) : error;
    funnel.detach();
    throw reported;
  }
  const { schema, storageMap, writeModel, writePlans, ownership, accessRules, mutationActions } = built;
  if (accessRules.enabled) funnel.requireReadScopes();
  let writeRuntime: WriteRuntime;
  try {
    writeRuntime = createWriteRuntime({
      model: writeModel,
      mutationType: schema.getMutationType(),
      funnel,
      plans: writePlans,
      writes: options.writes,
      retries: { maxAttempts: settings.maxTransactionAttempts, retryMs: settings.transactionRetryMs },
      readInPart: collectionsReadInPart(accessRules),
      presetReferences: presetReferences(accessRules, storageMap.relations.values()),
    });
  } catch (error) {
    // A mutation without a valid write plan: nothing stays attached to the client.
    funnel.detach();
    throw error;
  }
  const nodeEnvWarning = options.production === undefined ? unknownNodeEnv(process.env.NODE_ENV) : undefined;
  if (nodeEnvWarning) warn(nodeEnvWarning);
  if (accessRules.enabled && !options.auth) warn('the schema has @access rules but no auth option: every request is anonymous; set auth.jwt (or auth.authenticate) to let viewers sign in');
  // The document estimate is bounded by collection sizes once the database is known to hold the schema's data.
  const sizes = options.validateDatabase ?? true ? new CollectionSizes(storageMap, funnel) : undefined;
  // Copies a backfill has not reached yet are joined; the estimate counts that join while it runs.
  const backfills = options.validateDatabase ?? true ? new CopyBackfills(storageMap, writeModel, funnel) : undefined;
  const counters = new Map(writeModel.counters.map((rule) => [rule.coordinate, counterCount(rule)]));
  const totals = new Map(writeModel.totals.map((rule) => [rule.coordinate, totalSum(rule)]));
  const workload = settings.workload
    ? new WorkloadCapture(
        'file' in settings.workload ? new WorkloadFile(settings.workload.file) : new WorkloadCollection(db, settings.workload.collection),
        settings.workload.flushIntervalMs,
        (error) => warn(messageOf(error)),
      )
    : undefined;
  try {
    if (options.validateDatabase ?? true) {
      const derived = [...writeRuntime.model.counters, ...writeRuntime.model.totals.map((total) => ({ ...total, derived: 'total' as const }))];
      const mutationType = schema.getMutationType()?.name;
      const writes = new Map([...writeRuntime.estimates].map(([fieldName, estimate]) => [`${mutationType}.${fieldName}`, estimate.writes]));
      const listing = await funnel.listCollections();
      // A standalone server runs no transaction: its mutations write a capped collection as 'never' does.
      const transactions = options.writes?.transactions !== 'never' && (listing.untransactable.size === 0 || (await funnel.supportsTransactions()));
      const warnings = await validateAgainstDatabase(storageMap, funnel, { counters: derived, schema, writes, derived: derivedValues(writeRuntime.model), transactions, listing, onIncompleteCopies: (coordinates) => backfills?.assumeIncomplete(coordinates) });
      if (accessRules.enabled) {
        const existing = listing.names;
        const indexesOf = (collection: string) => funnel.listIndexes(collection);
        warnings.push(...(await checkAccessIndexes(accessRules, existing, indexesOf)));
        const refusal = (role: string, typeName: string, path: string) => comparisonRefusal(new ViewerAccess(accessRules, explainedViewer(role, {}, '')), storageMap, typeName, path);
        warnings.push(...(await integrityOracleWarnings(accessRules, storageMap, writeModel.totals, existing, indexesOf, (typeName) => incomingReferences(writeModel, typeName), refusal, listing.validators)));
      }
      for (const warning of warnings) warn(warning);
    }
    // Asked before any request, whether or not the database is checked, so no mutation sends a command its cost report leaves out.
    if (schema.getMutationType()) await writeRuntime.prepare();
    await sizes?.start();
    await backfills?.start();
    await workload?.start().catch((error: unknown) => {
      throw new GatewayOptionError(`option workload: cannot write to ${workload.sink.target}: ${messageOf(error)}`);
    });
  } catch (error) {
    sizes?.stop();
    backfills?.stop();
    funnel.detach();
    throw error;
  }

  const metrics = settings.metrics ? new GatewayMetrics() : undefined;
  const planner = new OperationPlanner(schema, ownership, metrics ? { onLookup: (hit) => metrics.planLookup(hit) } : {});
  metrics?.watchPlans(() => planner.size);
  const accessJoins = accessJoinsByRole(accessRules);
  const checkClaims = claimShapeCheck(accessRules, warn);
  const createContext = (contextOptions: ContextOptions = {}): GatewayContext => {
    const header = contextOptions.strategyHeader ?? (contextOptions.headers && headerValue(contextOptions.headers, STRATEGY_HEADER));
    // Checked where it is honoured (costCommands), ignored as the strategy header is where it is not.
    if (settings.costCommands && contextOptions.headers) parseCostHeader(headerValue(contextOptions.headers, COST_HEADER));
    const viewer = contextOptions.viewer ?? authenticator.anonymous;
    checkClaims?.(viewer);
    const requested = settings.strategyOverrides ? parseStrategyOverrides(header, storageMap) : NO_OVERRIDES;
    const context = createRequestContext({
      storageMap,
      funnel,
      overrides: withAccessJoins(requested, accessJoins.get(viewer.role)),
      viewer,
      access: accessRules.enabled ? new ViewerAccess(accessRules, viewer) : undefined,
      ...(contextOptions.clientAddress !== undefined && { clientAddress: contextOptions.clientAddress }),
      ...(contextOptions.afterAnswer && { afterAnswer: contextOptions.afterAnswer }),
      writes: writeRuntime,
      deadline: contextOptions.deadline ?? new OperationDeadline(settings.operationTimeoutMs),
      plans: planner,
      ...(backfills && { copyBackfilling: (coordinate: string) => backfills.backfilling(coordinate) }),
      comparisonRefusal: (access, typeName, path) => comparisonRefusal(access, storageMap, typeName, path),
      maxResponseBytes: settings.maxResponseBytes,
    });
    if (contextOptions.admissionSlot) admissionSlots.set(context.ledger, contextOptions.admissionSlot);
    return context;
  };
  /** Each request's admission slot over docjoin's HTTP server, by its ledger; kept off the context resolvers see. */
  const admissionSlots = new WeakMap<object, LendableSlot>();
  const documentBudget = new DocumentBudget(settings.maxDocumentsInFlight);
  metrics?.watchDocumentsInFlight(() => documentBudget.inFlight);
  const budgets = settings.budget ? new ClientBudgets(settings.budget) : undefined;
  /** Each request's charge against its client's budget, by its ledger (one per request). */
  const charges = new WeakMap<object, BudgetCharge>();
  /** The points a request asked of a budget that refused it (429 THROTTLED, or more than it ever holds), by its ledger. */
  const refusedPoints = new WeakMap<object, number>();

  const refuse = operationRefusal({
    planner,
    access: accessRules.enabled || settings.introspection !== true ? { storageMap, mutations: mutationActions, introspection: settings.introspection } : undefined,
    trusted,
  });
  const checkEstimate = options.checkEstimates ?? false;
  const estimates = new EstimateCache();
  const costPlugin = ApolloServerPluginDocjoinCost<GatewayContext>({
    report: settings.costReport,
    estimate: !estimateRead(settings, checkEstimate)
      ? undefined
      : (request) => {
          const prepared = planner.prepare(request);
          if (!prepared) return undefined;
          const { plan, variables } = prepared;
          const { contextValue } = request;
          // The data's measures (collection sizes, longest arrays) are everyone's: a collection the role
          // sees only in part is estimated without them, or the estimate would tell how much it cannot see.
          const { access } = contextValue;
          const measuredFor = (collection: string | undefined) => !access || (collection === undefined ? !access.filtersAnyRow() : access.readsEveryRow(collection));
          const listsReadableRows = (coordinate: string) => {
            const listed = collectionListed(storageMap, coordinate);
            return listed === undefined || measuredFor(listed);
          };
          const estimate = (read: Readonly<Record<string, unknown>>) =>
            estimateWithVariables(
              {
                schema,
                storageMap,
                plan,
                strategyFor: contextValue.strategyFor,
                assumedListSize: settings.assumedListSize,
                writeEstimate: (field) => writeRuntime.estimates.get(field),
                ...(sizes && {
                  collectionSize: (collection: string) => (measuredFor(collection) ? sizes.bound(collection) : undefined),
                  // Measured only when the role reads every row holding the list and every row it lists: else the length tells of rows it cannot see.
                  listLength: (coordinate: string) => (measuredFor(collectionHolding(storageMap, coordinate)) && listsReadableRows(coordinate) ? sizes.listLength(coordinate) : undefined),
                  valueBytes: (typeName: string, fieldName: string) => {
                    const type = storageMap.types.get(typeName);
                    const field = type?.fields.get(fieldName);
                    return type?.collection !== undefined && field?.kind === 'stored' && measuredFor(type.collection) ? sizes.valueBytes(type.collection, field.path) : undefined;
                  },
                }),
                ...(backfills && { copyBackfilling: (coordinate: string) => backfills.backfilling(coordinate), counters, totals }),
                ...(access && { readsEveryRow: (collection: string) => access.readsEveryRow(collection) }),
              },
              read,
            );
          // A request that switches strategies is estimated for itself.
          return contextValue.overrides === NO_OVERRIDES ? estimates.estimate(plan, variables, `${sizes?.version ?? 0}:${backfills?.version ?? 0}:${access?.role ?? ''}`, estimate) : estimate(variables);
        },
    limits: settings.limits,
    ...(options.limitOrigins && { limitOrigins: options.limitOrigins }),
    givenLimits: options.limits,
    commandsView: ({ request }) => settings.costCommands && parseCostHeader(request.http?.headers.get(COST_HEADER)) === 'commands',
    reportSoFar: (context, extensions) => {
      context.deadline.extensionsSoFar = extensions;
    },
    readsEveryRow: ({ access }) => writeCountsShownTo(access),
    keysShown: ({ access }) =>
      access &&
      ((coordinate) => {
        const join = storageMap.relations.get(coordinate)?.shapes.join;
        return join?.direction !== 'byKey' || access.readsEveryRow(join.collection);
      }),
    replyBytesShown: ({ access }) => access?.seesReplyBytes() ?? true,
    checkEstimate,
    ...(options.onEstimateViolation && { onEstimateViolation: options.onEstimateViolation }),
    ...(refuse && { refuse }),
    admit: async (estimate, context) => {
      // Before any read: a client over its budget is refused here, and waits for no document budget.
      const points = costPoints(estimate);
      let charge: BudgetCharge | undefined;
      try {
        charge = budgets?.take(context.client, points);
      } catch (error) {
        refusedPoints.set(context.ledger, points);
        throw error;
      }
      if (charge) charges.set(context.ledger, charge);
      // Stopped while it waited for the document budget (its time up, its client gone), it read nothing: its points come back.
      // While it waits, its admission slot serves another request; it takes one back, ahead of the queue, to read.
      let lent: LentSlot | undefined;
      const release = await documentBudget.acquire(estimate.documents, context.deadline, () => (lent = admissionSlots.get(context.ledger)?.lend())).catch((error: unknown) => {
        charge?.settle(0);
        throw error;
      });
      await lent?.takeBack(context.deadline).catch((error: unknown) => {
        release();
        charge?.settle(0);
        throw error;
      });
      return () => {
        release();
        charge?.settle(costPoints(context.ledger.totals(writeCountsShownTo(context.access))));
      };
    },
    ...(budgets && {
      budgetReport: (context: GatewayContext) => {
        const charge = charges.get(context.ledger);
        if (charge) return { requestedPoints: charge.requestedPoints, actualPoints: costPoints(context.ledger.totals(writeCountsShownTo(context.access))), throttleStatus: budgets.status(charge.client) };
        // A refused request's report says what it asked and what its client's bucket holds, as its error does.
        const refused = refusedPoints.get(context.ledger);
        return refused === undefined ? undefined : { requestedPoints: refused, actualPoints: 0, throttleStatus: budgets.status(context.client) };
      },
    }),
  });

  const mongoUri = options.mongoUri ?? `mongodb://${options.mongoClient.options.hosts.map((host) => host.toString()).join(',')}`;
  const logger = options.logger ?? silentLogger();
  const availability = new MongoAvailability(options.mongoClient, logger, metrics, redactSecrets(mongoUri));
  const observer = requestObserverPlugin({
    logger,
    metrics,
    slowOperationMs: settings.slowOperationMs,
    logVariables: settings.logVariables,
    onDatabaseUnavailable: () => availability.unavailable('a request could not reach it'),
    onDatabaseReached: () => availability.available(),
  });
  const formatError = createFormatError({ production: settings.production, hideSuggestions: settings.introspection !== true, onInternalError: (error) => logger.error({ err: error, ...unservableValue(schema, error) }, 'an operation failed with an internal error') });
  return {
    schema,
    compiledExecution: ({ mutationsAndHandWrittenRoots, ...shaping } = {}) =>
      compiledExecutionPlugin(schema, planner, { formatError, includeStacktraceInErrorResponses: apolloIncludesStacktraces(), ...shaping }, { mutationsAndHandWrittenRoots: mutationsAndHandWrittenRoots ?? false }),
    storageMap,
    settings,
    plugins: [
      operationDeadlinePlugin(),
      costPlugin,
      observer,
      ...(workload ? [ApolloServerPluginDocjoinWorkload<GatewayContext>({ recorder: workload.recorder, onError: (error) => logger.error({ err: error }, 'workload capture failed') })] : []),
    ],
    workload,
    metrics,
    logger,
    formatError,
    createContext,
    persistedQueries: trusted && { cache: trusted.cache() },
    authenticate: (headers) => authenticator.authenticate({ header: (name) => headerValue(headers, name) }),
    refuseSource: (text, variables) => documentNestingError(text) ?? variablesNestingError(variables) ?? trusted?.refusalOfText(text),
    accessRules,
    // Under load, the answers to requests prove MongoDB is up: /health then sends nothing and waits for nothing,
    // and a ping it does send (which may queue behind the requests' commands) is settled by the next answer to any.
    health: () => checkHealth({ ping: () => (funnel.answeredWithin(HEALTH_PROOF_MS) ? Promise.resolve() : funnel.pingOrAnyAnswer()), kind: options.mongoKind ?? 'external', db: db.databaseName, uri: mongoUri, detail: settings.healthDetail }),
    close: () => {
      funnel.detach();
      availability.close();
      sizes?.stop();
      backfills?.stop();
      workload?.cancel();
    },
  };
}

/** Under access rules, whether the viewer may see the counts of what writes change in a collection (ViewerAccess.seesWriteCountsIn). */
function writeCountsShownTo(access: ViewerAccess | undefined): ((collection: string) => boolean) | undefined {
  return access && ((collection) => access.seesWriteCountsIn(collection));
}

/** The collection whose documents hold the relation field `coordinate`'s array; undefined for a type without one. */
function collectionHolding(storageMap: StorageMap, coordinate: string): string | undefined {
  const field = storageMap.relations.get(coordinate);
  return field && storageMap.types.get(field.typeName)?.collection;
}

/** The collection of the rows a relation lists; undefined for values stored only inside their parents. */
function collectionListed(storageMap: StorageMap, coordinate: string): string | undefined {
  const field = storageMap.relations.get(coordinate);
  return field && storageMap.types.get(field.targetType)?.collection;
}

/** Apollo Server's default for `includeStacktraceInErrorResponses`. */
function apolloIncludesStacktraces(): boolean {
  const nodeEnv = process.env.NODE_ENV;
  return nodeEnv !== 'production' && nodeEnv !== 'test';
}

/**
 * Whether anything reads the static estimate: the cost report, a finite limit, the document budget
 * (whose largest value admits everything), the client budgets or the self-check. Nothing does with all of them off, and
 * then no operation is estimated.
 */
function estimateRead(settings: ResolvedSettings, checkEstimate: boolean): boolean {
  const finiteLimit = Object.values(settings.limits).some((limit) => Number.isFinite(limit));
  return settings.costReport || checkEstimate || finiteLimit || settings.maxDocumentsInFlight < Number.MAX_SAFE_INTEGER || settings.budget !== false;
}

/** How recent an answer from MongoDB must be to stand for /health's ping. */
const HEALTH_PROOF_MS = 2_000;

/** NODE_ENV values whose meaning is known; any other (`prod`) runs as development, which deserves a word. */
const KNOWN_NODE_ENVS: readonly string[] = ['production', 'development', 'test'];

function unknownNodeEnv(nodeEnv: string | undefined): string | undefined {
  if (nodeEnv === undefined || nodeEnv === '' || KNOWN_NODE_ENVS.includes(nodeEnv)) return undefined;
  return `NODE_ENV=${JSON.stringify(nodeEnv)} is not production, development or test; docjoin runs as in development (stack traces in errors, debug headers on). Set NODE_ENV=production for production`;
}

function headerValue(headers: RequestHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | undefined | null }).get(name) ?? undefined;
  const value = (headers as Readonly<Record<string, string | readonly string[] | undefined>>)[name];
  return Array.isArray(value) ? value.join(',') : (value as string | undefined);
}
