import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type OperationDefinitionNode,
} from 'graphql';
import type { FieldStep, SelectionStep, SelectionTree } from '../plan/selection-tree';
import type { StorageMap } from '../storage-map/storage-map-types';

export type AnyResolver = GraphQLFieldResolver<unknown, unknown, unknown>;

/** What decides whether docjoin owns a selection: its storage map and the resolvers it built itself. */
export interface Ownership {
  readonly storageMap: StorageMap;
  /** The resolvers docjoin built for relation, stored and counter fields (a hand-written one replaces its field's). */
  readonly fieldResolvers: ReadonlySet<AnyResolver>;
  /** The generated root resolvers (`@find`, `@list`, `@create`, `@update`, `@delete`); the others are hand-written. */
  readonly rootResolvers: ReadonlySet<AnyResolver>;
}

/** A query or mutation docjoin owns end to end: the tree its operation plan (plan/operation-plan.ts) runs it from. */
export interface OwnedOperation {
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** The root fields, each with its resolver (a relation, or a leaf such as a deleted id). */
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
 * The tree of a query or mutation docjoin owns end to end, read from the operation's selection tree; a
 * refusal when some part of it is not docjoin's to run: a root field without a resolver, a hand-written
 * resolver (or isTypeOf) below the root, a connection, an abstract type, introspection, a directive
 * whose `if` has no boolean value, or a subscription. Those run on graphql-js. A root field's resolver
 * may be generated or hand-written: docjoin calls it as graphql-js does.
 */
export function planOwnedOperation(
  { operation, fragments }: { readonly operation: OperationDefinitionNode; readonly fragments: Readonly<Record<string, FragmentDefinitionNode>> },
  tree: SelectionTree,
  ownership: Ownership,
): OwnedPlanning {
  if (operation.operation === 'subscription') return { refusal: 'a subscription' };
  // graphql-js reports the error at its selection set's path.
  if (tree.directiveError !== undefined) return { refusal: `@skip / @include without a boolean value (${tree.directiveError})` };
  try {
    return { owned: { operation, fragments, root: ownedSelection(tree.root, ownership, true) } };
  } catch (error) {
    if (error instanceof NotOwned) return { refusal: error.message };
    throw error;
  }
}

/** Thrown at the first part of the operation docjoin does not run itself. */
class NotOwned extends Error {}

/** The owned plan of one selection (the query type's when `isRoot`); throws NotOwned where docjoin does not own it. */
function ownedSelection(selection: SelectionStep, ownership: Ownership, isRoot = false): SelectionPlan {
  const { type } = selection;
  const storage = ownership.storageMap.types.get(type.name);
  if (!isRoot && !storage) throw new NotOwned(`${type.name}: a type without storage`);
  const fields: FieldPlan[] = [];
  for (const step of selection.fields) {
    const { responseKey, fieldName, coordinate, definition, fieldNodes } = step;
    if (fieldName === '__typename') {
      fields.push({ kind: 'typename', responseKey });
      continue;
    }
    if (fieldName.startsWith('__')) throw new NotOwned(`${fieldName}: introspection`);
    if (!definition) throw new NotOwned(`${coordinate}: not in the schema`);
    const resolve = definition.resolve as AnyResolver | undefined;
    const selected: SelectedField = { responseKey, fieldName, parentType: type, definition, type: definition.type, fieldNodes };
    if (isRoot) {
      if (!resolve) throw new NotOwned(`${coordinate}: a root field without a resolver`);
      fields.push(isLeafType(getNamedType(definition.type)) ? { ...selected, kind: 'resolved', resolve } : { ...selected, kind: 'relation', resolve, child: ownedChild(step, ownership) });
      continue;
    }
    const stored = storage?.fields.get(fieldName);
    if (!stored) throw new NotOwned(`${coordinate}: a field without storage`);
    if (resolve && !ownership.fieldResolvers.has(resolve)) throw new NotOwned(`${coordinate}: a hand-written resolver`);
    if (stored.kind === 'relation') {
      if (!resolve) throw new NotOwned(`${coordinate}: a relation without docjoin's resolver`);
      if (stored.connection) throw new NotOwned(`${coordinate}: a connection`);
      fields.push({ ...selected, kind: 'relation', resolve, child: ownedChild(step, ownership) });
    } else {
      if (!isLeafType(getNamedType(definition.type))) throw new NotOwned(`${coordinate}: an object stored in place`);
      fields.push(resolve ? { ...selected, kind: 'resolved', resolve } : { ...selected, kind: 'stored' });
    }
  }
  return { type, fields };
}

function ownedChild(step: FieldStep, ownership: Ownership): SelectionPlan {
  const type = getNamedType(step.definition!.type);
  if (!isObjectType(type)) throw new NotOwned(`${step.coordinate}: ${isAbstractType(type) ? 'an abstract type' : 'not an object type'}`);
  // A hand-written isTypeOf would check each object: graphql-js runs it.
  if (type.isTypeOf) throw new NotOwned(`${type.name}: a hand-written isTypeOf`);
  return ownedSelection(step.children[0]!, ownership);
}
