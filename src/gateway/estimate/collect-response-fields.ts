import type { FieldNode, GraphQLObjectType, SelectionSetNode } from 'graphql';
import { collectFields, subSelections, type SelectionSource } from '../planning/collect-selection';

/**
 * The fields selected under `fieldNodes` on object type `type`, grouped by RESPONSE KEY, the way
 * graphql-js executes them: two aliases of one field are two entries (two resolver calls per object),
 * while nodes sharing a response key merge into one.
 */
export function collectResponseFields(source: SelectionSource, type: GraphQLObjectType, fieldNodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  return collectFields(source, type, subSelections(fieldNodes), 'responseKey');
}

/** The same for the operation's own selection set on the root type. */
export function collectRootFields(source: SelectionSource, type: GraphQLObjectType, selectionSet: SelectionSetNode): Map<string, FieldNode[]> {
  return collectFields(source, type, [selectionSet], 'responseKey');
}
