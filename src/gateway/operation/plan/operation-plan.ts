import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { selectionDepth } from './selection-depth';
import { planOwnedOperation, type OwnedOperation, type Ownership } from './owned-plan';
import { buildSelectionTree, TooLargeToPlan, type SelectionStep } from './selection-tree';

export type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/**
 * What docjoin decides once per operation and shape, before any request of it runs: the operation and
 * its fragments, its selections collected once per object type (the tree the estimate, explain and the
 * executor read), how deeply it nests (the depth limit reads it), and the tree docjoin runs it from when
 * it owns it end to end. Made by OperationPlanner, cached.
 */
export interface OperationPlan {
  readonly operation: OperationDefinitionNode;
  readonly fragments: Fragments;
  /** The root type's selection (plan/selection-tree.ts); undefined when the operation is too large to plan (`refusal` says so) or the schema lacks its root type. */
  readonly root: SelectionStep | undefined;
  /** Nested selection sets: `{ books { publisher { name } } }` is 2 (skipped selections and introspection don't count). */
  readonly depth: number;
  /** The tree docjoin runs the operation from (owned-plan.ts); undefined when graphql-js runs it. */
  readonly owned: OwnedOperation | undefined;
  /** Why graphql-js runs it (the first part docjoin does not run itself); undefined when docjoin does. */
  readonly refusal: string | undefined;
}

/**
 * The plan of `operation` for the values of the variables it was planned with (coerced: the directives
 * read them). Without `ownership` (what docjoin resolves itself), nothing is owned.
 */
export function buildOperationPlan(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variableValues: Readonly<Record<string, unknown>>, ownership?: Ownership): OperationPlan {
  return planOperation(schema, operation, fragmentsOf(document), variableValues, ownership);
}

/** buildOperationPlan with the document's fragments already gathered (a resolver's `info.fragments`). */
export function planOperation(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments, variableValues: Readonly<Record<string, unknown>>, ownership?: Ownership): OperationPlan {
  const source = { schema, fragments, variableValues };
  const rootType = schema.getRootType(operation.operation);
  // Validation refuses such a document before any plan is made; a plan of it anyway reads nothing.
  if (!rootType) return { operation, fragments, root: undefined, depth: 0, owned: undefined, refusal: `the schema has no ${operation.operation} type` };
  let tree;
  try {
    tree = buildSelectionTree(source, rootType, operation.selectionSet);
  } catch (error) {
    if (!(error instanceof TooLargeToPlan)) throw error;
    // Its estimate saturates (every limit rejects it); the depth is still measured, on the document.
    return { operation, fragments, root: undefined, depth: selectionDepth(source, operation.selectionSet), owned: undefined, refusal: `too large to plan: ${error.message}` };
  }
  const planning = ownership ? planOwnedOperation({ operation, fragments }, tree, ownership) : { refusal: 'nothing is owned without the gateway' };
  return { operation, fragments, root: tree.root, depth: tree.depth, owned: planning.owned, refusal: planning.refusal };
}

/** The document's fragments by name. */
export function fragmentsOf(document: DocumentNode): Fragments {
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null) as Record<string, FragmentDefinitionNode>;
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return fragments;
}
