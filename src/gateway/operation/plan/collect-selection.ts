import { Kind, type FieldNode, type FragmentSpreadNode, type GraphQLObjectType, type InlineFragmentNode, type SelectionSetNode } from 'graphql';
import { InvariantError } from '../../errors/internal-errors';
import { fragmentApplies, isIncluded } from './selection-rules';
import type { SelectionSource } from './selection-source';


/** Whether a selection executes (selection-rules.ts): planning's lenient rule, or execution's strict one. */
export type InclusionRule = (source: SelectionSource, node: FieldNode | InlineFragmentNode | FragmentSpreadNode) => boolean;

/**
 * The fields selected in `selectionSets` on object type `type` by response key, with fragments expanded and
 * @skip/@include applied, in graphql-js's order: a key's first appearance places it, and a fragment
 * spread is expanded where it is first included. (Written here because @graphql-tools' collectSubFields
 * expects graphql 17's variable values.)
 */
export function collectFields(
  source: SelectionSource,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  included: InclusionRule = isIncluded,
): Map<string, FieldNode[]> {
  const groups = new Map<string, FieldNode[]>();
  const visitedFragments = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (!included(source, selection)) continue;
      switch (selection.kind) {
        case Kind.FIELD: {
          const key = selection.alias?.value ?? selection.name.value;
          const group = groups.get(key);
          if (group) group.push(selection);
          else groups.set(key, [selection]);
          break;
        }
        case Kind.INLINE_FRAGMENT:
          if (fragmentApplies(source, type, selection.typeCondition?.name.value)) collect(selection.selectionSet);
          break;
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          const fragment = source.fragments[name];
          if (visitedFragments.has(name) || !fragment) break;
          visitedFragments.add(name);
          if (fragmentApplies(source, type, fragment.typeCondition.name.value)) collect(fragment.selectionSet);
          break;
        }
        default: {
          const never: never = selection;
          throw new InvariantError(`unknown selection ${JSON.stringify(never)}`);
        }
      }
    }
  };
  selectionSets.forEach(collect);
  return groups;
}

/** The selection sets under `fieldNodes` (several when a field is selected more than once). */
export function subSelections(fieldNodes: readonly FieldNode[]): SelectionSetNode[] {
  return fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}
