import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { CounterCount } from '../../operation/planning/batch-specs';
import type { TotalSum } from '../../operation/planning/total-sum';
import { buildOperationPlan, type OperationPlan } from '../plan/operation-plan';
import { coerceVariables } from '../plan/operation-planner';
import type { ReadStrategy, RelationField, StorageMap } from '../../startup/storage-map/storage-map-types';
import { estimateOperation, type CostEstimate, type WriteBound } from './estimate-operation';

/** What an estimate needs besides the variables: the operation's plan and the data's measures. */
export interface EstimatedRequest {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  /** The operation's plan (plan/operation-plan.ts): its operation, selection tree and depth. */
  readonly plan: Pick<OperationPlan, 'operation' | 'root' | 'depth'>;
  strategyFor(field: RelationField): ReadStrategy;
  /** See EstimateInput.assumedListSize (default DEFAULT_ASSUMED_LIST_SIZE). */
  readonly assumedListSize?: number;
  /** See EstimateInput.writeEstimate (mutations). */
  writeEstimate?(mutationField: string): WriteBound | undefined;
  /** See EstimateInput.collectionSize, listLength and valueBytes. */
  collectionSize?(collection: string): number | undefined;
  listLength?(coordinate: string): number | undefined;
  valueBytes?(typeName: string, fieldName: string): number | undefined;
  /** See EstimateInput.copyBackfilling, counters and totals. */
  copyBackfilling?(coordinate: string): boolean;
  readonly counters?: ReadonlyMap<string, CounterCount>;
  readonly totals?: ReadonlyMap<string, TotalSum>;
  /** See EstimateInput.readsEveryRow. */
  readsEveryRow?(collection: string): boolean;
}

/**
 * The estimate of one operation of `document` with raw `variables` (as a client sends them), planned
 * and coerced as a request of it would be; undefined when the variables don't coerce (execution
 * reports that error and sends nothing to MongoDB).
 */
export function estimateRequest(request: Omit<EstimatedRequest, 'plan'> & { readonly document: DocumentNode; readonly operation: OperationDefinitionNode; readonly variables: Readonly<Record<string, unknown>> | undefined }): CostEstimate | undefined {
  const coerced = coerceVariables(request.schema, request.operation, request.variables);
  return coerced && estimateWithVariables({ ...request, plan: buildOperationPlan(request.schema, request.document, request.operation, coerced) }, coerced);
}

/** The estimate of a planned request whose variables are coerced. */
export function estimateWithVariables(request: EstimatedRequest, coerced: Readonly<Record<string, unknown>>): CostEstimate {
  return estimateOperation({
    schema: request.schema,
    storageMap: request.storageMap,
    plan: request.plan,
    variableValues: coerced,
    strategyFor: request.strategyFor,
    ...(request.assumedListSize !== undefined && { assumedListSize: request.assumedListSize }),
    ...(request.writeEstimate && { writeEstimate: request.writeEstimate }),
    ...(request.collectionSize && { collectionSize: request.collectionSize }),
    ...(request.listLength && { listLength: request.listLength }),
    ...(request.valueBytes && { valueBytes: request.valueBytes }),
    ...(request.copyBackfilling && { copyBackfilling: request.copyBackfilling }),
    ...(request.counters && { counters: request.counters }),
    ...(request.totals && { totals: request.totals }),
    ...(request.readsEveryRow && { readsEveryRow: request.readsEveryRow }),
  });
}
