import {
  getNamedType,
  GraphQLError,
  isAbstractType,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { collectFields, subSelections, type InclusionRule, type SelectionSource } from '../planning/collect-selection';
import { isIncludedStrictly } from '../planning/selection-rules';
import type { StorageMap } from '../storage-map/storage-map-types';

export type AnyResolver = GraphQLFieldResolver<unknown, unknown, unknown>;

/** What decides whether docjoin owns a selection: its storage map and the resolvers it built itself. */
export interface Ownership {
  readonly storageMap: StorageMap;
  /** The resolvers docjoin built for relation, stored and counter fields (a hand-written one replaces its field's). */
  readonly fieldResolvers: ReadonlySet<AnyResolver>;
  /** The generated root resolvers (`@find`, `@list`). */
  readonly rootResolvers: ReadonlySet<AnyResolver>;
}

/** A query docjoin owns end to end: the tree its operation plan (plan/operation-plan.ts) runs it from. */
export interface OwnedOperation {
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** The root fields, each a relation whose resolver is a generated root resolver. */
  readonly root: SelectionPlan;
}

/** A selection on one object type: its fields in response order. */
export interface SelectionPlan {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldPlan[];
}

export type FieldPlan = TypenameField | StoredLeaf | ResolvedLeaf | RelationPlan;
export type LeafPlan = StoredLeaf | ResolvedLeaf;
/** A field of the schema (not `__typename`): it has a type, field nodes and a path. */
export type SchemaFieldPlan = LeafPlan | RelationPlan;

export interface TypenameField {
  readonly kind: 'typename';
  readonly responseKey: string;
}

interface SelectedField {
  readonly responseKey: string;
  readonly fieldName: string;
  readonly parentType: GraphQLObjectType;
  readonly definition: GraphQLField<unknown, unknown>;
  readonly type: GraphQLOutputType;
  readonly fieldNodes: readonly FieldNode[];
}

/** A scalar or enum read from the document under the field's own name (graphql's default resolver). */
export interface StoredLeaf extends SelectedField {
  readonly kind: 'stored';
}

/** A scalar or enum docjoin's resolver answers: an id as hex, a value at another stored path, a counter. */
export interface ResolvedLeaf extends SelectedField {
  readonly kind: 'resolved';
  readonly resolve: AnyResolver;
}

/** A relation (or a root field): docjoin's resolver per parent, then its documents' own selection. */
export interface RelationPlan extends SelectedField {
  readonly kind: 'relation';
  readonly resolve: AnyResolver;
  readonly child: SelectionPlan;
}

/** Whether docjoin runs an operation from its own tree, or why graphql-js runs it instead. */
export type OwnedPlanning = { readonly owned: OwnedOperation; readonly refusal?: undefined } | { readonly owned?: undefined; readonly refusal: string };

/**
 * The plan of a query docjoin owns end to end, for the values of the variables its `@skip` / `@include`
 * read; a refusal when some part of it is not docjoin's to run: a root field without a generated
 * resolver, a hand-written resolver (or isTypeOf) below, a connection, an abstract type, introspection,
 * a directive whose `if` has no boolean value, or a mutation or subscription. Those run on graphql-js.
 */
export function planOwnedOperation(
  schema: GraphQLSchema,
  { operation, fragments }: { readonly operation: OperationDefinitionNode; readonly fragments: Readonly<Record<string, FragmentDefinitionNode>> },
  variableValues: Readonly<Record<string, unknown>>,
  ownership: Ownership,
): OwnedPlanning {
  const queryType = schema.getQueryType();
  if (operation.operation !== 'query' || !queryType) return { refusal: `a ${operation.operation}` };
  const planner = new SelectionPlanner({ schema, fragments, variableValues }, ownership);
  try {
    return { owned: { operation, fragments, root: planner.plan(queryType, [operation.selectionSet], true) } };
  } catch (error) {
    if (error instanceof NotOwned) return { refusal: error.message };
    // graphql-js's own error for a directive without a boolean `if`: graphql-js reports it at its path.
    if (error instanceof GraphQLError) return { refusal: `@skip / @include without a boolean value (${error.message})` };
    throw error;
  }
}

/** Thrown by the planner at the first part of the operation docjoin does not run itself. */
class NotOwned extends Error {}

class SelectionPlanner {
  constructor(
    private readonly source: SelectionSource,
    private readonly ownership: Ownership,
  ) {}

  /** The plan of `selectionSets` on `type` (the query type when `isRoot`); throws NotOwned where docjoin does not own it. */
  plan(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], isRoot = false): SelectionPlan {
    const collected = collectFields(this.source, type, selectionSets, 'responseKey', strictly);
    const storage = this.ownership.storageMap.types.get(type.name);
    if (!isRoot && !storage) throw new NotOwned(`${type.name}: a type without storage`);
    const fields: FieldPlan[] = [];
    for (const [responseKey, fieldNodes] of collected) {
      const fieldName = fieldNodes[0]!.name.value;
      if (fieldName === '__typename') {
        fields.push({ kind: 'typename', responseKey });
        continue;
      }
      const coordinate = `${type.name}.${fieldName}`;
      if (fieldName.startsWith('__')) throw new NotOwned(`${fieldName}: introspection`);
      const definition = type.getFields()[fieldName] as GraphQLField<unknown, unknown> | undefined;
      if (!definition) throw new NotOwned(`${coordinate}: not in the schema`);
      const resolve = definition.resolve as AnyResolver | undefined;
      const selected: SelectedField = { responseKey, fieldName, parentType: type, definition, type: definition.type, fieldNodes };
      const target = getNamedType(definition.type);
      if (isRoot) {
        if (!resolve || !this.ownership.rootResolvers.has(resolve)) throw new NotOwned(`${coordinate}: a hand-written root field`);
        fields.push({ ...selected, kind: 'relation', resolve, child: this.#child(coordinate, target, fieldNodes) });
        continue;
      }
      const stored = storage?.fields.get(fieldName);
      if (!stored) throw new NotOwned(`${coordinate}: a field without storage`);
      if (resolve && !this.ownership.fieldResolvers.has(resolve)) throw new NotOwned(`${coordinate}: a hand-written resolver`);
      if (stored.kind === 'relation') {
        if (!resolve) throw new NotOwned(`${coordinate}: a relation without docjoin's resolver`);
        if (stored.connection) throw new NotOwned(`${coordinate}: a connection`);
        fields.push({ ...selected, kind: 'relation', resolve, child: this.#child(coordinate, target, fieldNodes) });
      } else {
        if (!isLeafType(target)) throw new NotOwned(`${coordinate}: an object stored in place`);
        fields.push(resolve ? { ...selected, kind: 'resolved', resolve } : { ...selected, kind: 'stored' });
      }
    }
    return { type, fields };
  }

  #child(coordinate: string, type: GraphQLNamedType, fieldNodes: readonly FieldNode[]): SelectionPlan {
    if (!isObjectType(type)) throw new NotOwned(`${coordinate}: ${isAbstractType(type) ? 'an abstract type' : 'not an object type'}`);
    // A hand-written isTypeOf would check each object: graphql-js runs it.
    if (type.isTypeOf) throw new NotOwned(`${type.name}: a hand-written isTypeOf`);
    return this.plan(type, subSelections(fieldNodes));
  }
}

/** Execution's rule: a directive without a boolean `if` throws, and the operation is not owned. */
const strictly: InclusionRule = (source, node) => isIncludedStrictly(source.variableValues, node);
