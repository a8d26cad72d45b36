import {
  DEFAULT_DB_NAME,
  DEFAULT_MONGO_TIMEOUT_MS,
  DEFAULT_PORT,
  dbNameRule,
  isProblem,
  mongoUriRule,
  nonEmpty,
  portRule,
  seedScaleRule,
  type SettingResult,
} from './setting-rules';

export { redactSecrets, redactUri } from './observability/redact-secrets';
import { DEFAULT_COST_LIMITS, type CostLimits } from './gateway/cost/cost-limits';
import type { CorsOption, GatewaySettings, LandingPage } from './gateway/gateway-options';
import type { WorkloadOption } from './gateway/workload/workload-types';
import type { DocjoinProjectConfig } from './project/project-config';
import { defaultLogFormat, LOG_FORMATS, LOG_LEVELS, type LogFormat } from './observability/logger';
import {
  DEFAULT_MAX_CONCURRENT_OPERATIONS,
  DEFAULT_MAX_DOCUMENTS_IN_FLIGHT,
  DEFAULT_MAX_QUEUED_OPERATIONS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_OPERATION_TIMEOUT_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_SLOW_OPERATION_MS,
  isCollectionName,
  MIN_WORKLOAD_FLUSH_MS,
} from './gateway/gateway-options';
import { DEFAULT_MAX_TRANSACTION_ATTEMPTS, DEFAULT_TRANSACTION_RETRY_MS } from './gateway/writes/transaction-retries';
export type { CostLimits };

/** Process configuration, read once from the environment and validated with messages that name the variable. */
export interface DocjoinConfig {
  readonly port: number;
  /** Unset: start the embedded MongoDB server and seed the demo data. */
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  /** DOCJOIN_MONGO_TIMEOUT_MS: how long a command waits for an unreachable MongoDB before it fails (default 5 s). */
  readonly mongoTimeoutMs: number;
  /** Demo dataset scale loaded into the embedded server by `npm start` (DOCJOIN_SEED_SCALE, default 1). */
  readonly seedScale: number;
  /** Whether the `x-docjoin-strategy` request header is honoured. */
  readonly strategyOverrides: boolean;
  /** Whether `x-docjoin-cost: commands` adds the per-command debug view (DOCJOIN_COST_COMMANDS; off in production). */
  readonly costCommands: boolean;
  /** Operations whose static estimate exceeds a limit are rejected before execution (COST_LIMIT_EXCEEDED). */
  readonly limits: CostLimits;
  /**
   * DOCJOIN_ASSUMED_LIST_SIZE: entries the document estimate assumes in a list nothing bounds (an array
   * of references, an embedded array without `first`). Unset: the estimate's default, 20.
   */
  readonly assumedListSize?: number;
  /** From the config file's `server` (createGateway's settings of the same names). */
  readonly host?: string;
  readonly cors?: CorsOption;
  readonly landingPage?: LandingPage;
  readonly nodeEnv: string;
  readonly production: boolean;
  /** DOCJOIN_LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  readonly logLevel: LogLevel;
  /** DOCJOIN_LOG_FORMAT: json or pretty (default: pretty on a terminal outside production, else json). */
  readonly logFormat: LogFormat;
  /** DOCJOIN_SLOW_MS: operations at least this long are logged as slow (default 1000). */
  readonly slowOperationMs: number;
  /** DOCJOIN_COST_REPORT: extensions.cost on every response (default true). */
  readonly costReport: boolean;
  /** DOCJOIN_METRICS: serve Prometheus metrics at /metrics (default true). */
  readonly metrics: boolean;
  /** DOCJOIN_LOG_VARIABLES: put each request's variables in its log line (default false). */
  readonly logVariables: boolean;
  /** DOCJOIN_SHUTDOWN_GRACE_MS: on SIGTERM, how long requests in flight may take to finish (default 10,000). */
  readonly shutdownGraceMs: number;
  /** DOCJOIN_MAX_CONCURRENT: GraphQL requests run at once (default 32). */
  readonly maxConcurrentOperations: number;
  /** DOCJOIN_MAX_QUEUED: requests waiting for a slot (default 128); beyond, 503 with Retry-After. */
  readonly maxQueuedOperations: number;
  /** DOCJOIN_MAX_TRANSACTION_ATTEMPTS: runs of a mutation's transaction after write conflicts, the first included (default 8). */
  readonly maxTransactionAttempts: number;
  /** DOCJOIN_TRANSACTION_RETRY_MS: no transaction retry starts later than this after the first attempt (default 2,000). */
  readonly transactionRetryMs: number;
  /** DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT: estimated documents the running operations may fetch together (default 250,000). */
  readonly maxDocumentsInFlight: number;
  /** DOCJOIN_OPERATION_TIMEOUT_MS: how long an operation may take, queueing included (default 30,000). */
  readonly operationTimeoutMs: number;
  /** DOCJOIN_MAX_RESPONSE_BYTES: the largest response body served (default 32 MiB). */
  readonly maxResponseBytes: number;
  /** DOCJOIN_HEALTH_DETAIL: /health names the database (default: not in production). */
  readonly healthDetail: boolean;
  /** DOCJOIN_WORKLOAD (`file:PATH`, `collection:NAME` or `off`) and DOCJOIN_WORKLOAD_FLUSH_MS: workload capture (default off). */
  readonly workload: WorkloadOption;
}

