import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isObjectType,
  OperationTypeNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { StrategyOverrides } from '../../gateway/context/strategy-overrides';
import { collectResponseFields, collectRootFields } from '../../gateway/estimate/collect-response-fields';
import { estimateOperation, type CostEstimate } from '../../gateway/estimate/estimate-operation';
import { fragmentsOf } from '../../gateway/plan/operation-plan';
import type { SelectionSource } from '../../gateway/planning/collect-selection';
import { declaredStrategies, type ReadStrategy, type RelationField, type StorageMap } from '../../gateway/storage-map/storage-map-types';
import type { WriteUnitEstimate } from '../../gateway/writes/estimate-write-unit';

/** One `Type.field` of the operation that costs (or could cost) MongoDB round trips. */
export type FieldPlanRow =
  | {
      readonly kind: 'root';
      readonly coordinate: string;
      /** Nesting of its first appearance (0 for root fields). */
      readonly depth: 0;
      /** Round trips this field itself adds to the estimate (its subfields are their own rows). */
      readonly estimatedRoundTrips: number;
      /** A mutation field: the estimate of one attempt of its write unit, and how many times the operation runs it (aliases). */
      readonly writes?: { readonly estimate: WriteUnitEstimate; readonly times: number };
    }
  | {
      readonly kind: 'relation';
      readonly coordinate: string;
      readonly depth: number;
      readonly strategy: ReadStrategy;
      /** Chosen by --strategy rather than the schema's @read. */
      readonly overridden: boolean;
      readonly estimatedRoundTrips: number;
      /** For every other strategy the field declares: the whole operation's estimate with this field switched to it. */
      readonly alternatives: readonly { readonly strategy: ReadStrategy; readonly roundTrips: number }[];
    };

export interface OperationPlan {
  readonly operationType: OperationDefinitionNode['operation'];
  readonly operationName: string | undefined;
  readonly estimate: CostEstimate;
  readonly rows: readonly FieldPlanRow[];
}

