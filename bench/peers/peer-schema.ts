import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { ObjectId } from 'mongodb';

/** The repository, found through the package: a compiled peer runs from build/bench-peers, not from bench/peers. */
const REPO_ROOT = path.dirname(require.resolve('docjoin/package.json'));

/** The demo project's config: the data and SDL docjoin serves. */
export const DEMO_CONFIG_FILE = path.join(REPO_ROOT, 'docjoin.config.ts');

/**
 * What the hand-written GraphQL peers share: the SDL docjoin serves (its public schema, storage
 * directives removed: schema.public.graphql, which `npm run codegen:check` keeps true and
 * the runner compares with the project's SDL before starting), its DateTime scalar and its argument rules.
 */
export const PUBLIC_SCHEMA_FILE = path.join(REPO_ROOT, 'schema.public.graphql');

export function publicTypeDefs(): string {
  return readFileSync(PUBLIC_SCHEMA_FILE, 'utf8');
}

/** ISO-8601 strings in and out, as docjoin's DateTime. */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    throw new GraphQLError(`DateTime cannot represent ${String(value)}`);
  },
  parseValue(value) {
    return parseDate(value);
  },
  parseLiteral(node) {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return parseDate(node.value);
  },
});

function parseDate(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) throw new GraphQLError(`DateTime must be an ISO-8601 string, got ${JSON.stringify(value)}`);
  return date;
}

export const MAX_PAGE_SIZE = 100;

function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/** `first` as docjoin takes it: 0 to 100 (the SDL's default applies when it is left out). */
export function pageSize(first: unknown): number {
  if (typeof first !== 'number' || !Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw badUserInput(`first must be an integer from 0 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(first)}`);
  }
  return first;
}

export function objectIdArgument(value: unknown, name: string): ObjectId {
  if (typeof value !== 'string' || !ObjectId.isValid(value) || value.length !== 24) throw badUserInput(`${name} must be a 24-character hex id, got ${JSON.stringify(value)}`);
  return new ObjectId(value);
}

/** A page's filter: the documents after `after` (the id of the last item received), in natural order as docjoin reads them. */
export function afterFilter(after: unknown): { _id?: { $gt: ObjectId } } {
  return after === undefined || after === null ? {} : { _id: { $gt: objectIdArgument(after, 'after') } };
}

export function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'NOT_FOUND' } });
}

/** `items` in the order of `ids` (an array of references keeps its order; `$in` does not), missing ones left out. */
export function inIdOrder<T extends { _id: ObjectId }>(ids: readonly ObjectId[], items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item._id.toHexString(), item]));
  return ids.map((id) => byId.get(id.toHexString())).filter((item): item is T => item !== undefined);
}