export type LogLevel = (typeof LOG_LEVELS)[number];


export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Command-line flags of `docjoin serve` that mirror an environment variable; a flag wins over its
 * variable, and an invalid one is refused naming the flag.
 */
export interface ConfigFlags {
  /** --port, mirrors PORT */
  readonly port?: string;
  /** --mongo-uri, mirrors MONGODB_URI */
  readonly mongoUri?: string;
  /** --db, mirrors MONGODB_DB */
  readonly db?: string;
  /** --seed-scale, mirrors DOCJOIN_SEED_SCALE */
  readonly seedScale?: string;
}

/**
 * Flags win over environment variables, which win over the project's config file (`project`), which
 * wins over the defaults. The config file's own values are checked where they are used (createGateway).
 */
export function loadConfig(env: Env = process.env, flags: ConfigFlags = {}, project: DocjoinProjectConfig = {}): DocjoinConfig {
  const nodeEnv = nonEmpty(env.NODE_ENV) ?? 'development';
  const server = project.server ?? {};
  const production = server.production ?? nodeEnv === 'production';
  const assumedListSize = parseCount('DOCJOIN_ASSUMED_LIST_SIZE', env.DOCJOIN_ASSUMED_LIST_SIZE) ?? server.assumedListSize;
  const projectLimits = { ...DEFAULT_COST_LIMITS, ...server.limits };
  return {
    port: setting({ flag: ['--port', flags.port], env: ['PORT', env.PORT] }, portRule) ?? server.port ?? DEFAULT_PORT,
    mongodbUri: setting({ flag: ['--mongo-uri', flags.mongoUri], env: ['MONGODB_URI', env.MONGODB_URI] }, mongoUriSetting) ?? projectSetting('mongodb.uri', project.mongodb?.uri, mongoUriSetting),
    mongodbDb: setting({ flag: ['--db', flags.db], env: ['MONGODB_DB', env.MONGODB_DB] }, dbNameRule) ?? projectSetting('mongodb.db', project.mongodb?.db, dbNameRule) ?? DEFAULT_DB_NAME,
    seedScale: setting({ flag: ['--seed-scale', flags.seedScale], env: ['DOCJOIN_SEED_SCALE', env.DOCJOIN_SEED_SCALE] }, seedScaleRule) ?? 1,
    mongoTimeoutMs: parseCount('DOCJOIN_MONGO_TIMEOUT_MS', env.DOCJOIN_MONGO_TIMEOUT_MS) ?? DEFAULT_MONGO_TIMEOUT_MS,
    strategyOverrides: parseBoolean('DOCJOIN_STRATEGY_OVERRIDES', env.DOCJOIN_STRATEGY_OVERRIDES) ?? server.strategyOverrides ?? !production,
    costCommands: parseBoolean('DOCJOIN_COST_COMMANDS', env.DOCJOIN_COST_COMMANDS) ?? server.costCommands ?? !production,
    limits: {
      maxRoundTrips: parseLimit('DOCJOIN_MAX_ROUND_TRIPS', env.DOCJOIN_MAX_ROUND_TRIPS, projectLimits.maxRoundTrips),
      maxDocuments: parseLimit('DOCJOIN_MAX_DOCUMENTS', env.DOCJOIN_MAX_DOCUMENTS, projectLimits.maxDocuments),
      maxDepth: parseLimit('DOCJOIN_MAX_DEPTH', env.DOCJOIN_MAX_DEPTH, projectLimits.maxDepth),
    },
    // Absent when unset, so the estimate's own default applies.
    ...(assumedListSize !== undefined && { assumedListSize }),
    ...(server.host !== undefined && { host: server.host }),
    ...(server.cors !== undefined && { cors: server.cors }),
    ...(server.landingPage !== undefined && { landingPage: server.landingPage }),
    nodeEnv,
    production,
    logLevel: parseChoice('DOCJOIN_LOG_LEVEL', env.DOCJOIN_LOG_LEVEL, LOG_LEVELS) ?? 'info',
    logFormat: parseChoice('DOCJOIN_LOG_FORMAT', env.DOCJOIN_LOG_FORMAT, LOG_FORMATS) ?? defaultLogFormat(production, process.stdout.isTTY === true),
    slowOperationMs: parseCount('DOCJOIN_SLOW_MS', env.DOCJOIN_SLOW_MS) ?? server.slowOperationMs ?? DEFAULT_SLOW_OPERATION_MS,
    costReport: parseBoolean('DOCJOIN_COST_REPORT', env.DOCJOIN_COST_REPORT) ?? server.costReport ?? true,
    metrics: parseBoolean('DOCJOIN_METRICS', env.DOCJOIN_METRICS) ?? server.metrics ?? true,
    logVariables: parseBoolean('DOCJOIN_LOG_VARIABLES', env.DOCJOIN_LOG_VARIABLES) ?? server.logVariables ?? false,
    shutdownGraceMs: parseWhole('DOCJOIN_SHUTDOWN_GRACE_MS', env.DOCJOIN_SHUTDOWN_GRACE_MS) ?? server.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    maxConcurrentOperations: parseCount('DOCJOIN_MAX_CONCURRENT', env.DOCJOIN_MAX_CONCURRENT) ?? server.maxConcurrentOperations ?? DEFAULT_MAX_CONCURRENT_OPERATIONS,
    maxQueuedOperations: parseWhole('DOCJOIN_MAX_QUEUED', env.DOCJOIN_MAX_QUEUED) ?? server.maxQueuedOperations ?? DEFAULT_MAX_QUEUED_OPERATIONS,
    maxTransactionAttempts: parseCount('DOCJOIN_MAX_TRANSACTION_ATTEMPTS', env.DOCJOIN_MAX_TRANSACTION_ATTEMPTS) ?? server.maxTransactionAttempts ?? DEFAULT_MAX_TRANSACTION_ATTEMPTS,
    transactionRetryMs: parseWhole('DOCJOIN_TRANSACTION_RETRY_MS', env.DOCJOIN_TRANSACTION_RETRY_MS) ?? server.transactionRetryMs ?? DEFAULT_TRANSACTION_RETRY_MS,
    maxDocumentsInFlight: parseCount('DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT', env.DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT) ?? server.maxDocumentsInFlight ?? DEFAULT_MAX_DOCUMENTS_IN_FLIGHT,
    operationTimeoutMs: parseCount('DOCJOIN_OPERATION_TIMEOUT_MS', env.DOCJOIN_OPERATION_TIMEOUT_MS) ?? server.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS,
    maxResponseBytes: parseCount('DOCJOIN_MAX_RESPONSE_BYTES', env.DOCJOIN_MAX_RESPONSE_BYTES) ?? server.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    healthDetail: parseBoolean('DOCJOIN_HEALTH_DETAIL', env.DOCJOIN_HEALTH_DETAIL) ?? server.healthDetail ?? !production,
    workload: parseWorkload(env.DOCJOIN_WORKLOAD, env.DOCJOIN_WORKLOAD_FLUSH_MS, server.workload),
  };
}

