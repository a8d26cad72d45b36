import type { ApolloServerPlugin } from '@apollo/server';
import type { LoaderRegistry } from '../loaders/loader-registry';

/**
 * Drops each request's loaders, and the documents they hold, as soon as its response is built (the
 * cost report and the workload read the ledger, not the loaders).
 *
 * Why it matters: Apollo's gateway mode, which runs docjoin's compiled execution, hands each request to
 * the executor in an object with accessor properties whose closures hold the request. V8 gives every
 * such object a hidden class of its own, in the old generation, so the request, its context and every
 * document it loaded stay reachable until the next full collection: each young-generation collection
 * copies them instead of freeing them. Without the loaders, what stays is the response itself.
 */
export function releaseDocumentsPlugin<TContext extends { readonly loaders: LoaderRegistry }>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue }) {
          contextValue.loaders.clear();
        },
      };
    },
  };
}
