import { validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { buildOperationPlan } from '../plan/operation-plan';
import { coerceVariables } from '../plan/operation-planner';
import { estimateOperation, type CostEstimate, type EstimateInput } from './estimate-operation';
import { unservedOperation } from '../plan/unserved-operation';

/** What an estimate needs besides the variables: the operation's plan and the data's measures (see EstimateInput). */
export type EstimatedRequest = Omit<EstimateInput, 'variableValues' | 'whatIfs'>;

/**
 * The estimate of one operation of `document` with raw `variables` (as a client sends them), planned
 * and coerced as a request of it would be; undefined where a request would send nothing to MongoDB:
 * a document the schema's validation refuses, or variables that don't coerce.
 */
export function estimateRequest(request: Omit<EstimatedRequest, 'plan'> & { readonly document: DocumentNode; readonly operation: OperationDefinitionNode; readonly variables: Readonly<Record<string, unknown>> | undefined }): CostEstimate | undefined {
  // An operation docjoin does not run (a mutation of a schema without a Mutation type) has no estimate.
  if (unservedOperation(request.schema, request.operation.operation)) return undefined;
  if (validate(request.schema, request.document).length > 0) return undefined;
  const coerced = coerceVariables(request.schema, request.operation, request.variables);
  return coerced && estimateWithVariables({ ...request, plan: buildOperationPlan(request.schema, request.document, request.operation, coerced) }, coerced);
}

/** The estimate of a planned request whose variables are coerced (never with what-ifs: only `docjoin explain` asks for them). */
export function estimateWithVariables(request: EstimatedRequest, coerced: Readonly<Record<string, unknown>>): CostEstimate {
  return estimateOperation({ ...request, variableValues: coerced, whatIfs: false });
}
