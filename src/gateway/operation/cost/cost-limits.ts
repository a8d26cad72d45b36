import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../../errors/public-error-code';
import type { CostEstimate, FieldShare } from '../estimate/estimate-operation';
import { SATURATED } from '../estimate/scope-reads';

export interface CostLimits {
  /** Estimated MongoDB commands per operation (DOCJOIN_MAX_ROUND_TRIPS). */
  readonly maxRoundTrips: number;
  /** Estimated documents fetched per operation (DOCJOIN_MAX_DOCUMENTS). */
  readonly maxDocuments: number;
  /** Nested selection sets: `{ books { publisher { name } } }` is 2 (DOCJOIN_MAX_DEPTH). */
  readonly maxDepth: number;
  /**
   * Estimated objects in the response, repeats under other parents included (DOCJOIN_MAX_RESPONSE_NODES):
   * a response assembled from few documents can still be exponential in its nesting.
   */
  readonly maxResponseNodes: number;
}

/** GitHub's 500,000 nodes per query is the model for the response-node limit. */
export const DEFAULT_COST_LIMITS: CostLimits = { maxRoundTrips: 50, maxDocuments: 100_000, maxDepth: 10, maxResponseNodes: 500_000 };
export type CostLimitName = 'roundTrips' | 'documents' | 'depth' | 'responseNodes';

/** What a rejected operation reports in `errors[0].extensions.cost`. */
export interface CostLimitExcess {
  readonly limit: CostLimitName;
  readonly estimated: number;
  readonly max: number;
}

/** The variable that sets each limit. */
export const LIMIT_VARIABLES: Record<CostLimitName, string> = {
  depth: 'DOCJOIN_MAX_DEPTH',
  roundTrips: 'DOCJOIN_MAX_ROUND_TRIPS',
  documents: 'DOCJOIN_MAX_DOCUMENTS',
  responseNodes: 'DOCJOIN_MAX_RESPONSE_NODES',
};

/** The setting of each limit: `limits.maxRoundTrips`, `server.limits.maxRoundTrips`. */
export const LIMIT_SETTINGS: Record<CostLimitName, keyof CostLimits> = { depth: 'maxDepth', roundTrips: 'maxRoundTrips', documents: 'maxDocuments', responseNodes: 'maxResponseNodes' };

/** Where each limit was set, as a COST_LIMIT_EXCEEDED message names it: `set by DOCJOIN_MAX_DEPTH in the environment`. */
export type LimitOrigins = Readonly<Partial<Record<keyof CostLimits, string>>>;

/**
 * Where `limit` was set: as `origins` says (docjoin serve knows the environment from the config file),
 * else by the `limits` option when it names it (`givenLimits`, as the option was given), else the
 * default and how to change it.
 */
export function limitOrigin(limit: CostLimitName, givenLimits: unknown, origins: LimitOrigins | undefined): string {
  const setting = LIMIT_SETTINGS[limit];
  const given = typeof givenLimits === 'object' && givenLimits !== null && (givenLimits as Record<string, unknown>)[setting] !== undefined;
  return origins?.[setting] ?? (given ? `set by the limits.${setting} option` : defaultLimitOrigin(limit));
}

/** The origin of a limit nothing set. */
export function defaultLimitOrigin(limit: CostLimitName): string {
  return `the default; ${LIMIT_VARIABLES[limit]} or the config's server.limits.${LIMIT_SETTINGS[limit]} changes it`;
}

const UNITS: Record<CostLimitName, string> = { depth: 'levels of nesting', roundTrips: 'round trips', documents: 'documents', responseNodes: 'response objects' };
const SINGULAR_UNITS: Record<CostLimitName, string> = { depth: 'level of nesting', roundTrips: 'round trip', documents: 'document', responseNodes: 'response object' };

