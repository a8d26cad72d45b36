import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { PublicErrorCode } from '../../errors/public-error-code';
import type { OperationDeadline } from './operation-deadline';

const STOPPED_CODES: readonly unknown[] = [PublicErrorCode.OPERATION_TIMEOUT, PublicErrorCode.OPERATION_CANCELLED, PublicErrorCode.RESPONSE_TOO_LARGE];

/**
 * The answer of an operation its deadline stopped: one error instead of one per field that was cut off
 * (a large query would list thousands), HTTP 504 for a timeout, 400 for a query whose response is too large
 * (as one found too large once serialized is answered). A query that was executing answers
 * `data: null` (its partial data has holes anywhere); one stopped before it executed (waiting for the
 * document budget) has no `data`; a mutation keeps its data, since its writes may have committed.
 * Comes before the cost plugin, so the answer still reports what the operation cost.
 */
export function operationDeadlinePlugin<TContext extends { readonly deadline: OperationDeadline }>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue, operation }) {
          contextValue.deadline.finish();
          contextValue.deadline.ranMutation = operation?.operation === 'mutation';
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          const stopped = result.errors?.find((error) => STOPPED_CODES.includes(error.extensions?.code));
          if (!stopped || !result.errors) return;
          const others = result.errors.filter((error) => !STOPPED_CODES.includes(error.extensions?.code));
          const { path: _path, locations: _locations, ...single }: GraphQLFormattedError = stopped;
          const mutation = operation?.operation === 'mutation';
          const tooLarge = stopped.extensions?.code === PublicErrorCode.RESPONSE_TOO_LARGE;
          result.errors = [tooLarge && mutation ? { ...single, message: `${single.message}. The mutation ran${result.data ? ': its data holds what fit' : ''}; read before retrying it` } : single, ...others];
          if (!mutation && result.data !== undefined) result.data = null;
          if (stopped.extensions?.code === PublicErrorCode.OPERATION_TIMEOUT) response.http.status = 504;
          if (tooLarge && !mutation) response.http.status = 400;
        },
      };
    },
  };
}
