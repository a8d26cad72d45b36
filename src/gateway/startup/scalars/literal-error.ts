import { GraphQLError, type ValueNode } from 'graphql';

/**
 * Parses a literal of the operation, placing a refusal at it: graphql-js reports the GraphQLError a
 * scalar's parseLiteral throws as it is, so one without nodes would reach the client with no location.
 */
export function atLiteral<T>(ast: ValueNode, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof GraphQLError) || error.nodes !== undefined) throw error;
    throw new GraphQLError(error.message, { nodes: ast, extensions: error.extensions, originalError: error.originalError });
  }
}
