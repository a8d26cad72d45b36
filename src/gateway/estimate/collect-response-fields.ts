import { Kind, type FieldNode, type GraphQLObjectType, type SelectionSetNode } from 'graphql';
import { InvariantError } from '../errors/internal-errors';
import type { SelectionSource } from '../planning/collect-selection';
import { fragmentApplies, isIncluded } from './selection-rules';

/**
 * The fields selected under `fieldNodes` on object type `type`, grouped by RESPONSE KEY, the way
 * graphql-js executes them: two aliases of one field are two entries (two resolver calls per object),
 * while nodes sharing a response key merge into one. Fragments are expanded, @skip/@include applied.
 */
export function collectResponseFields(source: SelectionSource, type: GraphQLObjectType, fieldNodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const byKey = new Map<string, FieldNode[]>();
  const visitedFragments = new Set<string>();
  for (const node of fieldNodes) {
    if (node.selectionSet) collect(source, type, node.selectionSet, byKey, visitedFragments);
  }
  return byKey;
}

/** The same for the operation's own selection set on the root type. */
export function collectRootFields(source: SelectionSource, type: GraphQLObjectType, selectionSet: SelectionSetNode): Map<string, FieldNode[]> {
  const byKey = new Map<string, FieldNode[]>();
  collect(source, type, selectionSet, byKey, new Set());
  return byKey;
}

function collect(source: SelectionSource, type: GraphQLObjectType, selectionSet: SelectionSetNode, byKey: Map<string, FieldNode[]>, visitedFragments: Set<string>): void {
  for (const selection of selectionSet.selections) {
    if (!isIncluded(source, selection)) continue;
    switch (selection.kind) {
      case Kind.FIELD: {
        const key = selection.alias?.value ?? selection.name.value;
        const list = byKey.get(key);
        if (list) list.push(selection);
        else byKey.set(key, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (fragmentApplies(source, type, selection.typeCondition?.name.value)) collect(source, type, selection.selectionSet, byKey, visitedFragments);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = source.fragments[name];
        if (visitedFragments.has(name) || !fragment) break;
        visitedFragments.add(name);
        if (fragmentApplies(source, type, fragment.typeCondition.name.value)) collect(source, type, fragment.selectionSet, byKey, visitedFragments);
        break;
      }
      default: {
        const never: never = selection;
        throw new InvariantError(`unknown selection ${JSON.stringify(never)}`);
      }
    }
  }
}
