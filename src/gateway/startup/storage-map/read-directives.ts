import { getDirective } from '@graphql-tools/utils';
import type { GraphQLArgument, GraphQLEnumValue, GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { FilterOp } from './storage-map-types';
import { isCollectionName } from '../../documents/collection-name';

/**
 * Typed readers for the storage directives. `getDirective` coerces arguments against the declared
 * directive and applies defaults; these functions turn its loose records into typed objects, so
 * nothing downstream reads directive arguments untyped.
 */

export interface CollectionDirective { readonly name: string }
export interface PathDirective { readonly path: string }
export interface EmbeddedDirective { readonly path: string | undefined }
export interface JoinDirective {
  readonly collection: string | undefined;
  readonly localField: string;
  readonly foreignField: string;
  readonly sort: string | undefined;
  readonly limit: number | undefined;
}
export interface SnapshotDirective { readonly path: string; readonly fields: readonly string[]; readonly key: string }
export interface ReadDirective { readonly strategy: 'EMBEDDED' | 'JOIN' | 'SNAPSHOT' | 'LOOKUP' }

export interface ListDirective { readonly sort: string }
export interface FilterDirective { readonly field: string; readonly op: FilterOp | undefined }
export interface SortDirective { readonly by: string }
export interface AggregateDirective { readonly of: string; readonly fields: readonly string[]; readonly groupBy: readonly string[] }

type Directable = GraphQLObjectType | GraphQLField<unknown, unknown> | GraphQLArgument | GraphQLEnumValue;
type Args = Readonly<Record<string, unknown>>;

function readArgs(schema: GraphQLSchema, node: Directable, name: string): Args | undefined {
  return getDirective(schema, node, name)?.[0];
}

function requiredString(args: Args, name: string, directive: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new TypeError(`@${directive}(${name}:) must be a String, got ${JSON.stringify(value)}`);
  return value;
}

function optionalString(args: Args, name: string, directive: string): string | undefined {
  return args[name] === undefined || args[name] === null ? undefined : requiredString(args, name, directive);
}

export function readCollection(schema: GraphQLSchema, type: GraphQLObjectType): CollectionDirective | undefined {
  const args = readArgs(schema, type, 'collection');
  if (!args) return undefined;
  const name = requiredString(args, 'name', 'collection');
  if (!isCollectionName(name)) throw new TypeError(`@collection(name: ${JSON.stringify(name)}) is no collection name MongoDB takes (1 to 120 characters, no "$", not system.*); name the collection the documents are in`);
  return { name };
}

export function readPath(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): PathDirective | undefined {
  const args = readArgs(schema, field, 'path');
  return args && { path: requiredString(args, 'path', 'path') };
}

export function readEmbedded(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): EmbeddedDirective | undefined {
  const args = readArgs(schema, field, 'embedded');
  return args && { path: optionalString(args, 'path', 'embedded') };
}

export function readJoin(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): JoinDirective | undefined {
  const args = readArgs(schema, field, 'join');
  if (!args) return undefined;
  const limit = args.limit;
  if (limit !== undefined && limit !== null && typeof limit !== 'number') throw new TypeError(`@join(limit:) must be an Int, got ${JSON.stringify(limit)}`);
  return {
    collection: optionalString(args, 'collection', 'join'),
    localField: requiredString(args, 'localField', 'join'),
    foreignField: optionalString(args, 'foreignField', 'join') ?? '_id',
    sort: optionalString(args, 'sort', 'join'),
    limit: typeof limit === 'number' ? limit : undefined,
  };
}

export function readSnapshot(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): SnapshotDirective | undefined {
  const args = readArgs(schema, field, 'snapshot');
  if (!args) return undefined;
  const fields = args.fields;
  if (!Array.isArray(fields) || !fields.every((f): f is string => typeof f === 'string')) {
    throw new TypeError(`@snapshot(fields:) must be a list of Strings, got ${JSON.stringify(fields)}`);
  }
  return { path: requiredString(args, 'path', 'snapshot'), fields, key: optionalString(args, 'key', 'snapshot') ?? 'id' };
}

export function readRead(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): ReadDirective | undefined {
  const args = readArgs(schema, field, 'read');
  if (!args) return undefined;
  const strategy = args.strategy;
  if (strategy !== 'EMBEDDED' && strategy !== 'JOIN' && strategy !== 'SNAPSHOT' && strategy !== 'LOOKUP') {
    throw new TypeError(`@read(strategy:) must be EMBEDDED, JOIN, SNAPSHOT or LOOKUP, got ${JSON.stringify(strategy)}`);
  }
  return { strategy };
}

export function readFind(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): boolean {
  return readArgs(schema, field, 'find') !== undefined;
}

export function readAggregate(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): AggregateDirective | undefined {
  const args = readArgs(schema, field, 'aggregate');
  return args && { of: requiredString(args, 'of', 'aggregate'), fields: stringList(args, 'fields', 'aggregate'), groupBy: stringList(args, 'groupBy', 'aggregate') };
}

function stringList(args: Args, name: string, directive: string): readonly string[] {
  const value = args[name] ?? [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new TypeError(`@${directive}(${name}:) must be a list of Strings, got ${JSON.stringify(value)}`);
  return value as readonly string[];
}

export function readList(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): ListDirective | undefined {
  const args = readArgs(schema, field, 'list');
  return args && { sort: optionalString(args, 'sort', 'list') ?? '_id' };
}

const FILTER_OPS: readonly FilterOp[] = ['EQ', 'NE', 'LT', 'LTE', 'GT', 'GTE', 'IN', 'PREFIX'];

export function readFilter(schema: GraphQLSchema, argument: GraphQLArgument): FilterDirective | undefined {
  const args = readArgs(schema, argument, 'filter');
  if (!args) return undefined;
  const op = args.op ?? undefined;
  if (op !== undefined && !FILTER_OPS.includes(op as FilterOp)) throw new TypeError(`@filter(op:) must be one of ${FILTER_OPS.join(', ')}, got ${JSON.stringify(op)}`);
  return { field: requiredString(args, 'field', 'filter'), op: op as FilterOp | undefined };
}

export function readSortValue(schema: GraphQLSchema, value: GraphQLEnumValue): SortDirective | undefined {
  const args = readArgs(schema, value, 'sort');
  return args && { by: requiredString(args, 'by', 'sort') };
}

/** A `where` entry of `@access` as the directive gives it: the field, and the claim or the constant it equals. */
export interface WhereEntry {
  readonly field: string;
  readonly claim?: string | null;
  readonly equals?: unknown;
}

export interface AccessDirective {
  readonly roles: readonly string[];
  readonly allow: readonly ('READ' | 'CREATE' | 'UPDATE' | 'DELETE')[];
  readonly where: readonly WhereEntry[];
  readonly hide: readonly string[];
  readonly readOnly: readonly string[];
  readonly via: readonly string[];
}

/** Every `@access` rule of a type (the directive is repeatable), arguments coerced and defaults applied. */
export function readAccess(schema: GraphQLSchema, type: GraphQLObjectType): readonly AccessDirective[] {
  return (getDirective(schema, type, 'access') ?? []).map((args) => ({
    roles: args.roles as string[],
    allow: args.allow as AccessDirective['allow'],
    where: (args.where as AccessDirective['where'] | undefined) ?? [],
    hide: (args.hide as string[] | undefined) ?? [],
    readOnly: (args.readOnly as string[] | undefined) ?? [],
    via: (args.via as string[] | undefined) ?? [],
  }));
}

export interface CounterDirective { readonly of: string }
export interface InverseDirective { readonly of: string }
export interface TotalDirective { readonly of: string; readonly field: string }

/**
 * The write-rule directives `@counter(of:)` and `@inverse(of:)`. A schema that does not define them (an
 * SDL bringing its own older copy of the definitions) simply has no rules of that kind.
 */
export function readCounter(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): CounterDirective | undefined {
  return readOf(schema, field, 'counter');
}

/** `@total(of:, field:)`; undefined when the schema does not define it (as for `@counter`). */
export function readTotal(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): TotalDirective | undefined {
  if (!schema.getDirective('total')) return undefined;
  const args = readArgs(schema, field, 'total');
  return args && { of: requiredString(args, 'of', 'total'), field: requiredString(args, 'field', 'total') };
}

export function readInverse(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): InverseDirective | undefined {
  return readOf(schema, field, 'inverse');
}

function readOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>, name: string): { of: string } | undefined {
  if (!schema.getDirective(name)) return undefined;
  const args = readArgs(schema, field, name);
  return args && { of: requiredString(args, 'of', name) };
}
