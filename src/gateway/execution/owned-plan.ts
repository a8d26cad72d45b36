import {
  getNamedType,
  GraphQLError,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldResolver,
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

/** A query docjoin owns end to end, planned once per document and operation name. */
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

/**
 * The plan of a query docjoin owns end to end, for the values of the variables its `@skip` / `@include`
 * read; undefined when some part of it is not docjoin's to run: a root field without a generated
 * resolver, a hand-written resolver (or isTypeOf) below, a connection, an abstract type, introspection,
 * a directive whose `if` has no boolean value, or a mutation or subscription. Those run on graphql-js.
 */
export function planOwnedOperation(
  schema: GraphQLSchema,
  { operation, fragments }: { readonly operation: OperationDefinitionNode; readonly fragments: Readonly<Record<string, FragmentDefinitionNode>> },
  variableValues: Readonly<Record<string, unknown>>,
  ownership: Ownership,
): OwnedOperation | undefined {
  const queryType = schema.getQueryType();
  if (operation.operation !== 'query' || !queryType) return undefined;
  const planner = new SelectionPlanner({ schema, fragments, variableValues }, ownership);
  try {
    const root = planner.plan(queryType, [operation.selectionSet], true);
    return root && { operation, fragments, root };
  } catch (error) {
    // graphql-js's own error for a directive without a boolean `if`: graphql-js reports it at its path.
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
}

class SelectionPlanner {
  constructor(
    private readonly source: SelectionSource,
    private readonly ownership: Ownership,
  ) {}

  /** The plan of `selectionSets` on `type` (the query type when `isRoot`), or undefined when docjoin does not own all of it. */
  plan(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], isRoot = false): SelectionPlan | undefined {
    const collected = collectFields(this.source, type, selectionSets, 'responseKey', strictly);
    const storage = this.ownership.storageMap.types.get(type.name);
    if (!isRoot && !storage) return undefined;
    const fields: FieldPlan[] = [];
    for (const [responseKey, fieldNodes] of collected) {
      const fieldName = fieldNodes[0]!.name.value;
      if (fieldName === '__typename') {
        fields.push({ kind: 'typename', responseKey });
        continue;
      }
      if (fieldName.startsWith('__')) return undefined;
      const definition = type.getFields()[fieldName] as GraphQLField<unknown, unknown> | undefined;
      if (!definition) return undefined;
      const resolve = definition.resolve as AnyResolver | undefined;
      const selected: SelectedField = { responseKey, fieldName, parentType: type, definition, type: definition.type, fieldNodes };
      const target = getNamedType(definition.type);
      if (isRoot) {
        if (!resolve || !this.ownership.rootResolvers.has(resolve) || !isObjectType(target)) return undefined;
        const child = this.#child(target, fieldNodes);
        if (!child) return undefined;
        fields.push({ ...selected, kind: 'relation', resolve, child });
        continue;
      }
      const stored = storage?.fields.get(fieldName);
      if (!stored || (resolve && !this.ownership.fieldResolvers.has(resolve))) return undefined;
      if (stored.kind === 'relation') {
        if (!resolve || stored.connection || !isObjectType(target)) return undefined;
        const child = this.#child(target, fieldNodes);
        if (!child) return undefined;
        fields.push({ ...selected, kind: 'relation', resolve, child });
      } else {
        if (!isLeafType(target)) return undefined;
        fields.push(resolve ? { ...selected, kind: 'resolved', resolve } : { ...selected, kind: 'stored' });
      }
    }
    return { type, fields };
  }

  #child(type: GraphQLObjectType, fieldNodes: readonly FieldNode[]): SelectionPlan | undefined {
    // A hand-written isTypeOf would check each object: graphql-js runs it. (plan() refuses a type without storage.)
    if (type.isTypeOf) return undefined;
    return this.plan(type, subSelections(fieldNodes));
  }
}

/** Execution's rule: a directive without a boolean `if` throws, and the operation is not owned. */
const strictly: InclusionRule = (source, node) => isIncludedStrictly(source.variableValues, node);
