import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  type FieldNode,
  type FragmentSpreadNode,
  type GraphQLObjectType,
  type InlineFragmentNode,
} from 'graphql';
import type { SelectionSource } from './collect-selection';

/** graphql-js's rules for which selections execute: @skip/@include with the request's variables, type conditions. */
export function isIncluded(source: SelectionSource, node: FieldNode | InlineFragmentNode | FragmentSpreadNode): boolean {
  const variables = source.variableValues as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

export function fragmentApplies(source: SelectionSource, type: GraphQLObjectType, condition: string | undefined): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditionType = source.schema.getType(condition);
  return conditionType !== undefined && conditionType !== null && isAbstractType(conditionType) && source.schema.isSubType(conditionType, type);
}
