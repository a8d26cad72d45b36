import { getNamedType, isCompositeType, OperationTypeNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { type StrategyOverrides, estimateByField, type CostEstimate, type FieldStep, type StepFigures, type OperationPlan as GatewayOperationPlan, type SelectionStep, declaredStrategies, type ReadStrategy, type RelationField, type StorageMap, type WriteUnitEstimate } from '../../gateway';

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
      /** Why it sends nothing: the BAD_USER_INPUT its arguments get (StepFigures.rejected). */
      readonly rejected?: string;
    }
  | {
      readonly kind: 'relation';
      readonly coordinate: string;
      readonly depth: number;
      readonly strategy: ReadStrategy;
      /** Chosen by --strategy rather than the schema's @read. */
      readonly overridden: boolean;
      /** Read by join for the viewer's role: its access rules limit the rows its copies could not be checked against. */
      readonly joinedForAccess: boolean;
      readonly estimatedRoundTrips: number;
      /** For every other strategy the field declares: the whole operation's estimate with this field switched to it. */
      readonly alternatives: readonly { readonly strategy: ReadStrategy; readonly roundTrips: number }[];
    }
  | {
      /** An `@aggregate` field: its figures from one aggregate per level, or from the parent's `@counter` and `@total`s. */
      readonly kind: 'aggregate';
      readonly coordinate: string;
      readonly depth: number;
      readonly estimatedRoundTrips: number;
      /** How its first appearance is read (`aggregate on products: …`, or from its parent's counter and totals). */
      readonly read: string;
    };

export interface OperationPlan {
  readonly operationType: OperationDefinitionNode['operation'];
  readonly operationName: string | undefined;
  readonly estimate: CostEstimate;
  readonly rows: readonly FieldPlanRow[];
  /** Per step of the plan's tree, how it is read and what it adds (explain --plan prints them). */
  readonly steps: ReadonlyMap<FieldStep, StepFigures>;
}

export interface PlanInput {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  /** The operation's plan, as the server makes it (gateway/operation/plan/operation-plan.ts). */
  readonly plan: GatewayOperationPlan;
  /** Coerced variable values (graphql's getVariableValues). */
  readonly variableValues: Readonly<Record<string, unknown>>;
  readonly overrides: StrategyOverrides;
  /** Of `overrides`, the joins the viewer's role reads copies by (ViewerExplanation.joins): marked, with no other strategy. */
  readonly accessJoins?: StrategyOverrides;
  /** Entries assumed in a list nothing bounds (DOCJOIN_ASSUMED_LIST_SIZE); default the estimate's own, 20. */
  readonly assumedListSize?: number;
  /** Mutations: the write estimate of each Mutation field (writes/write-runtime.ts, buildWriteEstimates). */
  writeEstimate?(mutationField: string): WriteUnitEstimate | undefined;
  /** The viewer's (ViewerExplanation.readsEveryRow): a stored counter answers an aggregate only for a role reading every row. */
  readsEveryRow?(collection: string): boolean;
}

/**
 * What `docjoin explain` prints, read from the operation's plan alone (nothing is sent to MongoDB): the
 * operation's estimate; per field its strategy and the round trips it adds (its figure in the estimate,
 * where a batch several fields share counts for the first of them); and the operation's estimate under
 * each alternative strategy the field declares, from the what-ifs the estimate tallies in its one pass.
 */
