import { DEFAULT_COST_LIMITS, GATEWAY_SETTING_NAMES } from '../gateway';
import { nearestKey } from './nearest-key';

/**
 * The keys a project config may hold, at every depth the config is an object docjoin reads: a misspelt
 * key (`server: { hots: '127.0.0.1' }`) would otherwise be ignored in silence. 'open' marks a value
 * whose keys are the user's own (resolvers, write plans) or that is not an object.
 */
export type ConfigKeys = { readonly [key: string]: ConfigKeys | 'open' };

/** Each of `names`, with a value docjoin does not look into. */
function openKeys(names: readonly string[]): ConfigKeys {
  return Object.fromEntries(names.map((name) => [name, 'open' as const]));
}

const SERVER_KEYS: ConfigKeys = {
  ...openKeys(GATEWAY_SETTING_NAMES),
  limits: openKeys(Object.keys(DEFAULT_COST_LIMITS)),
  workload: { file: 'open', collection: 'open', flushIntervalMs: 'open' },
  cors: { origin: 'open', credentials: 'open' },
  budget: { capacity: 'open', restoreRate: 'open' },
  trustedDocuments: { manifest: 'open', only: 'open' },
};

export const PROJECT_CONFIG_KEYS: ConfigKeys = {
  schema: 'open',
  resolvers: 'open',
  writePlans: 'open',
  writes: { transactions: 'open' },
  mongodb: { uri: 'open', db: 'open', shardKeys: 'open' },
  server: SERVER_KEYS,
  codegen: { publicSchema: 'open', config: 'open', costDirectives: 'open' },
  seed: 'open',
  auth: {
    jwt: { secret: 'open', publicKey: 'open', jwksUrl: 'open', algorithms: 'open', issuer: 'open', audience: 'open', clockToleranceSeconds: 'open' },
    authenticate: 'open',
    roleClaim: 'open',
    anonymousRole: 'open',
  },
};

export interface UnknownKey {
  /** Dotted, from the config's top: `server.hots`. */
  readonly path: string;
  /** The known key at that depth closest to it, when one is close enough to be a likely typo. */
  readonly nearest: string | undefined;
  /** Every key known at that depth. */
  readonly known: readonly string[];
}

/** The first key of `value`, at any depth `keys` describes, that is not known there; undefined when there is none. */
export function findUnknownKey(value: unknown, keys: ConfigKeys, path: readonly string[] = []): UnknownKey | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const known = Object.keys(keys);
  for (const [key, inner] of Object.entries(value)) {
    const shape = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (shape === undefined) return { path: [...path, key].join('.'), nearest: nearestKey(key, known), known };
    if (shape === 'open') continue;
    const unknown = findUnknownKey(inner, shape, [...path, key]);
    if (unknown) return unknown;
  }
  return undefined;
}
