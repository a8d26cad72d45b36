import { directiveTypeDefs } from 'docjoin';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { demoTypeDefs } from '../../../support/demo-project';
import type { SelectionSource } from '../../../../src/gateway/planning/collect-selection';

export const DIRECTIVES_SDL = directiveTypeDefs;

/** A schema from the repository's directives plus `sdl` (no resolvers: planning and validation only). */
export function schemaOf(sdl: string): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: [DIRECTIVES_SDL, sdl] });
}

export function demoSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: demoTypeDefs() });
}

/** The field nodes at `path` (response keys from the root) of `query`, with what planning needs. */
export function selectionAt(schema: GraphQLSchema, query: string, path: readonly string[], variableValues: Record<string, unknown> = {}) {
  const document = parse(query);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    if (definition.kind === Kind.OPERATION_DEFINITION) operation = definition;
  }
  let nodes: FieldNode[] = operation!.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  let found: FieldNode[] = [];
  for (const key of path) {
    found = nodes.filter((node) => (node.alias?.value ?? node.name.value) === key);
    if (found.length === 0) throw new Error(`no field ${key} in query`);
    nodes = found.flatMap((node) => (node.selectionSet?.selections ?? []).filter((s): s is FieldNode => s.kind === Kind.FIELD));
  }
  const source: SelectionSource = { schema, fragments, variableValues };
  return { source, fieldNodes: found };
}
