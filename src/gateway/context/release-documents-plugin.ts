import type { ApolloServerPlugin } from '@apollo/server';
import type { LoaderRegistry } from '../loaders/loader-registry';

/**
 * Drops each request's loaders, and the documents they hold, as soon as its response is built (the
 * cost report and the workload read the ledger, not the loaders).
 *
 * Why it matters: a context can outlive its response. A plugin may keep it, and Apollo's `gateway` seam
 * hands each request to the executor in an object with accessor properties whose closures hold the
 * request: V8 gives every such object a hidden class of its own, in the old generation, so the request
 * and its context stay reachable until the next full collection, and each young-generation collection
 * copies what they hold instead of freeing it. Without the loaders, that is not the documents.
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
