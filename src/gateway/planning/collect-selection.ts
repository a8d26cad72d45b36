import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type InlineFragmentNode,
  type SelectionSetNode,
} from 'graphql';
import { InvariantError } from '../errors/internal-errors';

/** The parts of a GraphQLResolveInfo that planning reads; tests can build it without executing. */
export interface SelectionSource {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variableValues: Readonly<Record<string, unknown>>;
}

/**
 * The fields selected under `fieldNodes` on object type `typeName` (fragments resolved, @skip/@include
 * applied), grouped by field name: aliases of one field are one entry with several nodes.
 * (Written here because @graphql-tools' collectSubFields expects graphql 17's variable values.)
 */
export function collectSelection(source: SelectionSource, typeName: string, fieldNodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const type = source.schema.getType(typeName);
  if (!isObjectType(type)) throw new InvariantError(`collectSelection: ${typeName} is not an object type`);
  const byName = new Map<string, FieldNode[]>();
  const visitedFragments = new Set<string>();
  for (const node of fieldNodes) {
    if (node.selectionSet) collect(source, type, node.selectionSet, byName, visitedFragments);
  }
  return byName;
}

function collect(source: SelectionSource, type: GraphQLObjectType, selectionSet: SelectionSetNode, byName: Map<string, FieldNode[]>, visitedFragments: Set<string>): void {
  for (const selection of selectionSet.selections) {
    if (!included(source, selection)) continue;
    switch (selection.kind) {
      case Kind.FIELD: {
        const list = byName.get(selection.name.value);
        if (list) list.push(selection);
        else byName.set(selection.name.value, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (applies(source, type, selection.typeCondition?.name.value)) collect(source, type, selection.selectionSet, byName, visitedFragments);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = source.fragments[name];
        if (visitedFragments.has(name) || !fragment) break;
        visitedFragments.add(name);
        if (applies(source, type, fragment.typeCondition.name.value)) collect(source, type, fragment.selectionSet, byName, visitedFragments);
        break;
      }
      default: {
        const never: never = selection;
        throw new InvariantError(`unknown selection ${JSON.stringify(never)}`);
      }
    }
  }
}

function included(source: SelectionSource, node: FieldNode | InlineFragmentNode | FragmentSpreadNode): boolean {
  const variables = source.variableValues as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

function applies(source: SelectionSource, type: GraphQLObjectType, condition: string | undefined): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditionType = source.schema.getType(condition);
  return conditionType !== undefined && conditionType !== null && isAbstractType(conditionType) && source.schema.isSubType(conditionType, type);
}
