import { resolve } from 'node:path';
import { GatewayOptionError } from './errors/internal-errors';
import { isCollectionName } from './documents/collection-name';
import { DEFAULT_COST_LIMITS, type CostLimits } from './operation/cost/cost-limits';
import { DEFAULT_ASSUMED_LIST_SIZE } from './operation/estimate/estimate-operation';
import { DEFAULT_MAX_TRANSACTION_ATTEMPTS, DEFAULT_TRANSACTION_RETRY_MS } from './writes/transaction-retries';
import type { WorkloadOption } from './workload/workload-types';
import { DEFAULT_PORT, MAX_TIMER_MS } from '../settings/setting-rules';
import { browserOrigin } from '../settings/browser-origin';
import { LANDING_PAGES, type LandingPage } from './http/landing-page';
import type { CorsOption } from './http/http-server';
import { trustProxyOption } from './http/client-address';
import type { BudgetOption } from './operation/limits/client-budgets';
import type { TrustedDocumentsOption } from './operation/access/trusted-documents';



/** How the gateway serves and limits requests; every option has a default. */
export interface GatewaySettings {
  /** HTTP port of `/graphql` and `/health` (default 4000; 0 picks a free one). */
  readonly port?: number;
  /** Address to bind (default: every interface, as node:http does). */
  readonly host?: string;
  /** CORS headers on `/graphql` (default off: same-origin browsers and servers only). */
  readonly cors?: CorsOption;
  /** What a browser GET of `/graphql` shows (default sandbox outside production, none in it); see LandingPage. */
  readonly landingPage?: LandingPage;
  /** Hides stack traces and turns the debug headers off by default (default: NODE_ENV is production). */
  readonly production?: boolean;
  /** Honour the `x-docjoin-strategy` request header (default: not in production). */
  readonly strategyOverrides?: boolean;
  /** Honour `x-docjoin-cost: commands` (default: not in production). */
  readonly costCommands?: boolean;
  /**
   * `extensions.cost` on every response (default true). Off, it is left out, and the static estimate
   * is made only when something else reads it: a finite limit, the document budget, checkEstimates.
   */
  readonly costReport?: boolean;
  /** Operations whose static estimate exceeds one are rejected before execution (defaults 50, 100,000, 10). */
  readonly limits?: Partial<CostLimits>;
  /** Entries the document estimate assumes in a list nothing bounds (default 20). */
  readonly assumedListSize?: number;
  /** Prometheus metrics at `/metrics` (default true). */
  readonly metrics?: boolean;
  /**
   * The bearer token `GET /metrics` requires (`Authorization: Bearer <token>`, what Prometheus sends for
   * `authorization: { credentials: … }`): at least 16 characters of A–Z, a–z, 0–9 and `-._~+/`. Default
   * none: the metrics are open to whoever reaches the port (in production, said at startup).
   */
  readonly metricsToken?: string;
  /** Operations taking at least this many milliseconds are logged as slow (default 1000). */
  readonly slowOperationMs?: number;
  /** Put each request's variables in its log line (default false: they may hold personal data). */
  readonly logVariables?: boolean;
  /** On stop (SIGTERM), how long requests in flight may take to finish before they are cut off (default 10,000 ms). */
  readonly shutdownGraceMs?: number;
  /**
   * On SIGTERM, how long the server keeps accepting and answering requests while `/health` answers 503
   * `draining`, before it stops accepting (default 3,000 ms; 0 stops accepting at once). A load balancer
   * meanwhile takes the instance out of rotation, and no connection it already sent is reset.
   */
  readonly shutdownDelayMs?: number;
  /** GraphQL requests run at once over HTTP (default 32); more wait in a queue. */
  readonly maxConcurrentOperations?: number;
  /** Requests waiting for a slot (default 128); beyond, a request gets 503 OVERLOADED with Retry-After. */
  readonly maxQueuedOperations?: number;
  /**
   * How long a request may wait for a slot (default 10,000 ms); then it gets 503 OVERLOADED with
   * Retry-After, so that a client or load balancer can go elsewhere rather than wait for its timeout.
   */
  readonly queueTimeoutMs?: number;
  /** Runs of a mutation's transaction after write conflicts, the first included (default 8); then WRITE_CONFLICT. */
  readonly maxTransactionAttempts?: number;
  /** No transaction retry starts later than this after the mutation's first attempt (default 2,000 ms). */
  readonly transactionRetryMs?: number;
  /**
   * Estimated documents (the cost estimate's) that the operations running at once may fetch together
   * (default 250,000); an operation that does not fit waits for others to finish, but a small one
   * (1% or less) that fits what is free may pass a large one, within a lane of 10% (DocumentBudget). Bounds memory.
   */
  readonly maxDocumentsInFlight?: number;
  /**
   * How long an operation may take, queueing included (default 30,000 ms). Its reads carry the time left
   * as `maxTimeMS`, none is sent after it, and the answer is 504 OPERATION_TIMEOUT. A request's headers
   * still arriving after it are answered 408.
   */
  readonly operationTimeoutMs?: number;
  /**
   * The largest response (default 32 MiB): one certain to be larger is stopped while it is built, as
   * soon as its relation fields' values cannot fit (whoever runs it); a body over it once serialized is
   * replaced over HTTP. Both answer RESPONSE_TOO_LARGE.
   */
  readonly maxResponseBytes?: number;
  /**
   * A budget of cost points per client (default off): `{ capacity, restoreRate }`, a leaky bucket per
   * token subject (per address for anonymous requests) holding at most `capacity` points and refilled
   * by `restoreRate` a second. An operation costs a point per round trip and per document, estimated
   * before it runs (over what is available: 429 THROTTLED with Retry-After) and settled with its measure.
   */
  readonly budget?: false | BudgetOption;
  /**
   * The proxies in front of docjoin whose `X-Forwarded-For` it believes (default false: none): addresses,
   * CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. An anonymous client's budget is then kept by
   * the address the nearest untrusted hop gave, not the proxy's.
   */
  readonly trustProxy?: false | string | readonly string[];
  /**
   * Run only the client's trusted documents: `{ manifest: 'generated/client/persisted-documents.json' }`
   * (graphql-codegen's client preset with `persistedDocuments: true` writes it), or the manifest's content.
   * `only` (default: in production) refuses every other document with PERSISTED_QUERY_NOT_IN_LIST;
   * off, the manifest's documents can be sent by hash alone and other documents run as usual.
   */
  readonly trustedDocuments?: TrustedDocumentsOption;
  /**
   * Who may run introspection (`__schema`, `__type`): true for everyone, false for no one, or the roles
   * allowed (default: everyone outside production, no one in it). Refused with 403 FORBIDDEN.
   */
  readonly introspection?: boolean | readonly string[];
  /** `/health` names the database (kind, name, URI without secrets, a failed ping's error); default: not in production. */
  readonly healthDetail?: boolean;
  /**
   * Workload capture (default false): per relation field and strategy, reads, snapshot hits and misses
   * with the fields that missed, documents and bytes; per mutation, its fan-out. Flushed every
   * `flushIntervalMs` (default 60,000) and on stop to `{ file }` (JSON lines) or `{ collection }`.
   */
  readonly workload?: WorkloadOption;
}

