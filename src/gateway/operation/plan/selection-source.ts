import type { FragmentDefinitionNode, GraphQLSchema } from 'graphql';

/** The parts of a GraphQLResolveInfo that planning reads; tests can build it without executing. */
export interface SelectionSource {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variableValues: Readonly<Record<string, unknown>>;
}
