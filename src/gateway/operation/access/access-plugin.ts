import type { ApolloServerPlugin } from '@apollo/server';
import { forbidden } from '../../errors/public-error-code';
import type { GatewayContext } from '../../request/context/request-context';
import type { OperationPlanner } from '../plan/operation-planner';
import { operationAccessRefusal, type OperationAccessContext } from './operation-access';

/**
 * Refuses, before anything runs (HTTP 403 FORBIDDEN), an operation the viewer's role may not run as a
 * whole (operation-access.ts): it reads the operation's plan, once per plan and role.
 */
export function accessPlugin(planner: OperationPlanner, context: OperationAccessContext): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(request) {
          const prepared = planner.prepare(request);
          // Variables that do not coerce: graphql-js reports them and runs nothing.
          if (!prepared) return;
          const { access, viewer } = request.contextValue;
          const refusal = operationAccessRefusal(prepared.plan, access, viewer.role, context);
          if (refusal) throw forbidden(refusal, { beforeExecution: true });
        },
      };
    },
  };
}
