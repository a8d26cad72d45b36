import {
  defaultFieldResolver,
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
import type { FieldStep, SelectionStep, SelectionTree } from './selection-tree';
import { readsUnderItsName, type StorageMap } from '../../startup/storage-map/storage-map-types';

export type AnyResolver = GraphQLFieldResolver<unknown, unknown, unknown>;

/** What decides whether docjoin owns a selection: its storage map and the resolvers it built itself. */
export interface Ownership {
  readonly storageMap: StorageMap;
  /** Each field's resolver as the schema was built, before Apollo may wrap it in place (fields without one are absent). */
  readonly builtResolvers: ReadonlyMap<GraphQLField<unknown, unknown>, AnyResolver>;
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
  /** Whether some root field's resolver is hand-written (compiled-execution.ts runs those only when asked). */
  readonly handWrittenRoots: boolean;
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
  /** The selection tree's step it was planned from (explain --plan reads its figures by it). */
  readonly step: FieldStep;
}

/** A scalar or enum read from the document under the field's own name (graphql's default resolver). */
export interface StoredLeaf extends SelectedField {
  readonly kind: 'stored';
}

/**
 * A scalar or enum a resolver answers: docjoin's (an id as hex, a value at another stored path, a
 * counter), a root field's, or graphql-js's default resolver on an object a hand-written root resolver
 * returned (which may hold a method, a promise or a getter where a document holds a value).
 */
export interface ResolvedLeaf extends SelectedField {
  readonly kind: 'resolved';
  readonly resolve: AnyResolver;
  /** Its resolver is not docjoin's: a list it answers may hold promises, which graphql-js awaits item by item. */
  readonly handWritten: boolean;
}

/** A relation (or a root field): its resolver per parent, then its documents' own selection. */
export interface RelationPlan extends SelectedField {
  readonly kind: 'relation';
  readonly resolve: AnyResolver;
  /** Its resolver is not docjoin's: a list it answers may hold promises, which graphql-js awaits item by item. */
  readonly handWritten: boolean;
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
    const root = ownedSelection(tree.root, ownership, 'root');
    const handWrittenRoots = root.fields.some((field) => field.kind !== 'typename' && field.kind !== 'stored' && field.handWritten);
    return { owned: { operation, fragments, root, handWrittenRoots } };
  } catch (error) {
    if (error instanceof NotOwned) return { refusal: error.message };
    throw error;
  }
}

/** Thrown at the first part of the operation docjoin does not run itself. */
class NotOwned extends Error {}

/**
 * The owned executor builds each response object as a plain `{}`, where assigning `__proto__` sets
 * the prototype instead of a field; graphql-js builds them without a prototype, so an operation
 * answering a `__proto__` key is left to it.
 */
function refuseProtoKey(step: FieldStep): FieldStep {
  if (step.responseKey === '__proto__') throw new NotOwned(`${step.coordinate}: the response key __proto__`);
  return step;
}

/**
 * What a selection's objects are: the root value, objects a hand-written root resolver returned,
 * documents docjoin read (whose stored fields are plain values under the field's name), or the values
 * docjoin built from an aggregate's reply (plain objects and values under the field's name too).
 */
type Objects = 'root' | 'hand-written' | 'documents' | 'values';

