import {
  DEFAULT_DB_NAME,
  DEFAULT_MONGO_TIMEOUT_MS,
  dbNameRule,
  isProblem,
  MAX_TIMER_MS,
  mongoUriRule,
  nonEmpty,
  portRule,
  seedScaleRule,
  type SettingResult,
} from '../settings/setting-rules';

export { redactSecrets, redactUri } from '../observability/redact-secrets';
import { type CorsOption, type CostLimitName, type CostLimits, defaultLimitOrigin, GATEWAY_SETTING_NAMES, GatewayOptionError, isCollectionName, LIMIT_SETTINGS, LIMIT_VARIABLES, metricsTokenProblem, MIN_WORKLOAD_FLUSH_MS, resolveSettings, trustProxyOption, type GatewaySettings, type LimitOrigins, type ResolvedSettings, type TrustProxyOption, type WorkloadOption } from '../gateway';
import type { DocjoinProjectConfig } from '../project/project-config';
import { defaultLogFormat, LOG_FORMATS, LOG_LEVELS, type LogFormat } from '../observability/logger';
import { browserOrigin } from '../settings/browser-origin';
export type { CostLimits };

/**
 * Process configuration, read once from the flags, the environment and the config file, and validated
 * with messages that name the flag, the variable or the config's entry. Besides the process's own
 * settings, it holds createGateway's settings (gateway-options.ts declares them and their defaults)
 * with the defaults applied. The variables that set them:
 *
 * PORT (--port) · DOCJOIN_STRATEGY_OVERRIDES · DOCJOIN_COST_COMMANDS · DOCJOIN_COST_REPORT ·
 * DOCJOIN_MAX_ROUND_TRIPS, DOCJOIN_MAX_DOCUMENTS, DOCJOIN_MAX_DEPTH, DOCJOIN_MAX_RESPONSE_NODES (limits) · DOCJOIN_ASSUMED_LIST_SIZE ·
 * DOCJOIN_METRICS and DOCJOIN_METRICS_TOKEN · DOCJOIN_SLOW_MS · DOCJOIN_LOG_VARIABLES · DOCJOIN_SHUTDOWN_GRACE_MS · DOCJOIN_SHUTDOWN_DELAY_MS ·
 * DOCJOIN_MAX_CONCURRENT · DOCJOIN_MAX_QUEUED · DOCJOIN_QUEUE_TIMEOUT_MS · DOCJOIN_MAX_TRANSACTION_ATTEMPTS ·
 * DOCJOIN_TRANSACTION_RETRY_MS · DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT · DOCJOIN_OPERATION_TIMEOUT_MS ·
 * DOCJOIN_MAX_RESPONSE_BYTES · DOCJOIN_BUDGET_CAPACITY and DOCJOIN_BUDGET_RESTORE_RATE · DOCJOIN_INTROSPECTION · DOCJOIN_HEALTH_DETAIL · DOCJOIN_WORKLOAD and DOCJOIN_WORKLOAD_FLUSH_MS.
 * DOCJOIN_CORS_ORIGIN (else the config file's `server.cors`) · DOCJOIN_TRUST_PROXY (else `server.trustProxy`).
 * host, landingPage and production come from the config file's `server` (production also from NODE_ENV).
 */
export type DocjoinConfig = ProcessConfig & ResolvedSettings;

