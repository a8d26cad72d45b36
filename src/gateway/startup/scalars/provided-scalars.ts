import type { GraphQLScalarType } from 'graphql';
import { DateTimeScalar, dateTimeTypeDefs } from './date-time-scalar';
import { DecimalScalar, exactNumberTypeDefs, LongScalar } from './exact-number-scalars';

/**
 * The scalars docjoin provides, by name: each is defined in an SDL that uses it without defining it
 * (schema-sources.ts), and bound to a schema that has it unless the resolvers give their own.
 */
export const PROVIDED_SCALARS: ReadonlyMap<string, { readonly scalar: GraphQLScalarType; readonly typeDefs: string }> = new Map([
  ['DateTime', { scalar: DateTimeScalar as GraphQLScalarType, typeDefs: dateTimeTypeDefs }],
  ['Decimal', { scalar: DecimalScalar as GraphQLScalarType, typeDefs: exactNumberTypeDefs.Decimal }],
  ['Long', { scalar: LongScalar as GraphQLScalarType, typeDefs: exactNumberTypeDefs.Long }],
]);

/**
 * Whether a schema's scalar is docjoin's own of its name (its values stored as the BSON type docjoin
 * gives them): graphql-tools binds a scalar resolver by copying its functions onto the schema's own type.
 */
export function isProvidedScalar(type: GraphQLScalarType): boolean {
  return PROVIDED_SCALARS.get(type.name)?.scalar.parseValue === type.parseValue;
}
