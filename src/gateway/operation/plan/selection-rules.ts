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
import type { SelectionSource } from './selection-source';

type SelectionNode = FieldNode | InlineFragmentNode | FragmentSpreadNode;

/**
 * graphql-js's rule for which selections execute: @skip, then @include, with the request's variables.
 * Throws graphql-js's own GraphQLError when a directive's `if` has no boolean value (a variable sent as
 * null or not sent): execution then fails at that selection set.
 */
export function isIncludedStrictly(variables: Readonly<Record<string, unknown>>, node: SelectionNode): boolean {
  if (!node.directives || node.directives.length === 0) return true;
  const values = variables as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, values)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;
}

/**
 * The same rule for planning and estimating: a selection whose directive cannot be evaluated counts as
 * skipped. graphql-js refuses its whole selection set with an error, so nothing in it is read; the
 * estimate stays an upper bound, and execution, not planning, reports the error at its path.
 */
export function isIncluded(source: SelectionSource, node: SelectionNode): boolean {
  try {
    return isIncludedStrictly(source.variableValues, node);
  } catch {
    return false;
  }
}

export function fragmentApplies(source: SelectionSource, type: GraphQLObjectType, condition: string | undefined): boolean {
  if (condition === undefined || condition === type.name) return true;
  const conditionType = source.schema.getType(condition);
  return conditionType !== undefined && conditionType !== null && isAbstractType(conditionType) && source.schema.isSubType(conditionType, type);
}
