import { getDirective } from '@graphql-tools/utils';
import type { GraphQLField, GraphQLSchema } from 'graphql';

/**
 * Typed readers for the write-rule directives `@counter(of:)` and `@inverse(of:)` (defined in
 * startup/schema/directive-type-defs.ts). A schema that does not define them (an SDL bringing its own older copy
 * of the definitions) simply has no rules of that kind.
 */

export interface CounterDirective { readonly of: string }
export interface InverseDirective { readonly of: string }

export function readCounter(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): CounterDirective | undefined {
  return readOf(schema, field, 'counter');
}

export function readInverse(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): InverseDirective | undefined {
  return readOf(schema, field, 'inverse');
}

function readOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>, name: string): { of: string } | undefined {
  if (!schema.getDirective(name)) return undefined;
  const args = getDirective(schema, field, name)?.[0];
  if (!args) return undefined;
  const of: unknown = args.of;
  if (typeof of !== 'string') throw new TypeError(`@${name}(of:) must be a String, got ${JSON.stringify(of)}`);
  return { of };
}