/** The configuration's entries that are createGateway settings of the same name. */
const GATEWAY_SETTING_NAMES = [
  'port', 'host', 'cors', 'landingPage', 'production', 'strategyOverrides', 'costCommands', 'costReport', 'limits', 'assumedListSize', 'metrics', 'slowOperationMs',
  'logVariables', 'shutdownGraceMs', 'maxConcurrentOperations', 'maxQueuedOperations', 'maxTransactionAttempts', 'transactionRetryMs', 'maxDocumentsInFlight', 'operationTimeoutMs', 'maxResponseBytes',
  'healthDetail', 'workload',
] as const satisfies readonly (keyof GatewaySettings & keyof DocjoinConfig)[];

/** What createGateway takes from the process configuration. */
export function gatewaySettingsOf(config: DocjoinConfig): GatewaySettings {
  return Object.fromEntries(GATEWAY_SETTING_NAMES.map((name) => [name, config[name]])) as GatewaySettings;
}

/** A string setting from the config file, checked by the same rule as its flag and variable. */
function projectSetting<T>(name: string, raw: unknown, rule: (raw: string, name: string) => SettingResult<T>): T | undefined {
  if (raw === undefined) return undefined;
  const result = rule(typeof raw === 'string' ? raw : JSON.stringify(raw), `the config's ${name}`);
  if (isProblem(result)) throw new ConfigError(result.problem);
  return result;
}

