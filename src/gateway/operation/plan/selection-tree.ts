import {
  getNamedType,
  GraphQLError,
  isAbstractType,
  isCompositeType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type SelectionSetNode,
} from 'graphql';
import { collectFields, subSelections, type InclusionRule } from './collect-selection';
import type { SelectionSource } from './selection-source';
import { isIncludedStrictly } from './selection-rules';

/** The fields selected on one object type, in response order, as graphql-js collects them. */
export interface SelectionStep {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldStep[];
}

/** One response key on one object type: the field, the nodes that select it, and what is selected below it. */
export interface FieldStep {
  readonly responseKey: string;
  readonly fieldName: string;
  readonly parentType: GraphQLObjectType;
  /** `Type.field`. */
  readonly coordinate: string;
  /** Undefined for `__typename` and introspection (`__schema`, `__type`), whose selections are not planned. */
  readonly definition: GraphQLField<unknown, unknown> | undefined;
  readonly fieldNodes: readonly FieldNode[];
  /** The selection below it on each object type its values can be: one for an object type, one per possible type of an interface or union, none for a leaf. */
  readonly children: readonly SelectionStep[];
}

/** The operation's selections, collected once per object type (plan/operation-plan.ts holds it). */
export interface SelectionTree {
  readonly root: SelectionStep;
  /** Nested selection sets: `{ books { publisher { name } } }` is 2 (introspection doesn't count). */
  readonly depth: number;
  /**
   * graphql-js's error for the first `@skip` / `@include` whose `if` has no boolean value (a variable
   * sent as null). The tree counts that selection as skipped (nothing in it is read, so an estimate made
   * from the tree stays an upper bound); execution reports the error, and docjoin does not run it itself.
   */
  readonly directiveError: string | undefined;
}

/** Field steps a tree may hold: past it (aliases and fragments multiplied out), the operation is too large to plan. */
export const MAX_FIELD_STEPS = 20_000;

/** Thrown by buildSelectionTree past MAX_FIELD_STEPS. */
export class TooLargeToPlan extends Error {
  constructor() {
    super(`more than ${MAX_FIELD_STEPS.toLocaleString('en')} fields once its aliases and fragments are multiplied out`);
  }
}

/**
 * The one walk over an operation's selections: fields collected as graphql-js collects them (@skip and
 * @include applied with the variables' values, each response key placed where it first appears, each
 * fragment expanded once per selection set), on every object type a value can be.
 */
export function buildSelectionTree(source: SelectionSource, rootType: GraphQLObjectType, selectionSet: SelectionSetNode): SelectionTree {
  const builder = new TreeBuilder(source);
  const root = builder.selection(rootType, [selectionSet]);
  return { root, depth: depthOf(root), directiveError: builder.directiveError };
}

/**
 * The step of one field selected with `fieldNodes` on `parentType`, built by the same walk as a tree:
 * for a field resolved outside any plan (an operation too large to plan, or one executed without a
 * planner).
 */
export function buildFieldStep(source: SelectionSource, parentType: GraphQLObjectType, fieldNodes: readonly FieldNode[]): FieldStep {
  return new TreeBuilder(source).field(parentType, fieldNodes[0]!.alias?.value ?? fieldNodes[0]!.name.value, fieldNodes);
}

class TreeBuilder {
  directiveError: string | undefined;
  #steps = 0;
  readonly #included: InclusionRule = (source, node) => {
    try {
      return isIncludedStrictly(source.variableValues, node);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      this.directiveError ??= error.message;
      return false;
    }
  };

  constructor(private readonly source: SelectionSource) {}

  selection(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): SelectionStep {
    const fields: FieldStep[] = [];
    for (const [responseKey, fieldNodes] of collectFields(this.source, type, selectionSets, this.#included)) {
      fields.push(this.field(type, responseKey, fieldNodes));
    }
    return { type, fields };
  }

  field(parentType: GraphQLObjectType, responseKey: string, fieldNodes: readonly FieldNode[]): FieldStep {
    if (++this.#steps > MAX_FIELD_STEPS) throw new TooLargeToPlan();
    const fieldName = fieldNodes[0]!.name.value;
    const definition = fieldName.startsWith('__') ? undefined : (parentType.getFields()[fieldName] as GraphQLField<unknown, unknown> | undefined);
    const children = definition ? this.#children(getNamedType(definition.type), fieldNodes) : [];
    return { responseKey, fieldName, parentType, coordinate: `${parentType.name}.${fieldName}`, definition, fieldNodes, children };
  }

  #children(named: GraphQLNamedType, fieldNodes: readonly FieldNode[]): SelectionStep[] {
    const selectionSets = subSelections(fieldNodes);
    if (isObjectType(named)) return [this.selection(named, selectionSets)];
    if (isAbstractType(named)) return this.source.schema.getPossibleTypes(named).map((type) => this.selection(type, selectionSets));
    return [];
  }
}

/** The deepest nesting below a selection: a field with a selection set is one level more than its deepest child. */
function depthOf(selection: SelectionStep): number {
  let deepest = 0;
  for (const field of selection.fields) {
    if (!field.definition || !isCompositeType(getNamedType(field.definition.type))) continue;
    let below = 0;
    for (const child of field.children) below = Math.max(below, depthOf(child));
    deepest = Math.max(deepest, 1 + below);
  }
  return deepest;
}

/** What a connection field's selection asks for, read from its step. */
export interface ConnectionSteps {
  /** The selections of the listed documents, one per response key of `edges { node }` and of `nodes` (each on every node type). */
  readonly nodeSelections: readonly (readonly SelectionStep[])[];
  /** Whether anything needs the page's documents: edges, nodes or pageInfo. */
  readonly page: boolean;
  readonly totalCount: boolean;
}

/** The connection step's page, count and node selections (its child is the connection type's selection). */
export function connectionSteps(step: FieldStep): ConnectionSteps {
  const nodeSelections: (readonly SelectionStep[])[] = [];
  let page = false;
  let totalCount = false;
  for (const field of step.children[0]?.fields ?? []) {
    switch (field.fieldName) {
      case 'edges':
        page = true;
        for (const edge of field.children[0]?.fields ?? []) if (edge.fieldName === 'node') nodeSelections.push(edge.children);
        break;
      case 'nodes':
        page = true;
        nodeSelections.push(field.children);
        break;
      case 'pageInfo':
        page = true;
        break;
      case 'totalCount':
        totalCount = true;
        break;
      default:
        break; // __typename
    }
  }
  return { nodeSelections, page, totalCount };
}

/** The distinct fields of the child selection on `typeName` (aliases merged, `__typename` left out), in selection order. */
export function selectedFieldNamesOf(step: FieldStep, typeName: string): string[] {
  return [...stepsByFieldName(step.children, typeName).keys()];
}

/**
 * The fields of `selections` on `typeName` (on any type when undefined) grouped by field name, in
 * selection order, `__typename` left out: each alias of a field is one step of its group (what a
 * projection reads is their union).
 */
export function stepsByFieldName(selections: readonly SelectionStep[], typeName: string | undefined): Map<string, FieldStep[]> {
  const groups = new Map<string, FieldStep[]>();
  for (const selection of selections) {
    if (typeName !== undefined && selection.type.name !== typeName) continue;
    for (const field of selection.fields) {
      if (field.fieldName === '__typename') continue;
      const group = groups.get(field.fieldName);
      if (group) group.push(field);
      else groups.set(field.fieldName, [field]);
    }
  }
  return groups;
}
