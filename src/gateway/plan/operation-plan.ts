import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { selectionDepth } from '../estimate/selection-depth';
import { planOwnedOperation, type OwnedOperation, type Ownership } from '../execution/owned-plan';

export type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/**
 * What docjoin decides once per operation and shape, before any request of it runs: the operation and
 * its fragments, how deeply it nests (the depth limit reads it), and the tree docjoin runs it from when
 * it owns it end to end. Made by OperationPlanner, cached, and read by the estimate and the executor.
 */
export interface OperationPlan {
  readonly operation: OperationDefinitionNode;
  readonly fragments: Fragments;
  /** Nested selection sets: `{ books { publisher { name } } }` is 2 (skipped selections and introspection don't count). */
  readonly depth: number;
  /** The tree docjoin runs the operation from (execution/owned-plan.ts); undefined when graphql-js runs it. */
  readonly owned: OwnedOperation | undefined;
  /** Why graphql-js runs it (the first part docjoin does not run itself); undefined when docjoin does. */
  readonly refusal: string | undefined;
}

/**
 * The plan of `operation` for the values of the variables it was planned with (coerced: the directives
 * read them). Without `ownership` (what docjoin resolves itself), nothing is owned.
 */
export function buildOperationPlan(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variableValues: Readonly<Record<string, unknown>>, ownership?: Ownership): OperationPlan {
  const fragments = fragmentsOf(document);
  const planning = ownership ? planOwnedOperation(schema, { operation, fragments }, variableValues, ownership) : { refusal: 'nothing is owned without the gateway' };
  return {
    operation,
    fragments,
    depth: selectionDepth({ schema, fragments, variableValues }, operation.selectionSet),
    owned: planning.owned,
    refusal: planning.refusal,
  };
}

/** The document's fragments by name. */
export function fragmentsOf(document: DocumentNode): Fragments {
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null) as Record<string, FragmentDefinitionNode>;
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return fragments;
}
