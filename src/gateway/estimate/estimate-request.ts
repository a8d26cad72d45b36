import { getVariableValues, Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { CounterCount } from '../loaders/counter-count';
import type { ReadStrategy, RelationField, StorageMap } from '../storage-map/storage-map-types';
import { estimateOperation, type CostEstimate, type WriteBound } from './estimate-operation';

/** What estimateRequest needs besides the variables: the request and the data's measures. */
export interface EstimatedRequest {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  strategyFor(field: RelationField): ReadStrategy;
  /** See EstimateInput.assumedListSize (default DEFAULT_ASSUMED_LIST_SIZE). */
  readonly assumedListSize?: number;
  /** See EstimateInput.writeEstimate (mutations). */
  writeEstimate?(mutationField: string): WriteBound | undefined;
  /** See EstimateInput.collectionSize and listLength. */
  collectionSize?(collection: string): number | undefined;
  listLength?(coordinate: string): number | undefined;
  /** See EstimateInput.copyBackfilling and counters. */
  copyBackfilling?(coordinate: string): boolean;
  readonly counters?: ReadonlyMap<string, CounterCount>;
}

/**
 * The estimate of a resolved request (Apollo's didResolveOperation): coerces the variables the way
 * execution will, then estimates. Undefined when the variables don't coerce (execution reports that error
 * and sends nothing to MongoDB).
 */
export function estimateRequest(request: EstimatedRequest & { readonly variables: Readonly<Record<string, unknown>> | undefined }): CostEstimate | undefined {
  const coerced = coerceVariables(request.schema, request.operation, request.variables);
  return coerced && estimateWithVariables(request, coerced);
}

const NO_VARIABLES: Readonly<Record<string, unknown>> = Object.freeze({});

/** The operation's variables coerced as execution coerces them; undefined when they don't coerce. */
export function coerceVariables(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined {
  // An operation without variables reads none of those sent.
  if (!operation.variableDefinitions?.length) return NO_VARIABLES;
  return getVariableValues(schema, operation.variableDefinitions, variables ?? {}).coerced;
}

/** The estimate of the request with its variables already coerced (coerceVariables). */
export function estimateWithVariables(request: EstimatedRequest, coerced: Readonly<Record<string, unknown>>): CostEstimate {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  return estimateOperation({
    schema: request.schema,
    storageMap: request.storageMap,
    operation: request.operation,
    fragments,
    variableValues: coerced,
    strategyFor: request.strategyFor,
    ...(request.assumedListSize !== undefined && { assumedListSize: request.assumedListSize }),
    ...(request.writeEstimate && { writeEstimate: request.writeEstimate }),
    ...(request.collectionSize && { collectionSize: request.collectionSize }),
    ...(request.listLength && { listLength: request.listLength }),
    ...(request.copyBackfilling && { copyBackfilling: request.copyBackfilling }),
    ...(request.counters && { counters: request.counters }),
  });
}
