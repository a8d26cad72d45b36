import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  Kind,
  type DocumentNode,
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
 * The plan of a query docjoin owns end to end; undefined when some part of it is not docjoin's to run:
 * a root field without a generated resolver, a hand-written resolver (or isTypeOf) below, a connection,
 * an abstract type, `@skip` / `@include`, introspection, or a mutation or subscription. Those run on
 * graphql-jit.
 */
export function planOwnedOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | null, ownership: Ownership): OwnedOperation | undefined {
  const operation = findOperation(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || !queryType) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null) as Record<string, FragmentDefinitionNode>;
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const planner = new SelectionPlanner(schema, fragments, ownership);
  const root = planner.plan(queryType, [operation.selectionSet], true);
  return root && { operation, fragments, root };
}

function findOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  if (operationName === null) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}

class SelectionPlanner {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>,
    private readonly ownership: Ownership,
  ) {}

  /** The plan of `selectionSets` on `type` (the query type when `isRoot`), or undefined when docjoin does not own all of it. */
  plan(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], isRoot = false): SelectionPlan | undefined {
    const collected = this.collect(type, selectionSets, new Map(), new Set());
    const storage = this.ownership.storageMap.types.get(type.name);
    if (!collected || (!isRoot && !storage)) return undefined;
    const fields: FieldPlan[] = [];
    for (const [responseKey, fieldNodes] of collected) {
      const fieldName = fieldNodes[0]!.name.value;
      if (fieldName === '__typename') {
        fields.push({ kind: 'typename', responseKey });
        continue;
      }
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
    // A hand-written isTypeOf would check each object: graphql-jit runs it. (plan() refuses a type without storage.)
    if (type.isTypeOf) return undefined;
    return this.plan(
      type,
      fieldNodes.flatMap((fieldNode) => (fieldNode.selectionSet ? [fieldNode.selectionSet] : [])),
    );
  }

  /** The fields of `selectionSets` on `type`, by response key in response order, fragments merged; undefined on a directive. */
  private collect(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], into: Map<string, FieldNode[]>, visited: Set<string>): Map<string, FieldNode[]> | undefined {
    for (const selectionSet of selectionSets) {
      for (const selection of selectionSet.selections) {
        if (selection.directives && selection.directives.length > 0) return undefined;
        switch (selection.kind) {
          case Kind.FIELD: {
            const key = selection.alias?.value ?? selection.name.value;
            if (selection.name.value.startsWith('__') && selection.name.value !== '__typename') return undefined;
            const nodes = into.get(key);
            if (nodes) nodes.push(selection);
            else into.set(key, [selection]);
            break;
          }
          case Kind.INLINE_FRAGMENT:
            if (selection.typeCondition && !this.applies(selection.typeCondition.name.value, type)) break;
            if (!this.collect(type, [selection.selectionSet], into, visited)) return undefined;
            break;
          case Kind.FRAGMENT_SPREAD: {
            const name = selection.name.value;
            if (visited.has(name)) break;
            visited.add(name);
            const fragment = this.fragments[name];
            if (!fragment) return undefined;
            if (!this.applies(fragment.typeCondition.name.value, type)) break;
            if (!this.collect(type, [fragment.selectionSet], into, visited)) return undefined;
            break;
          }
        }
      }
    }
    return into;
  }

  private applies(conditionName: string, type: GraphQLObjectType): boolean {
    const condition = this.schema.getType(conditionName);
    if (condition === type) return true;
    return condition !== undefined && isAbstractType(condition) && this.schema.isSubType(condition, type);
  }
}