/** The first limit the estimate exceeds, checking depth, then round trips, documents and response objects. */
export function findExceededLimit(estimate: CostEstimate, limits: Partial<CostLimits>): CostLimitExcess | undefined {
  const checks: Array<[CostLimitName, number, number | undefined]> = [
    ['depth', estimate.depth, limits.maxDepth],
    ['roundTrips', estimate.roundTrips, limits.maxRoundTrips],
    ['documents', estimate.documents, limits.maxDocuments],
    ['responseNodes', estimate.responseNodes, limits.maxResponseNodes],
  ];
  for (const [limit, estimated, max] of checks) {
    if (max !== undefined && estimated > max) return { limit, estimated, max };
  }
  return undefined;
}

/**
 * Thrown from didResolveOperation, so nothing reaches MongoDB; HTTP 400 like other pre-execution
 * rejections. It names the field that accounts for the most of the exceeded measure, and advice that
 * field allows.
 */
export function costLimitExceeded(excess: CostLimitExcess, estimate: CostEstimate | undefined, origin: string): GraphQLError {
  const { limit, estimated, max } = excess;
  const heaviest = limit === 'depth' ? undefined : estimate?.heaviest?.[limit];
  // The size the response would have had: what refusing it saved.
  const bytes = limit === 'responseNodes' && estimate && estimate.responseBytes < SATURATED ? estimate.responseBytes : undefined;
  const size = bytes === undefined ? '' : ` (about ${bytes.toLocaleString('en')} bytes as JSON)`;
  return new GraphQLError(
    `Operation rejected before execution: its estimated cost of ${estimated.toLocaleString('en')} ${UNITS[limit]}${size} exceeds the limit of ${max.toLocaleString('en')} (${origin}). ${advice(limit, heaviest, max)}`,
    {
      extensions: {
        code: PublicErrorCode.COST_LIMIT_EXCEEDED,
        cost: { estimated, max, limit, ...(heaviest && { field: heaviest.coordinate, fieldShare: heaviest.amount }), ...(bytes !== undefined && { approximateBytes: bytes }) },
        http: { status: 400 },
      },
    },
  );
}

/**
 * A read past the round-trip limit while the operation runs, for `fields`: only reads its estimate did
 * not count get there (a hand-written resolver's, or a join of stored data the estimate did not
 * foresee). The field asking for it gets this error; the rest answers.
 */
export function roundTripLimitReached({ estimated, max, origin, fields }: { estimated: number; max: number; origin: string; fields: readonly string[] }): GraphQLError {
  const reading = fields.length === 0 ? '' : ` for ${fields.join(', ')}`;
  return new GraphQLError(
    `Operation stopped at its limit of ${max} round trips (${origin}): it read more than the ${estimated} its estimate counted${reading}, which only a read the estimate cannot see sends: a hand-written resolver reading through context.documents, or the join of snapshot copies lacking the fields selected. Ask for fewer items, or read them in fewer commands.`,
    { extensions: { code: PublicErrorCode.COST_LIMIT_EXCEEDED, cost: { estimated, max, limit: 'roundTrips' } } },
  );
}

function advice(limit: CostLimitName, heaviest: FieldShare | undefined, max: number): string {
  if (limit === 'depth') return 'Nest fewer levels.';
  if (!heaviest) return 'Ask for fewer items, fewer aliases or less nesting.';
  const share = `${heaviest.coordinate} accounts for the most (${heaviest.amount.toLocaleString('en')} ${heaviest.amount === 1 ? SINGULAR_UNITS[limit] : UNITS[limit]})`;
  if (limit === 'roundTrips') {
    if (heaviest.amount > max) return `${share}, more than the limit by itself: the limit is below what that field alone takes.`;
    if (heaviest.places > 1) return `${share}: select it in fewer places (aliases, repeated levels).`;
    return `${heaviest.amount > 1 ? `${share}; ` : 'No field accounts for more than one: '}each root field and each level of relations read by a query adds its own, so select fewer of them (a relation read inside its parent's command, by lookup, or from a snapshot copy, adds none).`;
  }
  return heaviest.takesFirst
    ? `${share}: pass it a smaller first, or ask for fewer items above it.`
    : `${share}: it takes no first, so ask for fewer items above it (a smaller first on a list above) or select it at fewer levels.`;
}
