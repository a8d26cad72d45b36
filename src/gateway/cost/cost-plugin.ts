import type { ApolloServerPlugin } from '@apollo/server';
import type { CostLedger } from './cost-ledger';

/** Options of ApolloServerPluginDocjoinCost. Issue 4 adds limits (maxRoundTrips, maxDocuments, maxDepth) and the debug view here. */
export interface DocjoinCostOptions {
  /** The `extensions` key to write (default `cost`). */
  readonly extensionKey?: string;
}

/**
 * Writes the request ledger's report to `extensions.cost` of every single-result response. It never
 * overwrites an existing key: another plugin that got there first keeps its value.
 */
export function ApolloServerPluginDocjoinCost<TContext extends { readonly ledger: CostLedger }>(options: DocjoinCostOptions = {}): ApolloServerPlugin<TContext> {
  const key = options.extensionKey ?? 'cost';
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          const extensions = (result.extensions ??= {});
          if (key in extensions) return;
          extensions[key] = contextValue.ledger.report();
        },
      };
    },
  };
}
