import { badUserInput } from '../errors/public-error-code';
import type { SortKey } from '../storage-map/storage-map-types';
import { afterFilter, decodeCursor } from './cursor';
import { DEFAULT_FIRST, MAX_FIRST } from './page-limits';

/** Page arguments as GraphQL passes them (after scalar parsing). */
export interface PageArgs {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly before?: Date | null;
}

export interface PageRequest {
  /** Items to return; undefined: no bound. */
  readonly limit: number | undefined;
  /** Condition selecting the page; undefined: from the start. */
  readonly filter: Record<string, unknown> | undefined;
  /** Distinguishes page conditions in loader keys. */
  readonly signature: string;
}

/** Validates `first` (0..100; over the cap is an error, not a clamp). */
export function validateFirst(first: number | null | undefined, fallback: number | undefined = DEFAULT_FIRST): number | undefined {
  if (first === undefined || first === null) return fallback;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw badUserInput(`first must be between 0 and ${MAX_FIRST}, got ${first}`, { argumentName: 'first' });
  }
  return first;
}

/**
 * Turns page arguments into a limit and a filter over `sort` (which ends with `_id`). `bound` is a limit
 * the storage imposes regardless of `first` (a @join limit).
 */
export function planPage(args: PageArgs, sort: readonly SortKey[], options: { acceptsFirst: boolean; bound?: number }): PageRequest {
  const first = options.acceptsFirst ? validateFirst(args.first) : undefined;
  const limit = first === undefined ? options.bound : options.bound === undefined ? first : Math.min(first, options.bound);
  const conditions: Array<Record<string, unknown>> = [];
  if (args.after !== undefined && args.after !== null) conditions.push(afterFilter(sort, decodeCursor(args.after, sort)));
  if (args.before !== undefined && args.before !== null) {
    const primary = sort[0];
    if (primary) conditions.push({ [primary.path]: { $lt: args.before } });
  }
  const filter = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { $and: conditions };
  return { limit, filter, signature: `${args.after ?? ''}|${args.before?.toISOString() ?? ''}` };
}