export const DEFAULT_SLOW_OPERATION_MS = 1000;
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
export const DEFAULT_SHUTDOWN_DELAY_MS = 3_000;
export const DEFAULT_MAX_CONCURRENT_OPERATIONS = 32;
export const DEFAULT_MAX_QUEUED_OPERATIONS = 128;
export const DEFAULT_QUEUE_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_DOCUMENTS_IN_FLIGHT = 250_000;
export const DEFAULT_OPERATION_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
export const DEFAULT_WORKLOAD_FLUSH_MS = 60_000;
/** Below this a flush interval is a mistake (a write to the target every few milliseconds). */
export const MIN_WORKLOAD_FLUSH_MS = 100;

/** The workload option with its defaults: the file's absolute path, the flush interval. */
export type ResolvedWorkload = false | { readonly file: string; readonly flushIntervalMs: number } | { readonly collection: string; readonly flushIntervalMs: number };

/** The settings with every default applied, as the gateway uses them (resolveSettings makes them). */
export type ResolvedSettings = ReturnType<typeof resolveSettings>;

/**
 * The name of every setting (checked against GatewaySettings by the compiler): the options createGateway
 * knows, and what `docjoin serve` hands it from its configuration.
 */
export const GATEWAY_SETTING_NAMES = Object.keys({
  port: true, host: true, cors: true, landingPage: true, production: true, strategyOverrides: true, costCommands: true, costReport: true, limits: true,
  assumedListSize: true, metrics: true, metricsToken: true, slowOperationMs: true, logVariables: true, shutdownGraceMs: true, shutdownDelayMs: true, maxConcurrentOperations: true, maxQueuedOperations: true, queueTimeoutMs: true,
  maxTransactionAttempts: true, transactionRetryMs: true, maxDocumentsInFlight: true, operationTimeoutMs: true, maxResponseBytes: true, budget: true, trustProxy: true, trustedDocuments: true, introspection: true, healthDetail: true, workload: true,
} satisfies Record<keyof GatewaySettings, true>) as ReadonlyArray<keyof GatewaySettings>;

