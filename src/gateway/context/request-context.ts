import { getNamedType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { CostLedger } from '../cost/cost-ledger';
import { LoaderRegistry } from '../loaders/loader-registry';
import type { OperationDeadline } from '../limits/operation-deadline';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import { connectionSelection, type ConnectionSelection } from '../planning/connection-selection';
import { joinsById } from '../planning/joins-by-id';
import { planProjection, selectedFieldNames, snapshotMissingFields, snapshotSelectedFields, type PlanningContext } from '../planning/plan-projection';
import type { Projection } from '../planning/projection';
import { planReverseJoinPage, type ReverseJoinPage } from '../planning/reverse-join-page';
import { copiedFieldsRead, fieldNamesRead, uncopiedFields, type RequestedList } from '../planning/requested-list';
import type { PageArgs } from '../planning/page-request';
import type { ConnectionType, JoinShape, ReadStrategy, RelationField, SnapshotShape, StorageMap } from '../storage-map/storage-map-types';
import type { RequestWrites } from '../writes/request-writes';
import type { WriteRuntime } from '../writes/write-runtime';
import { DocumentsApi } from './documents-api';
import type { StrategyOverrides } from './strategy-overrides';

/**
 * Everything one GraphQL request needs, built once per request and never shared: its loaders, its cost
 * ledger, the funnel to MongoDB, the strategies it reads with and its write side. Also the context type
 * of the generated resolver types (codegen.yml).
 */
export interface GatewayContext {
  readonly requestId: number;
  readonly ledger: CostLedger;
  /** When the operation must stop (its time limit, or its client gone): the funnel checks it before each read. */
  readonly deadline: OperationDeadline;
  readonly loaders: LoaderRegistry;
  readonly funnel: MongoFunnel;
  readonly storageMap: StorageMap;
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
   * The projection the selection under `info.fieldNodes` needs on `typeName` documents (memoized). For a
   * field returning a connection, the selection is that of its nodes (`edges { node }`, `nodes`).
   */
  projectionFor(info: GraphQLResolveInfo, typeName: string): Projection;
  /** What the selection of a connection field asks for (memoized). */
  connectionSelection(info: GraphQLResolveInfo, connection: ConnectionType): ConnectionSelection;
  /**
   * The page of `field`'s reverse join that `args` ask for (planReverseJoinPage), memoized per field
   * and `info.fieldNodes`, whose arguments `args` are: every parent of a level asks for the same page.
   */
  reverseJoinPage(info: GraphQLResolveInfo, field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): ReverseJoinPage;
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
}

let nextRequestId = 0;

/** `writes`: the gateway's write runtime, which gives the request its write side on this request's ledger. */
export function createRequestContext(options: {
  storageMap: StorageMap;
  funnel: MongoFunnel;
  overrides: StrategyOverrides;
  writes: WriteRuntime;
  deadline: OperationDeadline;
  copyBackfilling?: (coordinate: string) => boolean;
}): GatewayContext {
  const { storageMap, funnel, overrides, deadline } = options;
  const ledger = new CostLedger();
  const loaders = new LoaderRegistry(funnel, { ledger, deadline });
  // graphql-js reuses one fieldNodes array for every item of a list, so planning runs once per field, not per item.
  const projections = new WeakMap<readonly FieldNode[], Map<string, Projection>>();
  const missingFields = new WeakMap<readonly FieldNode[], readonly string[]>();
  const copiedFields = new WeakMap<readonly FieldNode[], readonly string[]>();
  const joinSelections = new WeakMap<readonly FieldNode[], readonly string[]>();
  const connections = new WeakMap<readonly FieldNode[], ConnectionSelection>();
  const reverseJoinPages = new WeakMap<readonly FieldNode[], Map<RelationField, ReverseJoinPage>>();
  const strategyFor = (field: RelationField): ReadStrategy => overrides.get(field.coordinate) ?? field.defaultStrategy;
  const planning = (info: GraphQLResolveInfo): PlanningContext => ({
    schema: info.schema,
    fragments: info.fragments,
    variableValues: info.variableValues,
    storageMap,
    strategyFor,
  });
  const connectionSelectionOf = (info: GraphQLResolveInfo, connection: ConnectionType): ConnectionSelection => {
    let selection = connections.get(info.fieldNodes);
    if (!selection) connections.set(info.fieldNodes, (selection = connectionSelection(planning(info), connection, info.fieldNodes)));
    return selection;
  };
  const projectionFor = (info: GraphQLResolveInfo, typeName: string): Projection => {
    let byType = projections.get(info.fieldNodes);
    if (!byType) projections.set(info.fieldNodes, (byType = new Map()));
    let projection = byType.get(typeName);
    if (!projection) {
      const connection = storageMap.connections.get(getNamedType(info.returnType).name);
      const fieldNodes = connection ? connectionSelectionOf(info, connection).nodeFieldNodes : info.fieldNodes;
      byType.set(typeName, (projection = planProjection(planning(info), typeName, fieldNodes)));
    }
    return projection;
  };
  return {
    requestId: ++nextRequestId,
    ledger,
    deadline,
    loaders,
    funnel,
    storageMap,
    overrides,
    documents: new DocumentsApi({ loaders, storageMap, funnel, ledger, deadline, projectionFor, connectionSelection: connectionSelectionOf }),
    writes: options.writes.forRequest(ledger, {
      joinsById: (info) => joinsById(planning(info), info),
      remember(returned, path) {
        for (const { collection, document, projection } of returned) loaders.byKey(collection, '_id').prime([document], projection, path);
      },
    }),
    strategyFor,
    copyBackfilling: options.copyBackfilling ?? (() => false),
    projectionFor,
    connectionSelection: connectionSelectionOf,
    reverseJoinPage(info, field, shape, args) {
      let byField = reverseJoinPages.get(info.fieldNodes);
      if (!byField) reverseJoinPages.set(info.fieldNodes, (byField = new Map()));
      let page = byField.get(field);
      if (!page) byField.set(field, (page = planReverseJoinPage(field, shape, args)));
      return page;
    },
    snapshotMissingFields: (info, shape, targetType, requested) =>
      missingFields.get(info.fieldNodes) ??
      memoizeNames(missingFields, info.fieldNodes, [...snapshotMissingFields(planning(info), shape, targetType, info.fieldNodes), ...uncopiedFields(requested, shape, storageMap)]),
    selectedFields: (info, targetType, requested) =>
      joinSelections.get(info.fieldNodes) ??
      memoizeNames(joinSelections, info.fieldNodes, [...selectedFieldNames(planning(info), targetType, info.fieldNodes), ...fieldNamesRead(requested, targetType, storageMap)]),
    snapshotCopiedFields: (info, shape, targetType, requested) =>
      copiedFields.get(info.fieldNodes) ??
      memoizeNames(copiedFields, info.fieldNodes, [...snapshotSelectedFields(planning(info), shape, targetType, info.fieldNodes), ...copiedFieldsRead(requested, shape, storageMap)]),
  };
}

/**
 * The field names of a selection, sorted and without repeats, remembered for its `fieldNodes` and
 * frozen: the same array for the same selection, which workload capture counts by. Callers look the
 * memo up first, so a resolve that finds it allocates nothing.
 */
function memoizeNames(memo: WeakMap<readonly FieldNode[], readonly string[]>, fieldNodes: readonly FieldNode[], names: readonly string[]): readonly string[] {
  const sorted = Object.freeze([...new Set(names)].sort());
  memo.set(fieldNodes, sorted);
  return sorted;
}
