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
