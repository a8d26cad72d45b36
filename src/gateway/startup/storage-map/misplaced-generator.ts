import { getDirective } from '@graphql-tools/utils';
import type { GraphQLField, GraphQLSchema } from 'graphql';

/** The directives that generate a root read (on Query) and a write (on Mutation). */
export const ROOT_READ_GENERATORS = ['find', 'list'] as const;
export const WRITE_GENERATORS = ['create', 'update', 'delete'] as const;

/** The first of `directives` that `field` carries. */
export function firstDirectiveOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>, directives: readonly string[]): string | undefined {
  return directives.find((name) => getDirective(schema, field, name)?.[0] !== undefined);
}

/** Why a generating directive on a field of another type than the root that runs it does nothing there, and the fix. */
export function misplacedGeneratorProblem(coordinate: string, fieldName: string, directive: string, rootName: string): string {
  const generates = (WRITE_GENERATORS as readonly string[]).includes(directive) ? 'a mutation' : 'a root read';
  return `${coordinate}: @${directive} generates ${generates}, so it belongs on a field of ${rootName}; move ${fieldName} there`;
}
