import type { GraphQLSchema, OperationTypeNode } from 'graphql';

/**
 * Why docjoin does not run an operation of `type` over `schema`, or undefined when it does: a
 * subscription, or a mutation of a schema without a Mutation type (graphql-js 16 validates no
 * operation against a root type the schema lacks, and nothing would bound its estimate).
 */
export function unservedOperation(schema: GraphQLSchema, type: OperationTypeNode): string | undefined {
  if (type === 'subscription') return 'docjoin serves queries and mutations; a subscription is not supported';
  if (type === 'mutation' && !schema.getMutationType()) return 'this schema has no Mutation type: it serves queries alone';
  return undefined;
}
