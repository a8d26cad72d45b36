import { getNamedType, GraphQLError, type FieldNode, type GraphQLOutputType, type GraphQLResolveInfo, type OperationTypeNode } from 'graphql';
import { CostLedger } from '../cost/cost-ledger';
import { LoaderRegistry } from '../loaders/loader-registry';
import type { OperationDeadline } from '../../operation/limits/operation-deadline';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import { PublicErrorCode } from '../../errors/public-error-code';
import type { OperationPlan } from '../../operation/plan/operation-plan';
import { buildFieldStep, connectionSteps, selectedFieldNamesOf, TooLargeToPlan, type ConnectionSteps, type FieldStep } from '../../operation/plan/selection-tree';
import { planStepOf } from '../../operation/plan/step-index';
import { selectionReadsVariables, stepReadsVariables } from '../../operation/plan/step-variables';
import { joinsById } from '../../operation/planning/joins-by-id';
import { planLookup, type PlannedLookup } from '../../operation/planning/lookup-read';
import { planProjection, snapshotMissingFields, snapshotSelectedFields, type PlanningContext } from '../../operation/planning/plan-projection';
import type { Projection } from '../../operation/planning/projection';
import { planReverseJoinPage, type ReverseJoinPage } from '../../operation/planning/reverse-join-page';
import { copiedFieldsRead, fieldNamesRead, uncopiedFields, type RequestedList } from '../../operation/planning/requested-list';
import type { PageArgs } from '../../operation/planning/page-request';
import type { AggregateField, JoinShape, ReadStrategy, RelationField, SnapshotShape, StorageMap } from '../../startup/storage-map/storage-map-types';
import { planAggregateRequest, type AggregateRequest } from '../../operation/planning/aggregate-request';
import type { RequestWrites } from '../../writes/request-writes';
import type { WriteRuntime } from '../../writes/write-runtime';
import { DocumentsApi, type DocumentsReads } from './documents-api';
import type { Viewer } from '../authentication/authenticate';
import { budgetClient } from '../../operation/limits/client-budgets';
import type { ViewerAccess } from '../access/viewer-access';
import type { StrategyOverrides } from '../../operation/plan/strategy-overrides';
import { responseObjects, ResponseSizeGuard } from '../../operation/limits/response-size-guard';
import { leastEntryBytes, leastItemBytes, listedEntries } from '../../operation/plan/response-bytes';

/**
 * Everything one GraphQL request needs, built once per request and never shared: its loaders, its cost
 * ledger, the funnel to MongoDB, the strategies it reads with and its write side. Also the context type
 * of the generated resolver types (codegen.yml).
 */