export { GatewayOptionError } from './errors/internal-errors';

/**
 * Checks `settings` once, at startup, and applies the defaults. `nodeEnv` decides `production` when
 * the option is not given. Every problem names the option and the value it got.
 */
export function resolveSettings(settings: GatewaySettings, nodeEnv: string | undefined) {
  const production = optionalBoolean(settings, 'production') ?? nodeEnv === 'production';
  return {
    port: optionalInteger(settings, 'port', 0, 65535) ?? DEFAULT_PORT,
    host: optionalString(settings, 'host'),
    cors: corsOption(settings.cors),
    landingPage: landingPageOption(settings.landingPage) ?? ((production ? 'none' : 'sandbox') as LandingPage),
    production,
    strategyOverrides: optionalBoolean(settings, 'strategyOverrides') ?? !production,
    costCommands: optionalBoolean(settings, 'costCommands') ?? !production,
    costReport: optionalBoolean(settings, 'costReport') ?? true,
    limits: limitsOption(settings.limits),
    assumedListSize: optionalInteger(settings, 'assumedListSize', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_ASSUMED_LIST_SIZE,
    metrics: optionalBoolean(settings, 'metrics') ?? true,
    metricsToken: metricsTokenOption(settings.metricsToken),
    slowOperationMs: optionalInteger(settings, 'slowOperationMs', 0, Number.MAX_SAFE_INTEGER) ?? DEFAULT_SLOW_OPERATION_MS,
    logVariables: optionalBoolean(settings, 'logVariables') ?? false,
    shutdownGraceMs: optionalInteger(settings, 'shutdownGraceMs', 0, MAX_TIMER_MS) ?? DEFAULT_SHUTDOWN_GRACE_MS,
    shutdownDelayMs: optionalInteger(settings, 'shutdownDelayMs', 0, MAX_TIMER_MS) ?? DEFAULT_SHUTDOWN_DELAY_MS,
    maxConcurrentOperations: optionalInteger(settings, 'maxConcurrentOperations', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_CONCURRENT_OPERATIONS,
    maxQueuedOperations: optionalInteger(settings, 'maxQueuedOperations', 0, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_QUEUED_OPERATIONS,
    queueTimeoutMs: optionalInteger(settings, 'queueTimeoutMs', 1, MAX_TIMER_MS) ?? DEFAULT_QUEUE_TIMEOUT_MS,
    maxTransactionAttempts: optionalInteger(settings, 'maxTransactionAttempts', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_TRANSACTION_ATTEMPTS,
    transactionRetryMs: optionalInteger(settings, 'transactionRetryMs', 0, MAX_TIMER_MS) ?? DEFAULT_TRANSACTION_RETRY_MS,
    maxDocumentsInFlight: optionalInteger(settings, 'maxDocumentsInFlight', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_DOCUMENTS_IN_FLIGHT,
    operationTimeoutMs: optionalInteger(settings, 'operationTimeoutMs', 1, MAX_TIMER_MS) ?? DEFAULT_OPERATION_TIMEOUT_MS,
    maxResponseBytes: optionalInteger(settings, 'maxResponseBytes', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_MAX_RESPONSE_BYTES,
    budget: budgetOption(settings.budget),
    trustProxy: trustProxyOption(settings.trustProxy),
    trustedDocuments: trustedDocumentsOption(settings.trustedDocuments),
    introspection: introspectionOption(settings.introspection) ?? !production,
    healthDetail: optionalBoolean(settings, 'healthDetail') ?? !production,
    workload: workloadOption(settings.workload),
  } as const satisfies Readonly<Record<keyof GatewaySettings, unknown>>;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function optionalBoolean<K extends 'production' | 'strategyOverrides' | 'costCommands' | 'costReport' | 'metrics' | 'logVariables' | 'healthDetail'>(settings: GatewaySettings, name: K): boolean | undefined {
  const value: unknown = settings[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new GatewayOptionError(`option ${name} must be true or false, got ${describe(value)}`);
  return value;
}

function optionalString(settings: GatewaySettings, name: 'host'): string | undefined {
  const value: unknown = settings[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new GatewayOptionError(`option ${name} must be a non-empty string such as "127.0.0.1", got ${describe(value)}`);
  return value;
}

function optionalInteger(
  settings: GatewaySettings,
  name: 'port' | 'assumedListSize' | 'slowOperationMs' | 'shutdownGraceMs' | 'shutdownDelayMs' | 'maxConcurrentOperations' | 'maxQueuedOperations' | 'queueTimeoutMs' | 'maxTransactionAttempts' | 'transactionRetryMs' | 'maxDocumentsInFlight' | 'operationTimeoutMs' | 'maxResponseBytes',
  min: number, max: number): number | undefined {
  const value: unknown = settings[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const upTo = max === Number.MAX_SAFE_INTEGER ? 'any size' : max === MAX_TIMER_MS ? `${max} (some 24.8 days, the longest a Node timer waits)` : max;
    throw new GatewayOptionError(`option ${name} must be an integer from ${min} to ${upTo}, got ${describe(value)}`);
  }
  return value;
}

/** A bearer token's characters (RFC 6750's b64token), so that it fits an Authorization header as it is. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const MIN_METRICS_TOKEN_LENGTH = 16;

/** What is wrong with a metrics token, without its value (it is a secret); undefined when it is fine. */
export function metricsTokenProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${typeof value}`;
  if (!BEARER_TOKEN.test(value)) return 'may hold only A–Z, a–z, 0–9 and -._~+/ (then = padding), as a bearer token does';
  if (value.length < MIN_METRICS_TOKEN_LENGTH) return `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters long, got ${value.length} (e.g. openssl rand -hex 24)`;
  return undefined;
}

function metricsTokenOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const problem = metricsTokenProblem(value);
  if (problem !== undefined) throw new GatewayOptionError(`option metricsToken ${problem}`);
  return value as string;
}

function corsOption(value: unknown): CorsOption {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  const origin = (value as { origin?: unknown } | null)?.origin;
  const credentials = (value as { credentials?: unknown } | null)?.credentials;
  const origins = typeof origin === 'string' ? [origin] : Array.isArray(origin) ? origin : undefined;
  const valid = origins !== undefined && origins.length > 0 && origins.every((entry) => typeof entry === 'string' && browserOrigin(entry) !== undefined);
  if (!valid || (credentials !== undefined && typeof credentials !== 'boolean')) {
    throw new GatewayOptionError(`option cors must be true, false or { origin: "https://app.example.com" | [origins], credentials?: boolean }, got ${describe(value)}`);
  }
  // As the browser sends it: `https://App.example.com:443/` names `https://app.example.com`.
  return { origin: (origins as string[]).map((entry) => browserOrigin(entry)!), ...(credentials !== undefined && { credentials: credentials as boolean }) };
}

function trustedDocumentsOption(value: unknown): TrustedDocumentsOption | undefined {
  if (value === undefined) return undefined;
  const { manifest, only, ...other } = (typeof value === 'object' && value !== null ? value : {}) as { manifest?: unknown; only?: unknown };
  const manifestOk = (typeof manifest === 'string' && manifest.trim() !== '') || (typeof manifest === 'object' && manifest !== null && !Array.isArray(manifest));
  if (typeof value !== 'object' || value === null || Object.keys(other).length > 0 || !manifestOk || (only !== undefined && typeof only !== 'boolean')) {
    throw new GatewayOptionError(`option trustedDocuments must be { manifest: "generated/client/persisted-documents.json", only?: true | false }, got ${describe(value)}`);
  }
  return Object.freeze({ manifest: manifest as TrustedDocumentsOption['manifest'], ...(only !== undefined && { only: only as boolean }) });
}

function budgetOption(value: unknown): false | BudgetOption {
  if (value === undefined || value === false) return false;
  const { capacity, restoreRate, ...other } = (typeof value === 'object' && value !== null ? value : {}) as { capacity?: unknown; restoreRate?: unknown };
  const positive = (number: unknown) => typeof number === 'number' && Number.isFinite(number) && number > 0;
  if (typeof value !== 'object' || value === null || Object.keys(other).length > 0 || !positive(capacity) || !positive(restoreRate)) {
    throw new GatewayOptionError(`option budget must be false or { capacity: 1000, restoreRate: 50 } (points, and points a second, both above 0), got ${describe(value)}`);
  }
  return Object.freeze({ capacity: capacity as number, restoreRate: restoreRate as number });
}

function introspectionOption(value: unknown): boolean | readonly string[] | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((role) => typeof role === 'string' && role.trim() !== '')) return Object.freeze([...value] as string[]);
  throw new GatewayOptionError(`option introspection must be true, false or a list of roles such as ["admin"], got ${describe(value)}`);
}

function landingPageOption(value: unknown): LandingPage | undefined {
  if (value === undefined) return undefined;
  if (!LANDING_PAGES.includes(value as LandingPage)) throw new GatewayOptionError(`option landingPage must be "sandbox", "ide" or "none", got ${describe(value)}`);
  return value as LandingPage;
}

function limitsOption(value: unknown): CostLimits {
  if (value === undefined) return DEFAULT_COST_LIMITS;
  if (typeof value !== 'object' || value === null) throw new GatewayOptionError(`option limits must be an object such as { maxRoundTrips: 50 }, got ${describe(value)}`);
  const limits: Record<string, number> = { ...DEFAULT_COST_LIMITS };
  for (const [name, limit] of Object.entries(value)) {
    if (!(name in DEFAULT_COST_LIMITS)) throw new GatewayOptionError(`option limits.${name} is not a limit; the limits are ${Object.keys(DEFAULT_COST_LIMITS).join(', ')}`);
    if (limit === undefined) continue;
    if (typeof limit !== 'number' || !(limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit >= 1))) {
      throw new GatewayOptionError(`option limits.${name} must be a whole number of at least 1 (or Infinity), got ${describe(limit)}`);
    }
    limits[name] = limit;
  }
  return limits as unknown as CostLimits;
}

const WORKLOAD_SHAPE = 'false, { file: "workload.jsonl" } or { collection: "docjoin_workload" }, with an optional flushIntervalMs';

function workloadOption(value: unknown): ResolvedWorkload {
  if (value === undefined || value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new GatewayOptionError(`option workload must be ${WORKLOAD_SHAPE}, got ${describe(value)}`);
  const { file, collection, flushIntervalMs, ...other } = value as { file?: unknown; collection?: unknown; flushIntervalMs?: unknown };
  const unknown = Object.keys(other);
  if (unknown.length > 0 || (file === undefined) === (collection === undefined)) throw new GatewayOptionError(`option workload must be ${WORKLOAD_SHAPE}, got ${describe(value)}`);
  if (flushIntervalMs !== undefined && (typeof flushIntervalMs !== 'number' || !Number.isSafeInteger(flushIntervalMs) || flushIntervalMs < MIN_WORKLOAD_FLUSH_MS)) {
    throw new GatewayOptionError(`option workload.flushIntervalMs must be an integer from ${MIN_WORKLOAD_FLUSH_MS} to any size, got ${describe(flushIntervalMs)}`);
  }
  const interval = (flushIntervalMs as number | undefined) ?? DEFAULT_WORKLOAD_FLUSH_MS;
  if (file !== undefined) {
    if (typeof file !== 'string' || file.trim() === '') throw new GatewayOptionError(`option workload.file must be a file path such as "workload.jsonl", got ${describe(file)}`);
    return { file: resolve(file), flushIntervalMs: interval };
  }
  if (typeof collection !== 'string' || !isCollectionName(collection)) {
    throw new GatewayOptionError(`option workload.collection must be a collection name such as "docjoin_workload" (no "$", not system.*), got ${describe(collection)}`);
  }
  return { collection, flushIntervalMs: interval };
}


/** Every option createDocjoin and createGateway take, for the typo check. */
const OPTION_NAMES: ReadonlySet<string> = new Set([
  'typeDefs', 'resolvers', 'writePlans', 'mongoClient', 'db', 'mongoKind', 'mongoUri', 'validateDatabase', 'onWarning', 'writes', 'checkEstimates', 'onEstimateViolation', 'limitOrigins', 'listen', 'logger', 'auth',
  ...GATEWAY_SETTING_NAMES,
]);

/**
 * The options docjoin cannot start without, and no option it does not know (a misspelt one would
 * otherwise be ignored in silence). Undefined values count as not given.
 */
export function checkOptionNames(options: Readonly<Record<string, unknown>>): void {
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name) && (options as Record<string, unknown>)[name] !== undefined);
  if (unknown.length > 0) throw new GatewayOptionError(`unknown option ${unknown.map((name) => JSON.stringify(name)).join(', ')}; the options are ${[...OPTION_NAMES].join(', ')}`);
  const typeDefs = options.typeDefs;
  if (!(typeof typeDefs === 'string' || (Array.isArray(typeDefs) && typeDefs.length > 0 && typeDefs.every((source) => typeof source === 'string')))) {
    throw new GatewayOptionError(`option typeDefs must be your SDL (a string, or a list of them), got ${describe(typeDefs)}`);
  }
  if (typeof (options.mongoClient as { db?: unknown } | undefined)?.db !== 'function') throw new GatewayOptionError('option mongoClient must be a MongoClient (connectMongo(uri) makes one with command monitoring on)');
  const db = options.db as { databaseName?: unknown } | string | undefined;
  if (!(typeof db === 'string' ? db.length > 0 : typeof db?.databaseName === 'string')) throw new GatewayOptionError(`option db must be a database name or a Db, got ${describe(db)}`);
}
