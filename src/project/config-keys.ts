import { DEFAULT_COST_LIMITS, GATEWAY_SETTING_NAMES } from '../gateway';

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

/**
 * The known key with the fewest edits from `key` (case ignored), if that is at most a third of its
 * length, at least 2 but fewer than its length (`id` suggests nothing, not `db`).
 */
function nearestKey(key: string, known: readonly string[]): string | undefined {
  let nearest: string | undefined;
  let fewest = Math.min(Math.max(2, Math.floor(key.length / 3)), key.length - 1) + 1;
  for (const candidate of known) {
    const edits = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (edits < fewest) [nearest, fewest] = [candidate, edits];
  }
  return nearest;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