export interface GatewayContext extends DocumentsReads {
  readonly requestId: number;
  /** Who sent the request (the anonymous viewer when no credentials came with it). */
  readonly viewer: Viewer;
  /** What the viewer's role may read and write; undefined when the schema has no `@access` rule. */
  readonly access: ViewerAccess | undefined;
  /** Whose cost budget the request spends: `subject:<sub>` for a viewer with a subject, else `address:<ip>`. */
  readonly client: string;
  /**
   * Runs `task` once the response is written, off the request's latency: over docjoin's HTTP server,
   * right after it writes the answer (after a 504 at the deadline's overrun, once the operation's work
   * ends); anywhere else (execute, your own Apollo Server), at once.
   */
  afterAnswer(task: AfterAnswerTask): void;
  readonly overrides: StrategyOverrides;
  /** Root-field API for hand-written resolvers (projection pushdown + loader priming). */
  readonly documents: DocumentsApi;
  /** The request's write side: each mutation resolver runs its write unit through `writes.run`. */
  readonly writes: RequestWrites;
  strategyFor(field: RelationField): ReadStrategy;
  /**
   * Whether `docjoin migrate` is backfilling the derived copy `coordinate` (a bounded array or a counter,
   * its marker in docjoin_migrations, copy-backfills.ts): its stored values are not yet to be trusted.
   */
  copyBackfilling(coordinate: string): boolean;
  /**
   * The page of `field`'s reverse join that `args` ask for (planReverseJoinPage), memoized per field
   * and `info.fieldNodes`, whose arguments `args` are: every parent of a level asks for the same page.
   */
  reverseJoinPage(info: GraphQLResolveInfo, field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): ReverseJoinPage;
  /** How the field `info` resolves is read by lookup (planLookup, memoized like reverseJoinPage); undefined: it is joined. */
  lookupFor(info: GraphQLResolveInfo, field: RelationField, args: PageArgs & Readonly<Record<string, unknown>>): PlannedLookup | undefined;
  /**
   * The fields that the selection under a snapshot field, and the filters and order it asks for
   * (`requested`), need of its copy but the copy lacks, sorted and without repeats; empty when the copy
   * serves it (memoized: the arguments, like the selection, are those of `info.fieldNodes`).
   */
  snapshotMissingFields(info: GraphQLResolveInfo, shape: SnapshotShape, targetType: string, requested: RequestedList): readonly string[];
  /**
   * The snapshot's fields that the selection and `requested` read from each copy, sorted and without
   * repeats: a copy lacking one (written before the field joined the snapshot) is joined instead
   * (memoized like snapshotMissingFields).
   */
  snapshotCopiedFields(info: GraphQLResolveInfo, shape: SnapshotShape, targetType: string, requested: RequestedList): readonly string[];
  /**
   * The target fields a join read's selection and `requested` read, sorted and without repeats: what
   * a snapshot would have to copy to serve it (memoized like snapshotMissingFields; workload capture).
   */
  selectedFields(info: GraphQLResolveInfo, targetType: string, requested: RequestedList): readonly string[];
  /** What an `@aggregate` field's selection and `args` ask MongoDB for (memoized like snapshotMissingFields). */
  aggregateRequest(info: GraphQLResolveInfo, aggregate: AggregateField, args: Readonly<Record<string, unknown>>): AggregateRequest;
  /**
   * Counts what one parent's `value` of the field `info` resolves (a list of documents, one, a
   * connection, or null) puts in the response, at the fewest bytes each object takes; once the response
   * can no longer fit maxResponseBytes, throws RESPONSE_TOO_LARGE, and stops a query (response-size-guard.ts).
   */
  countResponse(info: GraphQLResolveInfo, value: unknown): void;
  /** Likewise one `list` of leaves of type `type` (a stored scalar list) in the response of an `operation`. */
  countResponseList(type: GraphQLOutputType, list: readonly unknown[], operation: OperationTypeNode): void;
}

/** Where a request's resolvers find its operation's plan (operation/plan/operation-planner.ts), by the request's ledger. */
export interface PlanSource {
  planOf(info: Pick<GraphQLResolveInfo, 'operation' | 'fragments' | 'variableValues'>, ledger: object): OperationPlan;
}

let nextRequestId = 0;

/**
 * A task run once the response is written. `answeredWith` is the code of the error the HTTP server
 * answered with in place of the operation's own answer (RESPONSE_TOO_LARGE for one too long to send,
 * OPERATION_TIMEOUT for a 504 at the deadline's overrun); undefined when the client got the operation's answer.
 */
export type AfterAnswerTask = (answeredWith?: string) => void;

const runAtOnce = (task: AfterAnswerTask): void => task();

/**
 * `writes`: the gateway's write runtime, which gives the request its write side on this request's
 * ledger; `plans`: where resolvers find the plan of the operation they run in.
 */
