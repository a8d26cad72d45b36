/** Process configuration, read once from the environment and validated with messages that name the variable. */
export interface DocjoinConfig {
  readonly port: number;
  /** Unset: start the embedded MongoDB server and seed the demo data. */
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  /** Demo dataset scale loaded into the embedded server by `npm start` (DOCJOIN_SEED_SCALE, default 1). */
  readonly seedScale: number;
  /** Whether the `x-docjoin-strategy` request header is honoured. */
  readonly strategyOverrides: boolean;
  /** Whether `x-docjoin-cost: commands` adds the per-command debug view (DOCJOIN_COST_COMMANDS; off in production). */
  readonly costCommands: boolean;
  /** Operations whose static estimate exceeds a limit are rejected before execution (COST_LIMIT_EXCEEDED). */
  readonly limits: CostLimits;
  readonly nodeEnv: string;
  readonly production: boolean;
}

export interface CostLimits {
  /** DOCJOIN_MAX_ROUND_TRIPS: estimated MongoDB commands per operation. */
  readonly maxRoundTrips: number;
  /** DOCJOIN_MAX_DOCUMENTS: estimated documents fetched per operation. */
  readonly maxDocuments: number;
  /** DOCJOIN_MAX_DEPTH: nested selection sets (`{ books { publisher { name } } }` is 2). */
  readonly maxDepth: number;
}

export const DEFAULT_COST_LIMITS: CostLimits = { maxRoundTrips: 50, maxDocuments: 100_000, maxDepth: 10 };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORT = 4000;
const DEFAULT_DB = 'docjoin';

export function loadConfig(env: Env = process.env): DocjoinConfig {
  const nodeEnv = nonEmpty(env.NODE_ENV) ?? 'development';
  const production = nodeEnv === 'production';
  return {
    port: parsePort(env.PORT),
    mongodbUri: parseMongoUri(env.MONGODB_URI),
    mongodbDb: parseDbName(env.MONGODB_DB),
    seedScale: parseSeedScale(env.DOCJOIN_SEED_SCALE),
    strategyOverrides: parseBoolean('DOCJOIN_STRATEGY_OVERRIDES', env.DOCJOIN_STRATEGY_OVERRIDES) ?? !production,
    costCommands: parseBoolean('DOCJOIN_COST_COMMANDS', env.DOCJOIN_COST_COMMANDS) ?? !production,
    limits: {
      maxRoundTrips: parseLimit('DOCJOIN_MAX_ROUND_TRIPS', env.DOCJOIN_MAX_ROUND_TRIPS, DEFAULT_COST_LIMITS.maxRoundTrips),
      maxDocuments: parseLimit('DOCJOIN_MAX_DOCUMENTS', env.DOCJOIN_MAX_DOCUMENTS, DEFAULT_COST_LIMITS.maxDocuments),
      maxDepth: parseLimit('DOCJOIN_MAX_DEPTH', env.DOCJOIN_MAX_DEPTH, DEFAULT_COST_LIMITS.maxDepth),
    },
    nodeEnv,
    production,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function parsePort(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  // 0 asks the OS for a free port (tests use it).
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

function parseMongoUri(raw: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  if (!/^mongodb(\+srv)?:\/\/.+/.test(value)) {
    throw new ConfigError(
      `MONGODB_URI must start with mongodb:// or mongodb+srv://, got ${JSON.stringify(redactUri(value))}; unset it to use the embedded server`,
    );
  }
  return value;
}

function parseDbName(raw: string | undefined): string {
  const value = nonEmpty(raw);
  if (value === undefined) return DEFAULT_DB;
  // MongoDB forbids these characters in database names.
  if (/[/\\. "$*<>:|?]/.test(value) || value.length > 63) {
    throw new ConfigError(`MONGODB_DB must be a MongoDB database name (no /\\. "$*<>:|? and at most 63 characters), got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Same bounds as `npm run seed -- --scale` (the dataset is generated in memory). */
const MAX_SEED_SCALE = 20;

function parseSeedScale(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 1;
  const scale = Number(value);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value) || scale <= 0 || scale > MAX_SEED_SCALE) {
    throw new ConfigError(`DOCJOIN_SEED_SCALE must be a number greater than 0 and at most ${MAX_SEED_SCALE}, got ${JSON.stringify(raw)}`);
  }
  return scale;
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

function parseBoolean(name: string, raw: string | undefined): boolean | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be one of true/false/1/0/on/off/yes/no, got ${JSON.stringify(raw)}`);
}

/** A URI safe to print or serve: any user:password is replaced by `***`. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@');
}