/** The flag when given (even empty: `--port ""` is a mistake), else the non-blank variable, checked by `rule`. */
function setting<T>(
  sources: { flag: readonly [string, string | undefined]; env: readonly [string, string | undefined] },
  rule: (raw: string, name: string) => SettingResult<T>,
): T | undefined {
  const [name, raw] = sources.flag[1] !== undefined ? sources.flag : [sources.env[0], nonEmpty(sources.env[1])];
  if (raw === undefined) return undefined;
  const result = rule(raw, name);
  if (isProblem(result)) throw new ConfigError(result.problem);
  return result;
}

function mongoUriSetting(raw: string, name: string): SettingResult<string> {
  const result = mongoUriRule(raw, name);
  return isProblem(result) ? { problem: `${result.problem}; ${name === 'MONGODB_URI' ? 'unset it' : 'leave it out'} to use the embedded server` } : result;
}

/** A positive whole number; `Infinity` (or `none`) turns the limit off. */
function parseLimit(name: string, raw: string | undefined, fallback: number): number {
  const value = nonEmpty(raw);
  if (value === undefined) return fallback;
  if (/^(infinity|none)$/i.test(value)) return Number.POSITIVE_INFINITY;
  const limit = Number(value.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ConfigError(`${name} must be a whole number of at least 1 (or "none" for no limit), got ${JSON.stringify(raw)}`);
  }
  return limit;
}

/**
 * DOCJOIN_WORKLOAD: `file:./workload.jsonl`, `collection:docjoin_workload`, or off (`off`, `false`, `0`,
 * `no`); unset leaves the config file's `server.workload`. DOCJOIN_WORKLOAD_FLUSH_MS sets the flush
 * interval of either (the gateway checks the config file's own values).
 */
function parseWorkload(raw: string | undefined, rawFlushMs: string | undefined, project: WorkloadOption | undefined): WorkloadOption {
  const flushMs = nonEmpty(rawFlushMs);
  const flushIntervalMs = flushMs === undefined ? undefined : Number(flushMs.replace(/_/g, ''));
  if (flushMs !== undefined && (!/^\d[\d_]*$/.test(flushMs) || !Number.isSafeInteger(flushIntervalMs) || flushIntervalMs! < MIN_WORKLOAD_FLUSH_MS)) {
    throw new ConfigError(`DOCJOIN_WORKLOAD_FLUSH_MS must be a whole number of milliseconds, at least ${MIN_WORKLOAD_FLUSH_MS}, got ${JSON.stringify(rawFlushMs)}`);
  }
  const value = nonEmpty(raw);
  const target = value === undefined ? project : workloadTarget(value, raw);
  // A config file's value that is not an object is the gateway's to refuse, naming the option.
  if (typeof target !== 'object' || target === null || flushIntervalMs === undefined) return target ?? false;
  return { ...target, flushIntervalMs };
}

function workloadTarget(value: string, raw: string | undefined): WorkloadOption {
  if (['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  const [, kind, target] = /^(file|collection):(.*)$/.exec(value) ?? [];
  if (kind === 'file' && target!.trim() !== '') return { file: target!.trim() };
  if (kind === 'collection' && isCollectionName(target!.trim())) return { collection: target!.trim() };
  throw new ConfigError(`DOCJOIN_WORKLOAD must be file:PATH (a JSON-lines file), collection:NAME (a collection of the database, no "$") or off, got ${JSON.stringify(raw)}`);
}

/** A whole number of at least 1, or undefined when unset. */
/** A whole number, 0 allowed (`_` separators accepted). */
function parseWhole(name: string, raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const whole = Number(value.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(whole)) throw new ConfigError(`${name} must be a whole number of milliseconds, got ${JSON.stringify(raw)}`);
  return whole;
}

function parseCount(name: string, raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const count = Number(value.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(count) || count < 1) throw new ConfigError(`${name} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  return count;
}

/** One of `choices`, case as written in them; anything else names the variable and the choices. */
function parseChoice<T extends string>(name: string, raw: string | undefined, choices: readonly T[]): T | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (!choices.includes(value as T)) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}`);
  return value as T;
}

function parseBoolean(name: string, raw: string | undefined): boolean | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be one of true/false/1/0/on/off/yes/no, got ${JSON.stringify(raw)}`);
}