export function createRequestContext(options: {
  storageMap: StorageMap;
  funnel: MongoFunnel;
  overrides: StrategyOverrides;
  writes: WriteRuntime;
  deadline: OperationDeadline;
  plans: PlanSource;
  viewer: Viewer;
  /** Undefined when the schema has no access rules. */
  access: ViewerAccess | undefined;
  /** The address the request came from, when it came over a network. */
  clientAddress?: string;
  /** Where tasks wait for the answer to be written (GatewayContext.afterAnswer); default: they run at once. */
  afterAnswer?: (task: AfterAnswerTask) => void;
  copyBackfilling?: (coordinate: string) => boolean;
  /** Under access rules, what ordering or filtering `typeName` documents by `path` would show the viewer that it may not see (operation-access.ts comparisonRefusal). */
  comparisonRefusal?: (access: ViewerAccess, typeName: string, path: string) => string | undefined;
  /** The largest response the operation may build (GatewayOptions.maxResponseBytes); default: no limit. */
  maxResponseBytes?: number;
}): GatewayContext {
  const { storageMap, funnel, overrides, deadline, plans, access } = options;
  const ledger = new CostLedger();
  const loaders = new LoaderRegistry(funnel, { ledger, deadline, ...(access && { readScope: access }) });
  const strategyFor = (field: RelationField): ReadStrategy => overrides.get(field.coordinate) ?? field.defaultStrategy;
  // The operation being executed, its plan, and its fields' reads by their nodes (graphql-js reuses one
  // fieldNodes array for every item of a list, so each field's step is found once per level, not per
  // item). Another operation, or other variables, on this context start afresh.
  let execution: { readonly operation: unknown; readonly variables: unknown; readonly plan: OperationPlan; readonly fields: WeakMap<readonly FieldNode[], FieldReads> } | undefined;
  const readsOf = (info: GraphQLResolveInfo): FieldReads => {
    if (execution?.operation !== info.operation || execution.variables !== info.variableValues) {
      execution = { operation: info.operation, variables: info.variableValues, plan: plans.planOf(info, ledger), fields: new WeakMap() };
    }
    let reads = execution.fields.get(info.fieldNodes);
    if (!reads) {
      const planning: PlanningContext = { schema: info.schema, fragments: info.fragments, variableValues: info.variableValues, storageMap, strategyFor, ...(access && { canRead: (typeName: string) => access.canRead(typeName) }) };
      const step = planStepOf(execution.plan, info.parentType, info.fieldNodes) ?? fieldStepOutsidePlan(planning, info);
      execution.fields.set(info.fieldNodes, (reads = new FieldReads(planning, step, access?.role)));
    }
    return reads;
  };
  const projectionFor = (info: GraphQLResolveInfo, typeName: string): Projection => readsOf(info).projection(typeName);
  const connectionSelection = (info: GraphQLResolveInfo): ConnectionSteps => readsOf(info).connection();
  const responseSize = options.maxResponseBytes === undefined ? undefined : new ResponseSizeGuard(options.maxResponseBytes, deadline);
  const comparisonRefusal = access && options.comparisonRefusal ? (typeName: string, path: string) => options.comparisonRefusal!(access, typeName, path) : undefined;
  return {
    requestId: ++nextRequestId,
    viewer: options.viewer,
    access,
    client: budgetClient(options.viewer.subject, options.clientAddress),
    afterAnswer: options.afterAnswer ?? runAtOnce,
    ledger,
    deadline,
    loaders,
    funnel,
    storageMap,
    overrides,
    documents: new DocumentsApi({
      loaders,
      storageMap,
      funnel,
      ledger,
      deadline,
      ...(access && { readScope: access }),
      ...(comparisonRefusal && { comparisonRefusal }),
      projectionFor,
      connectionSelection,
    }),
    writes: options.writes.forRequest(ledger, access, comparisonRefusal, {
      joinsById: (info) => readsOf(info).joinsById(),
      remember(returned, path) {
        for (const { collection, document, projection } of returned) {
          // A row the viewer may update but not read is read back through the filter instead.
          if (!access || access.documentVisible(collection, document)) loaders.byKey(collection, '_id').prime([document], projection, path);
        }
      },
      forgetReads: () => loaders.forgetDocuments(),
    }),
    strategyFor,
    copyBackfilling: options.copyBackfilling ?? (() => false),
    projectionFor,
    connectionSelection,
    reverseJoinPage: (info, field, shape, args) => readsOf(info).reverseJoinPage(field, shape, args),
    lookupFor: (info, field, args) => readsOf(info).lookup(field, args),
    snapshotMissingFields: (info, shape, targetType, requested) => readsOf(info).snapshotMissingFields(shape, targetType, requested),
    snapshotCopiedFields: (info, shape, targetType, requested) => readsOf(info).snapshotCopiedFields(shape, targetType, requested),
    selectedFields: (info, targetType, requested) => readsOf(info).selectedFields(targetType, requested),
    aggregateRequest: (info, aggregate, args) => readsOf(info).aggregateRequest(aggregate, args),
    countResponse: (info, value) => {
      if (!responseSize) return;
      const reads = readsOf(info);
      const items = responseObjects(value, reads.returnsConnection());
      if (items > 0) responseSize.add(items * reads.leastItemBytes(), info.operation.operation);
    },
    countResponseList: (type, list, operation) => {
      if (!responseSize) return;
      const entries = listedEntries(type, list);
      // Its brackets are counted with its parent's keys, and make up for one comma more than the entries have.
      if (entries > 0) responseSize.add(entries * leastEntryBytes(type) - 1, operation);
    },
  };
}