export interface PlanInput {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** Coerced variable values (graphql's getVariableValues). */
  readonly variableValues: Readonly<Record<string, unknown>>;
  readonly overrides: StrategyOverrides;
  /** Entries assumed in a list nothing bounds (DOCJOIN_ASSUMED_LIST_SIZE); default the estimate's own, 20. */
  readonly assumedListSize?: number;
  /** Mutations: the write estimate of each Mutation field (writes/write-runtime.ts, buildWriteEstimates). */
  writeEstimate?(mutationField: string): WriteUnitEstimate | undefined;
}

/**
 * The plan `docjoin explain` prints, from the static estimator alone (nothing is sent to MongoDB):
 * the operation's estimate, and per field its strategy, the round trips it adds, and the operation's
 * estimate under each alternative strategy the field declares.
 *
 * The estimator answers for whole operations, so per-field numbers are differences: "what the field
 * and everything below it add" is the estimate minus the estimate without that field, and a field's own
 * share subtracts the same for the fields right below it.
 */
export function planOperation(input: PlanInput): OperationPlan {
  const operationIndex = input.document.definitions.indexOf(input.operation);
  const estimate = (document: DocumentNode, overrides: StrategyOverrides): CostEstimate => {
    const operation = document.definitions[operationIndex] as OperationDefinitionNode;
    return estimateOperation({
      schema: input.schema,
      storageMap: input.storageMap,
      operation,
      fragments: fragmentsOf(document),
      variableValues: input.variableValues,
      strategyFor: (field: RelationField) => overrides.get(field.coordinate) ?? field.defaultStrategy,
      ...(input.assumedListSize !== undefined && { assumedListSize: input.assumedListSize }),
      ...(input.writeEstimate && { writeEstimate: input.writeEstimate }),
    });
  };
  const { heaviest: _heaviest, ...total } = estimate(input.document, input.overrides);
  const withSubfields = (coordinate: string): number =>
    Math.max(0, total.roundTrips - estimate(withoutField(input.schema, input.document, coordinate), input.overrides).roundTrips);

  const tree = collectFieldTree(input);
  const rows = tree.map((node): FieldPlanRow => {
    const below = tree.filter((other) => other.parent === node.coordinate).reduce((sum, child) => sum + withSubfields(child.coordinate), 0);
    const estimatedRoundTrips = Math.max(0, withSubfields(node.coordinate) - below);
    if (node.relation === undefined) {
      const writes = input.operation.operation === OperationTypeNode.MUTATION ? input.writeEstimate?.(node.coordinate.slice(node.coordinate.indexOf('.') + 1)) : undefined;
      return { kind: 'root', coordinate: node.coordinate, depth: 0, estimatedRoundTrips, ...(writes && { writes: { estimate: writes, times: node.times } }) };
    }
    const field = node.relation;
    const strategy = input.overrides.get(field.coordinate) ?? field.defaultStrategy;
    const alternatives = declaredStrategies(field)
      .filter((other) => other !== strategy)
      .map((other) => ({ strategy: other, roundTrips: estimate(input.document, new Map([...input.overrides, [field.coordinate, other]])).roundTrips }));
    return { kind: 'relation', coordinate: node.coordinate, depth: node.depth, strategy, overridden: input.overrides.has(field.coordinate), estimatedRoundTrips, alternatives };
  });
  return { operationType: input.operation.operation, operationName: input.operation.name?.value, estimate: total, rows };
}

interface FieldTreeNode {
  readonly coordinate: string;
  readonly depth: number;
  /** The row above it at its first appearance. */
  readonly parent: string | undefined;
  /** Undefined for root fields. */
  readonly relation: RelationField | undefined;
  /** Root fields: how many response keys select it (aliases each run it once). */
  times: number;
}

/** Root fields and relation fields in the order they first appear (depth first), each once. */
function collectFieldTree(input: PlanInput): FieldTreeNode[] {
  const source: SelectionSource = { schema: input.schema, fragments: fragmentsOf(input.document), variableValues: input.variableValues };
  const nodes = new Map<string, FieldTreeNode>();
  const objectTypes = (named: GraphQLNamedType): readonly GraphQLObjectType[] =>
    isObjectType(named) ? [named] : isAbstractType(named) ? input.schema.getPossibleTypes(named) : [];

  const walk = (types: readonly GraphQLObjectType[], fieldNodes: readonly FieldNode[], depth: number, parent: string | undefined): void => {
    for (const type of types) {
      for (const selected of collectResponseFields(source, type, fieldNodes).values()) {
        const name = selected[0]!.name.value;
        const definition = type.getFields()[name];
        if (!definition || !isCompositeType(getNamedType(definition.type))) continue;
        const coordinate = `${type.name}.${name}`;
        const relation = input.storageMap.relations.get(coordinate);
        if (relation && !nodes.has(coordinate)) nodes.set(coordinate, { coordinate, depth, parent, relation, times: 1 });
        walk(objectTypes(getNamedType(definition.type)), selected, depth + 1, relation ? coordinate : parent);
      }
    }
  };

  const rootType = input.schema.getRootType(input.operation.operation);
  if (rootType) {
    for (const selected of collectRootFields(source, rootType, input.operation.selectionSet).values()) {
      const name = selected[0]!.name.value;
      const definition = rootType.getFields()[name];
      if (!definition || name.startsWith('__')) continue;
      const coordinate = `${rootType.name}.${name}`;
      const seen = nodes.get(coordinate);
      if (seen) seen.times += 1;
      else nodes.set(coordinate, { coordinate, depth: 0, parent: undefined, relation: undefined, times: 1 });
      walk(objectTypes(getNamedType(definition.type)), selected, 1, coordinate);
    }
  }
  return [...nodes.values()];
}

/** The document with every selection of `coordinate` removed (in the operation and in fragments). */
function withoutField(schema: GraphQLSchema, document: DocumentNode, coordinate: string): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        return parent && `${parent.name}.${node.name.value}` === coordinate ? null : undefined;
      },
    }),
  );
}