export function planOperation(input: PlanInput): OperationPlan {
  const { plan } = input;
  const strategyOf = (field: RelationField): ReadStrategy => input.overrides.get(field.coordinate) ?? field.defaultStrategy;
  const { estimate: whole, byField, bySteps, alternatives: switched } = estimateByField({
    schema: input.schema,
    storageMap: input.storageMap,
    plan,
    variableValues: input.variableValues,
    strategyFor: strategyOf,
    whatIfs: true,
    ...(input.assumedListSize !== undefined && { assumedListSize: input.assumedListSize }),
    ...(input.writeEstimate && { writeEstimate: input.writeEstimate }),
    ...(input.readsEveryRow && { readsEveryRow: input.readsEveryRow }),
  });
  const { heaviest: _heaviest, ...total } = whole;
  const rows = (plan.root ? firstAppearances(plan.root, input.storageMap) : []).map((node): FieldPlanRow => {
    const estimatedRoundTrips = byField.get(node.coordinate)?.roundTrips ?? 0;
    if (node.aggregate) return { kind: 'aggregate', coordinate: node.coordinate, depth: node.depth, estimatedRoundTrips, read: readOfEvery(node.appearances, bySteps) };
    if (node.relation === undefined) {
      const writes = plan.operation.operation === OperationTypeNode.MUTATION ? input.writeEstimate?.(node.coordinate.slice(node.coordinate.indexOf('.') + 1)) : undefined;
      const rejected = bySteps.get(node.step)?.rejected;
      return { kind: 'root', coordinate: node.coordinate, depth: 0, estimatedRoundTrips, ...(rejected !== undefined && { rejected }), ...(writes && { writes: { estimate: writes, times: node.times } }) };
    }
    const field = node.relation;
    const strategy = strategyOf(field);
    const joinedForAccess = input.accessJoins?.has(field.coordinate) ?? false;
    // The role reads it by join whatever is asked: no other strategy is open to it.
    const alternatives = declaredStrategies(field)
      .filter((other) => other !== strategy && !joinedForAccess)
      .map((other) => ({ strategy: other, roundTrips: switched.get(field.coordinate)?.get(other) ?? total.roundTrips }));
    return { kind: 'relation', coordinate: node.coordinate, depth: node.depth, strategy, overridden: !joinedForAccess && input.overrides.has(field.coordinate), joinedForAccess, estimatedRoundTrips, alternatives };
  });
  return { operationType: plan.operation.operation, operationName: plan.operation.name?.value, estimate: total, rows, steps: bySteps };
}

interface FieldTreeNode {
  readonly coordinate: string;
  readonly depth: number;
  /** Undefined for root fields. */
  readonly relation: RelationField | undefined;
  /** Set for an `@aggregate` field, at the root or below it. */
  readonly aggregate: boolean;
  /** Its first appearance. */
  readonly step: FieldStep;
  /** Every appearance (aliases, other levels) of an aggregate field, by its response path (`posts.c`), whose row says how each is read. */
  readonly appearances: Array<{ readonly step: FieldStep; readonly at: string }>;
  /** Root fields: how many response keys select it (aliases each run it once). */
  times: number;
}

/** Root, relation and aggregate fields of the plan's tree in the order they first appear (depth first), each once. */
function firstAppearances(root: SelectionStep, storageMap: StorageMap): FieldTreeNode[] {
  const nodes = new Map<string, FieldTreeNode>();
  const walk = (selections: readonly SelectionStep[], depth: number, above: string): void => {
    for (const selection of selections) {
      for (const step of selection.fields) {
        if (!step.definition || !isCompositeType(getNamedType(step.definition.type))) continue;
        const relation = storageMap.relations.get(step.coordinate);
        const aggregate = storageMap.aggregates.has(step.coordinate);
        const at = `${above}.${step.responseKey}`;
        const seen = nodes.get(step.coordinate);
        if (seen?.aggregate) seen.appearances.push({ step, at });
        else if ((relation || aggregate) && !seen) nodes.set(step.coordinate, { coordinate: step.coordinate, depth, relation, aggregate, step, appearances: [{ step, at }], times: 1 });
        if (!aggregate) walk(step.children, depth + 1, at);
      }
    }
  };
  for (const step of root.fields) {
    if (!step.definition) continue;
    const seen = nodes.get(step.coordinate);
    const at = step.responseKey;
    if (seen) {
      seen.times += 1;
      if (seen.aggregate) seen.appearances.push({ step, at });
    } else nodes.set(step.coordinate, { coordinate: step.coordinate, depth: 0, relation: undefined, aggregate: storageMap.aggregates.has(step.coordinate), step, appearances: [{ step, at }], times: 1 });
    walk(step.children, 1, at);
  }
  return [...nodes.values()];
}

/**
 * How an aggregate field is read: the one way all its appearances share, or each one's way, by its
 * response path, when they differ (`posts.c` from the parent's counter, `posts.m` by an aggregate command).
 */
function readOfEvery(appearances: FieldTreeNode['appearances'], bySteps: ReadonlyMap<FieldStep, { readonly read?: string }>): string {
  const reads = appearances.map(({ step, at }) => ({ at, read: bySteps.get(step)?.read ?? 'nothing' }));
  if (new Set(reads.map(({ read }) => read)).size === 1) return reads[0]!.read;
  return [...new Set(reads.map(({ at, read }) => `${at}: ${read}`))].join('; ');
}
