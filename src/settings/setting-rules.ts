/**
 * The rules for settings that arrive as environment variables (config.ts) or as command-line flags
 * (src/cli, the seed and reconcile CLIs). One rule per setting, so `PORT=x` and `--port x` are refused
 * with the same sentence; `name` is whichever the user typed. Each returns the value or the problem.
 */
import { redactSecrets } from '../observability/redact-secrets';

export interface SettingProblem {
  readonly problem: string;
}

export type SettingResult<T> = T | SettingProblem;

export function isProblem<T>(result: SettingResult<T>): result is SettingProblem {
  return typeof result === 'object' && result !== null && 'problem' in result;
}

export const DEFAULT_PORT = 4000;
export const DEFAULT_DB_NAME = 'docjoin';
/** The longest delay a Node timer takes (2^31 − 1 ms, some 24.8 days): a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** How long a command waits for an unreachable MongoDB before it fails, unless the URI says otherwise. */
export const DEFAULT_MONGO_TIMEOUT_MS = 5_000;

/**
 * The timeouts to give a client of `uri`: how long it looks for a server, and how long one connection
 * attempt may take (else a silent server holds a socket for the driver's 30 s after selection gave up).
 * The URI's own values win.
 */
export function serverSelectionTimeout(uri: string, timeoutMs: number = DEFAULT_MONGO_TIMEOUT_MS): { serverSelectionTimeoutMS?: number; connectTimeoutMS?: number } {
  return {
    ...(!/[?&]serverSelectionTimeoutMS=/i.test(uri) && { serverSelectionTimeoutMS: timeoutMs }),
    ...(!/[?&]connectTimeoutMS=/i.test(uri) && { connectTimeoutMS: timeoutMs }),
  };
}
/** The demo dataset is generated in memory before it is inserted (~40 MB per unit of scale). */
export const MAX_SEED_SCALE = 20;

/** Unset or blank counts as not given (an empty `MONGODB_URI=` in a .env file). */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** 0 asks the OS for a free port (tests use it). */
export function portRule(raw: string, name: string): SettingResult<number> {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) return { problem: `${name} must be an integer from 0 to 65535, got ${JSON.stringify(raw)}` };
  return port;
}

export function mongoUriRule(raw: string, name: string): SettingResult<string> {
  if (!/^mongodb(\+srv)?:\/\/.+/.test(raw)) {
    // Without a scheme (or with a mistyped one) the text is no URI redactSecrets recognises: whatever stands before an `@` may be a user and password.
    const at = raw.lastIndexOf('@');
    const shown = at < 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `***${raw.slice(at)}`;
    return { problem: `${name} must start with mongodb:// or mongodb+srv://, got ${JSON.stringify(redactSecrets(shown))}` };
  }
  return raw;
}

/** MongoDB's database-name rules, checked here so the error names the setting instead of coming back from the server. */
export function dbNameRule(raw: string, name: string): SettingResult<string> {
  if (raw.length === 0 || raw.length > 63 || /[/\\. "$*<>:|?\0]/.test(raw)) {
    return { problem: `${name} must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got ${JSON.stringify(raw)}` };
  }
  return raw;
}

export function seedScaleRule(raw: string, name: string): SettingResult<number> {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(raw)) return { problem: `${name} must be a positive number, got ${JSON.stringify(raw)}` };
  const scale = Number(raw);
  if (scale <= 0) return { problem: `${name} must be greater than 0, got ${JSON.stringify(raw)}` };
  if (scale > MAX_SEED_SCALE) return { problem: `${name} must be at most ${MAX_SEED_SCALE} (the dataset is generated in memory), got ${JSON.stringify(raw)}` };
  return scale;
}

/** A whole number in [min, max], underscores allowed as separators (`100_000`). */
export function integerRule(raw: string, name: string, min: number, max: number): SettingResult<number> {
  const value = Number(raw.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    return { problem: `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}` };
  }
  return value;
}