/** The owned plan of one selection; throws NotOwned where docjoin does not own it. */
function ownedSelection(selection: SelectionStep, ownership: Ownership, objects: Objects): SelectionPlan {
  const { type } = selection;
  if (objects === 'values') return ownedValues(selection, ownership);
  const storage = ownership.storageMap.types.get(type.name);
  if (objects !== 'root' && !storage) throw new NotOwned(`${type.name}: a type without storage`);
  const fields: FieldPlan[] = [];
  for (const step of selection.fields) {
    const { responseKey, fieldName, coordinate } = refuseProtoKey(step);
    if (fieldName === '__typename') {
      fields.push({ kind: 'typename', responseKey });
      continue;
    }
    if (fieldName.startsWith('__')) throw new NotOwned(`${fieldName}: introspection`);
    const { selected, resolve } = selectedField(step, type, ownership);
    const { definition } = selected;
    if (objects === 'root') {
      if (!resolve) throw new NotOwned(`${coordinate}: a root field without a resolver`);
      const handWritten = !ownership.rootResolvers.has(resolve);
      const below = handWritten ? 'hand-written' : ownership.storageMap.aggregates.has(coordinate) ? 'values' : 'documents';
      fields.push(isLeafType(getNamedType(definition.type)) ? { ...selected, kind: 'resolved', resolve, handWritten } : { ...selected, kind: 'relation', resolve, handWritten, child: ownedChild(step, ownership, below) });
      continue;
    }
    if (ownership.storageMap.aggregates.has(coordinate)) {
      if (!resolve || !ownership.fieldResolvers.has(resolve)) throw new NotOwned(`${coordinate}: an aggregate without docjoin's resolver`);
      fields.push({ ...selected, kind: 'relation', resolve, handWritten: false, child: ownedChild(step, ownership, 'values') });
      continue;
    }
    const stored = storage?.fields.get(fieldName);
    if (!stored) throw new NotOwned(`${coordinate}: a field without storage`);
    if (resolve && !ownership.fieldResolvers.has(resolve)) throw new NotOwned(`${coordinate}: a hand-written resolver`);
    if (stored.kind === 'relation') {
      if (!resolve) throw new NotOwned(`${coordinate}: a relation without docjoin's resolver`);
      if (stored.connection) throw new NotOwned(`${coordinate}: a connection`);
      fields.push({ ...selected, kind: 'relation', resolve, handWritten: false, child: ownedChild(step, ownership, 'documents') });
    } else {
      if (!isLeafType(getNamedType(definition.type))) throw new NotOwned(`${coordinate}: an object stored in place`);
      // docjoin's resolver of a stored list under its name only counts it for graphql-js: read here, it is counted as stored.
      if (resolve && !(stored.kind === 'stored' && stored.valueType.isList && readsUnderItsName(stored))) fields.push({ ...selected, kind: 'resolved', resolve, handWritten: false });
      // graphql-js's default resolver calls a method and awaits a promise; a document holds neither.
      else if (objects === 'hand-written') fields.push({ ...selected, kind: 'resolved', resolve: defaultFieldResolver as AnyResolver, handWritten: true });
      else fields.push({ ...selected, kind: 'stored' });
    }
  }
  return { type, fields };
}

/**
 * The owned plan of a selection on values docjoin built (an aggregate's figures, groups and keys): a
 * leaf is read under its name, an object through graphql-js's default resolver (a plain property), and
 * a field with a resolver (`groupBy`) through docjoin's.
 */
function ownedValues(selection: SelectionStep, ownership: Ownership): SelectionPlan {
  const { type } = selection;
  const fields: FieldPlan[] = [];
  for (const step of selection.fields) {
    refuseProtoKey(step);
    if (step.fieldName === '__typename') {
      fields.push({ kind: 'typename', responseKey: step.responseKey });
      continue;
    }
    const { selected, resolve } = selectedField(step, type, ownership);
    const { definition } = selected;
    if (resolve && !ownership.fieldResolvers.has(resolve)) throw new NotOwned(`${step.coordinate}: a hand-written resolver`);
    if (isLeafType(getNamedType(definition.type))) fields.push(resolve ? { ...selected, kind: 'resolved', resolve, handWritten: false } : { ...selected, kind: 'stored' });
    else fields.push({ ...selected, kind: 'relation', resolve: resolve ?? (defaultFieldResolver as AnyResolver), handWritten: false, child: ownedChild(step, ownership, 'values') });
  }
  return { type, fields };
}

/** A schema field's step as a plan field, with its resolver as the schema was built (none: graphql-js's default). */
function selectedField(step: FieldStep, type: GraphQLObjectType, ownership: Ownership): { readonly selected: SelectedField; readonly resolve: AnyResolver | undefined } {
  const { responseKey, fieldName, coordinate, definition, fieldNodes } = step;
  if (!definition) throw new NotOwned(`${coordinate}: not in the schema`);
  return { selected: { responseKey, fieldName, parentType: type, definition, type: definition.type, fieldNodes, step }, resolve: ownership.builtResolvers.get(definition) };
}

function ownedChild(step: FieldStep, ownership: Ownership, objects: Objects): SelectionPlan {
  const type = getNamedType(step.definition!.type);
  if (!isObjectType(type)) throw new NotOwned(`${step.coordinate}: ${isAbstractType(type) ? 'an abstract type' : 'not an object type'}`);
  // A hand-written isTypeOf would check each object: graphql-js runs it.
  if (type.isTypeOf) throw new NotOwned(`${type.name}: a hand-written isTypeOf`);
  return ownedSelection(step.children[0]!, ownership, objects);
}
