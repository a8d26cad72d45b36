import type { GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { forbidden } from '../../errors/public-error-code';
import type { GatewayContext } from '../../request/context/request-context';
import type { OperationPlanner } from '../plan/operation-planner';
import { operationAccessRefusal, type OperationAccessContext } from './operation-access';
import type { TrustedDocuments } from './trusted-documents';

/**
 * What refuses a resolved operation before it is estimated or admitted (the cost plugin's `refuse`):
 * a document not in the trusted manifest (400 PERSISTED_QUERY_NOT_IN_LIST), then what the viewer's
 * role may not run as a whole, read from the plan once per plan and role (403 FORBIDDEN).
 */
export function operationRefusal(options: {
  readonly planner: OperationPlanner;
  readonly access: OperationAccessContext | undefined;
  readonly trusted: TrustedDocuments | undefined;
}): ((request: GraphQLRequestContextDidResolveOperation<GatewayContext>) => void) | undefined {
  const { planner, access, trusted } = options;
  if (!access && !trusted) return undefined;
  return (request) => {
    trusted?.check(request);
    if (!access) return;
    const prepared = planner.prepare(request);
    // Variables that do not coerce: graphql-js reports them and runs nothing.
    if (!prepared) return;
    const { access: viewerAccess, viewer } = request.contextValue;
    const refusal = operationAccessRefusal(prepared.plan, viewerAccess, viewer.role, access);
    if (refusal) throw forbidden(refusal, { beforeExecution: true });
  };
}