/**
 * The step of a field the plan does not hold (its operation is too large to plan), built for it alone;
 * past the plan's bound, the field fails as the estimate would have refused its operation.
 */
function fieldStepOutsidePlan(planning: PlanningContext, info: GraphQLResolveInfo): FieldStep {
  try {
    return buildFieldStep(planning, info.parentType, info.fieldNodes);
  } catch (error) {
    if (!(error instanceof TooLargeToPlan)) throw error;
    throw new GraphQLError(`The operation is too large to run: ${error.message}`, { extensions: { code: PublicErrorCode.COST_LIMIT_EXCEEDED } });
  }
}

/**
 * The projections of plan steps whose arguments hold no variable: the same for every request of the
 * plan (which is made for one set of strategies) and the same role (a lookup into a type the role may
 * not read is left out of its projection), so each is planned once per type and role.
 */
const planProjections = new WeakMap<FieldStep, Map<string, Projection>>();
/** Likewise the pages and lookups of the relation fields a step reads: they depend on its arguments alone. */
const planReverseJoinPages = new WeakMap<FieldStep, Map<RelationField, ReverseJoinPage>>();
const planLookups = new WeakMap<FieldStep, Map<RelationField, PlannedLookup | undefined>>();
/** Likewise, per role, the documents the joins under a mutation's step load by `_id` (joinsById). */
const planJoinsById = new WeakMap<FieldStep, Map<string, ReadonlyMap<string, Projection>>>();

/**
 * What one field's resolvers read of its step, worked out once per request the first time a resolver
 * asks (the arguments, like the selection, are those of the step's nodes: every parent of a level asks
 * the same).
 */
class FieldReads {
  #projections: Map<string, Projection> | undefined;
  #connection: ConnectionSteps | undefined;
  #reverseJoinPages: Map<RelationField, ReverseJoinPage> | undefined;
  #missing: readonly string[] | undefined;
  #copied: readonly string[] | undefined;
  #selected: readonly string[] | undefined;
  #joinsById: ReadonlyMap<string, Projection> | undefined;
  #aggregate: AggregateRequest | undefined;
  #lookups: Map<RelationField, PlannedLookup | undefined> | undefined;
  #leastItemBytes: number | undefined;

  /** `role`: the viewer's under access rules (what planning.canRead answers for), else undefined. */
  constructor(
    private readonly planning: PlanningContext,
    private readonly step: FieldStep,
    private readonly role: string | undefined,
  ) {}

