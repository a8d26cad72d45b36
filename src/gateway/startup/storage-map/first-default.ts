import type { GraphQLArgument } from 'graphql';
import { DEFAULT_FIRST, MAX_FIRST } from './page-limits';

/**
 * A `first` whose SDL default no page may hold: every request leaving `first` out would be refused
 * with a value the client never sent (page-request.ts), so the schema is refused instead.
 */
export function firstDefaultProblem(argument: GraphQLArgument): string | undefined {
  const value = argument.defaultValue;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_FIRST) return undefined;
  return `argument "first" defaults to ${String(value)}, but a page holds 0 to ${MAX_FIRST} items; give it a default in that range`;
}

/**
 * The page size a field's `first` stands for when the request gives none: its SDL default, else
 * DEFAULT_FIRST (withPageDefaults writes that in). graphql-js passes an explicit `first: null` as null,
 * not the default, so docjoin's pages read null as this, like a `first` left out.
 */
export function declaredFirst(argument: GraphQLArgument | undefined): number {
  return typeof argument?.defaultValue === 'number' ? argument.defaultValue : DEFAULT_FIRST;
}