/** The settings of the process itself, which createGateway does not take. */
export interface ProcessConfig {
  /** Unset: start the embedded MongoDB server and seed the demo data. */
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  /** DOCJOIN_MONGO_TIMEOUT_MS: how long a command waits for an unreachable MongoDB before it fails (default 5 s). */
  readonly mongoTimeoutMs: number;
  /** Demo dataset scale loaded into the embedded server by `npm start` (DOCJOIN_SEED_SCALE, default 1). */
  readonly seedScale: number;
  readonly nodeEnv: string;
  /** DOCJOIN_LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  readonly logLevel: LogLevel;
  /** DOCJOIN_LOG_FORMAT: json or pretty (default: pretty on a terminal outside production, else json). */
  readonly logFormat: LogFormat;
  /** Which cost limits the environment or the config file set (createGateway's limitOrigins). */
  readonly limitOrigins: LimitOrigins;
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
 * wins over the defaults (resolveSettings applies them, and checks the config file's values: a ConfigError names the entry).
 */
export function loadConfig(env: Env = process.env, flags: ConfigFlags = {}, project: DocjoinProjectConfig = {}): DocjoinConfig {
  const nodeEnv = nonEmpty(env.NODE_ENV) ?? 'development';
  const fileServer: GatewaySettings = project.server ?? {};
  const fromEnv = definedOnly(gatewaySettingsFromEnv(env, flags, fileServer));
  // A file value a flag or the environment replaces is checked all the same: it applies wherever they are not set.
  for (const name of Object.keys(fromEnv)) if (Object.hasOwn(fileServer, name)) resolveProjectSettings({ [name]: fileServer[name as keyof GatewaySettings] }, nodeEnv);
  const settings = resolveProjectSettings({ ...fileServer, ...fromEnv }, nodeEnv);
  const fileUri = projectSetting('mongodb.uri', project.mongodb?.uri, mongoUriSetting);
  const fileDb = projectSetting('mongodb.db', project.mongodb?.db, dbNameRule);
  return {
    ...settings,
    mongodbUri: setting({ flag: ['--mongo-uri', flags.mongoUri], env: ['MONGODB_URI', env.MONGODB_URI] }, mongoUriSetting) ?? fileUri,
    mongodbDb: setting({ flag: ['--db', flags.db], env: ['MONGODB_DB', env.MONGODB_DB] }, dbNameRule) ?? fileDb ?? DEFAULT_DB_NAME,
    seedScale: setting({ flag: ['--seed-scale', flags.seedScale], env: ['DOCJOIN_SEED_SCALE', env.DOCJOIN_SEED_SCALE] }, seedScaleRule) ?? 1,
    mongoTimeoutMs: parseCount('DOCJOIN_MONGO_TIMEOUT_MS', env.DOCJOIN_MONGO_TIMEOUT_MS) ?? DEFAULT_MONGO_TIMEOUT_MS,
    nodeEnv,
    logLevel: parseChoice('DOCJOIN_LOG_LEVEL', env.DOCJOIN_LOG_LEVEL, LOG_LEVELS) ?? 'info',
    logFormat: parseChoice('DOCJOIN_LOG_FORMAT', env.DOCJOIN_LOG_FORMAT, LOG_FORMATS) ?? defaultLogFormat(settings.production, process.stdout.isTTY === true),
    limitOrigins: limitOriginsOf(env, project.server?.limits),
  };
}

/** Where each limit comes from: the environment (it wins), the config file's `server.limits`, or the default. */
function limitOriginsOf(env: Env, fileLimits: unknown): LimitOrigins {
  const origins: Partial<Record<keyof CostLimits, string>> = {};
  for (const [limit, setting] of Object.entries(LIMIT_SETTINGS) as Array<[CostLimitName, keyof CostLimits]>) {
    const variable = LIMIT_VARIABLES[limit];
    if (nonEmpty(env[variable]) !== undefined) origins[setting] = `set by ${variable} in the environment`;
    else if (typeof fileLimits === 'object' && fileLimits !== null && Object.hasOwn(fileLimits, setting)) origins[setting] = `set by server.limits.${setting} in the project's config`;
    else origins[setting] = defaultLimitOrigin(limit);
  }
  return origins;
}

/** The gateway settings the flags and the environment give (undefined where they give none: the config file's, then the default, apply). */
function gatewaySettingsFromEnv(env: Env, flags: ConfigFlags, server: GatewaySettings): GatewaySettings {
  const limits = definedOnly({
    maxRoundTrips: parseLimit('DOCJOIN_MAX_ROUND_TRIPS', env.DOCJOIN_MAX_ROUND_TRIPS),
    maxDocuments: parseLimit('DOCJOIN_MAX_DOCUMENTS', env.DOCJOIN_MAX_DOCUMENTS),
    maxDepth: parseLimit('DOCJOIN_MAX_DEPTH', env.DOCJOIN_MAX_DEPTH),
    maxResponseNodes: parseLimit('DOCJOIN_MAX_RESPONSE_NODES', env.DOCJOIN_MAX_RESPONSE_NODES),
  });
  const fileLimits: unknown = server.limits;
  return {
    port: setting({ flag: ['--port', flags.port], env: ['PORT', env.PORT] }, portRule),
    strategyOverrides: parseBoolean('DOCJOIN_STRATEGY_OVERRIDES', env.DOCJOIN_STRATEGY_OVERRIDES),
    costCommands: parseBoolean('DOCJOIN_COST_COMMANDS', env.DOCJOIN_COST_COMMANDS),
    // Each variable replaces one of the file's limits; a file value that is no object is resolveSettings's to refuse.
    limits: typeof fileLimits === 'object' && fileLimits !== null && !Array.isArray(fileLimits) ? { ...fileLimits, ...limits } : fileLimits === undefined ? limits : (fileLimits as CostLimits),
    assumedListSize: parseCount('DOCJOIN_ASSUMED_LIST_SIZE', env.DOCJOIN_ASSUMED_LIST_SIZE),
    slowOperationMs: parseCount('DOCJOIN_SLOW_MS', env.DOCJOIN_SLOW_MS),
    costReport: parseBoolean('DOCJOIN_COST_REPORT', env.DOCJOIN_COST_REPORT),
    metrics: parseBoolean('DOCJOIN_METRICS', env.DOCJOIN_METRICS),
    metricsToken: parseMetricsToken(env.DOCJOIN_METRICS_TOKEN),
    logVariables: parseBoolean('DOCJOIN_LOG_VARIABLES', env.DOCJOIN_LOG_VARIABLES),
    shutdownGraceMs: parseWhole('DOCJOIN_SHUTDOWN_GRACE_MS', env.DOCJOIN_SHUTDOWN_GRACE_MS),
    shutdownDelayMs: parseWhole('DOCJOIN_SHUTDOWN_DELAY_MS', env.DOCJOIN_SHUTDOWN_DELAY_MS),
    maxConcurrentOperations: parseCount('DOCJOIN_MAX_CONCURRENT', env.DOCJOIN_MAX_CONCURRENT),
    maxQueuedOperations: parseWhole('DOCJOIN_MAX_QUEUED', env.DOCJOIN_MAX_QUEUED),
    queueTimeoutMs: parseCount('DOCJOIN_QUEUE_TIMEOUT_MS', env.DOCJOIN_QUEUE_TIMEOUT_MS),
    maxTransactionAttempts: parseCount('DOCJOIN_MAX_TRANSACTION_ATTEMPTS', env.DOCJOIN_MAX_TRANSACTION_ATTEMPTS),
    transactionRetryMs: parseWhole('DOCJOIN_TRANSACTION_RETRY_MS', env.DOCJOIN_TRANSACTION_RETRY_MS),
    maxDocumentsInFlight: parseCount('DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT', env.DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT),
    operationTimeoutMs: parseCount('DOCJOIN_OPERATION_TIMEOUT_MS', env.DOCJOIN_OPERATION_TIMEOUT_MS),
    maxResponseBytes: parseCount('DOCJOIN_MAX_RESPONSE_BYTES', env.DOCJOIN_MAX_RESPONSE_BYTES),
    budget: parseBudget(env.DOCJOIN_BUDGET_CAPACITY, env.DOCJOIN_BUDGET_RESTORE_RATE, server.budget),
    introspection: parseIntrospection(env.DOCJOIN_INTROSPECTION),
    cors: parseCors(env.DOCJOIN_CORS_ORIGIN),
    trustProxy: parseTrustProxy(env.DOCJOIN_TRUST_PROXY),
    healthDetail: parseBoolean('DOCJOIN_HEALTH_DETAIL', env.DOCJOIN_HEALTH_DETAIL),
    workload: parseWorkload(env.DOCJOIN_WORKLOAD, env.DOCJOIN_WORKLOAD_FLUSH_MS, server.workload),
  };
}

/** The settings with their defaults (resolveSettings); a config file's value it refuses is a ConfigError naming the entry. */
function resolveProjectSettings(settings: GatewaySettings, nodeEnv: string): ResolvedSettings {
  try {
    return resolveSettings(settings, nodeEnv);
  } catch (error) {
    if (!(error instanceof GatewayOptionError)) throw error;
    throw new ConfigError(`the config's server: ${error.message}`);
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** What createGateway takes from the process configuration. */
export function gatewaySettingsOf(config: DocjoinConfig): GatewaySettings {
  return Object.fromEntries(GATEWAY_SETTING_NAMES.map((name) => [name, config[name]])) as GatewaySettings;
}

/** A string setting from the config file, checked by the same rule as its flag and variable. */
function projectSetting<T>(name: string, raw: unknown, rule: (raw: string, name: string) => SettingResult<T>): T | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw new ConfigError(`the config's ${name} must be a string, got ${JSON.stringify(raw) ?? typeof raw}`);
  const result = rule(raw, `the config's ${name}`);
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

/** The variable's token, checked without its value in the message (it is a secret). */
function parseMetricsToken(raw: string | undefined): string | undefined {
  const token = nonEmpty(raw);
  if (token === undefined) return undefined;
  const problem = metricsTokenProblem(token);
  if (problem !== undefined) throw new ConfigError(`DOCJOIN_METRICS_TOKEN ${problem}`);
  return token;
}

/** A positive whole number; `Infinity` (or `none`) turns the limit off. */
function parseLimit(name: string, raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
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
 * interval of either (resolveSettings checks the config file's own values).
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

/** A whole number, 0 allowed (`_` separators accepted), of the unit the variable's name ends with (`_MS`: milliseconds). */
function parseWhole(name: string, raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const whole = Number(value.replace(/_/g, ''));
  const unit = name.endsWith('_MS') ? 'a whole number of milliseconds' : 'a whole number (0 or more)';
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(whole)) throw new ConfigError(`${name} must be ${unit}, got ${JSON.stringify(raw)}`);
  return withinTimer(name, whole, raw);
}

function parseCount(name: string, raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const count = Number(value.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(count) || count < 1) throw new ConfigError(`${name} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  return withinTimer(name, count, raw);
}

/** A duration (`_MS`) a Node timer can wait: a longer one would fire at once. */
function withinTimer(name: string, value: number, raw: string | undefined): number {
  if (name.endsWith('_MS') && value > MAX_TIMER_MS) throw new ConfigError(`${name} must be at most ${MAX_TIMER_MS} milliseconds (some 24.8 days, the longest a Node timer waits), got ${JSON.stringify(raw)}`);
  return value;
}

/** One of `choices`, case as written in them; anything else names the variable and the choices. */
function parseChoice<T extends string>(name: string, raw: string | undefined, choices: readonly T[]): T | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (!choices.includes(value as T)) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}`);
  return value as T;
}

/** DOCJOIN_BUDGET_CAPACITY and DOCJOIN_BUDGET_RESTORE_RATE, both or neither; unset, the config file's `server.budget`. */
function parseBudget(capacity: string | undefined, restoreRate: string | undefined, fromFile: GatewaySettings['budget']): GatewaySettings['budget'] {
  const given = [nonEmpty(capacity), nonEmpty(restoreRate)];
  if (given.every((value) => value === undefined)) return fromFile;
  const numbers = given.map((value) => (value === undefined ? Number.NaN : Number(value)));
  if (numbers.some((number) => !Number.isFinite(number) || number <= 0)) {
    throw new ConfigError(`DOCJOIN_BUDGET_CAPACITY and DOCJOIN_BUDGET_RESTORE_RATE must both be numbers above 0 (points, and points a second), got ${JSON.stringify(capacity ?? null)} and ${JSON.stringify(restoreRate ?? null)}`);
  }
  return { capacity: numbers[0]!, restoreRate: numbers[1]! };
}

/** DOCJOIN_CORS_ORIGIN: the browser origins allowed, comma-separated (`https://app.example.com`), `*` (or true) for any, or `false`. */
function parseCors(raw: string | undefined): CorsOption | undefined {
  const value = nonEmpty(raw)?.trim();
  if (value === undefined) return undefined;
  if (value === '*' || ['1', 'true', 'on', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  const given = value.split(',').map((origin) => origin.trim());
  const wrong = given.find((origin) => browserOrigin(origin) === undefined);
  if (wrong !== undefined) throw new ConfigError(`DOCJOIN_CORS_ORIGIN must be origins separated by commas ("https://app.example.com,http://localhost:5173"), * or false; ${JSON.stringify(wrong)} is no origin (a scheme and a host, with no path)`);
  return { origin: given.map((origin) => browserOrigin(origin)!) };
}

/** DOCJOIN_TRUST_PROXY: the proxies whose X-Forwarded-For docjoin believes, comma-separated (`loopback,10.0.0.0/8`), or false. */
function parseTrustProxy(raw: string | undefined): TrustProxyOption | undefined {
  const value = nonEmpty(raw)?.trim();
  if (value === undefined) return undefined;
  if (['0', 'false', 'off', 'no'].includes(value.toLowerCase())) return false;
  try {
    return trustProxyOption(value.split(',').map((entry) => entry.trim()));
  } catch (error) {
    if (!(error instanceof GatewayOptionError)) throw error;
    throw new ConfigError(`DOCJOIN_TRUST_PROXY must be the proxies' addresses or ranges, comma-separated ("loopback" or "10.0.0.0/8,fd00::/8"), or false; ${error.message.replace(/^option trustProxy:? /, '')}`);
  }
}

/** DOCJOIN_INTROSPECTION: true/false (and the other boolean words), or the roles allowed, comma-separated. */
function parseIntrospection(raw: string | undefined): boolean | readonly string[] | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  if (['1', 'true', 'on', 'yes', '0', 'false', 'off', 'no'].includes(value.toLowerCase())) return parseBoolean('DOCJOIN_INTROSPECTION', value);
  const roles = value.split(',').map((role) => role.trim());
  if (roles.some((role) => !/^[\w.:-]+$/.test(role))) throw new ConfigError(`DOCJOIN_INTROSPECTION must be true, false or roles separated by commas ("admin,support"), got ${JSON.stringify(raw)}`);
  return roles;
}

function parseBoolean(name: string, raw: string | undefined): boolean | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be one of true/false/1/0/on/off/yes/no, got ${JSON.stringify(raw)}`);
}