  projection(typeName: string): Projection {
    this.#projections ??= this.#stepMemo(planProjections);
    const key = this.#roleKey(typeName);
    let projection = this.#projections.get(key);
    if (!projection) {
      const selections = this.returnsConnection() ? this.connection().nodeSelections.flat() : this.step.children;
      this.#projections.set(key, (projection = planProjection(this.planning, typeName, selections)));
    }
    return projection;
  }

  connection(): ConnectionSteps {
    return (this.#connection ??= connectionSteps(this.step));
  }

  leastItemBytes(): number {
    return (this.#leastItemBytes ??= leastItemBytes(this.step, this.returnsConnection()));
  }

  returnsConnection(): boolean {
    return this.step.definition !== undefined && this.planning.storageMap.connections.has(getNamedType(this.step.definition.type).name);
  }

  reverseJoinPage(field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): ReverseJoinPage {
    this.#reverseJoinPages ??= this.#stepMemo(planReverseJoinPages);
    let page = this.#reverseJoinPages.get(field);
    if (!page) this.#reverseJoinPages.set(field, (page = planReverseJoinPage(field, shape, args)));
    return page;
  }

  lookup(field: RelationField, args: PageArgs & Readonly<Record<string, unknown>>): PlannedLookup | undefined {
    this.#lookups ??= this.#stepMemo(planLookups);
    if (!this.#lookups.has(field)) this.#lookups.set(field, planLookup(field, field.shapes.join!, args));
    return this.#lookups.get(field);
  }

  /** The plan's memo of what the step plans when `readsVariables` says no variable changes it, else this request's. */
  #stepMemo<K, V>(memos: WeakMap<FieldStep, Map<K, V>>, readsVariables: (step: FieldStep) => boolean = stepReadsVariables): Map<K, V> {
    if (readsVariables(this.step)) return new Map();
    let shared = memos.get(this.step);
    if (!shared) memos.set(this.step, (shared = new Map()));
    return shared;
  }

  snapshotMissingFields(shape: SnapshotShape, targetType: string, requested: RequestedList): readonly string[] {
    return (this.#missing ??= sortedNames([...snapshotMissingFields(shape, targetType, this.step), ...uncopiedFields(requested, shape, this.planning.storageMap)]));
  }

  snapshotCopiedFields(shape: SnapshotShape, targetType: string, requested: RequestedList): readonly string[] {
    return (this.#copied ??= sortedNames([...snapshotSelectedFields(this.planning.storageMap, shape, targetType, this.step), ...copiedFieldsRead(requested, shape, this.planning.storageMap)]));
  }

  selectedFields(targetType: string, requested: RequestedList): readonly string[] {
    return (this.#selected ??= sortedNames([...selectedFieldNamesOf(this.step, targetType), ...fieldNamesRead(requested, targetType, this.planning.storageMap)]));
  }

  aggregateRequest(aggregate: AggregateField, args: Readonly<Record<string, unknown>>): AggregateRequest {
    return (this.#aggregate ??= planAggregateRequest(aggregate, this.step, args, this.planning.variableValues));
  }

  joinsById(): ReadonlyMap<string, Projection> {
    if (!this.#joinsById) {
      // The mutation's own arguments (its input) do not change what its selection joins.
      const memo = this.#stepMemo(planJoinsById, selectionReadsVariables);
      const key = this.#roleKey('');
      this.#joinsById = memo.get(key);
      if (!this.#joinsById) memo.set(key, (this.#joinsById = joinsById(this.planning, this.step)));
    }
    return this.#joinsById;
  }

  /** `name` as a memo key, with the role when the role decides what is read. */
  #roleKey(name: string): string {
    return this.role === undefined ? name : `${name}\0${this.role}`;
  }
}

/** Field names sorted, without repeats, and frozen: the same array for the same selection, which workload capture counts by. */
function sortedNames(names: readonly string[]): readonly string[] {
  return Object.freeze([...new Set(names)].sort());
}
