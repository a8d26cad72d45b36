import { getDirective } from '@graphql-tools/utils';
import type { GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';

/** The directives that generate a root read (on Query) and a write (on Mutation). */
const ROOT_READ_GENERATORS = ['find', 'list'] as const;
const WRITE_GENERATORS = ['create', 'update', 'delete'] as const;

/**
 * A generating directive on a field of another type than the root that runs it (@create, @update and
 * @delete on Mutation; @find and @list on Query): nothing would generate the field there, so it would
 * answer null at every request. Each problem names the field and where it belongs.
 */
export function misplacedGeneratorProblems(schema: GraphQLSchema, type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): string[] {
  const carried = (names: readonly string[]) => names.find((name) => getDirective(schema, field, name)?.[0] !== undefined);
  const problems: string[] = [];
  const write = carried(WRITE_GENERATORS);
  const mutationType = schema.getMutationType();
  if (write && type !== mutationType) problems.push(`${type.name}.${field.name}: @${write} generates a mutation, so it belongs on a field of ${mutationType?.name ?? 'type Mutation'}; move ${field.name} there`);
  const read = carried(ROOT_READ_GENERATORS);
  const queryType = schema.getQueryType();
  if (read && type !== queryType) problems.push(`${type.name}.${field.name}: @${read} generates a root read, so it belongs on a field of ${queryType?.name ?? 'type Query'}; move ${field.name} there`);
  return problems;
}
