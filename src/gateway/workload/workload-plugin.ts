import type { ApolloServerPlugin } from '@apollo/server';
import type { CostLedger } from '../request/cost/cost-ledger';
import type { WorkloadRecorder } from './workload-recorder';

/** Options of ApolloServerPluginDocjoinWorkload. */
export interface DocjoinWorkloadOptions {
  /** Where each executed operation's facts are folded. */
  readonly recorder: WorkloadRecorder;
  /**
   * Told of an error while recording (a bug: recording must never change a response, so the response
   * goes out as it is). Default: one `docjoin: warning: …` line on stderr.
   */
  readonly onError?: (error: unknown) => void;
}

/**
 * Workload capture: once an operation's response is ready, folds its cost ledger (the facts behind
 * `extensions.cost`, plus which fields a snapshot lacked) into the recorder. It reads the ledger and
 * never touches the response. Operations that did not execute (rejected by a limit, invalid) are not
 * recorded: a response has `data`, null included, exactly when execution started (execution may run
 * in a `responseForOperation` hook, compiled, where Apollo's `executionDidStart` does not run).
 */
export function ApolloServerPluginDocjoinWorkload<TContext extends { readonly ledger: CostLedger }>(options: DocjoinWorkloadOptions): ApolloServerPlugin<TContext> {
  const { recorder } = options;
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`docjoin: warning: workload capture failed: ${error instanceof Error ? error.message : String(error)}\n`));
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ operation, contextValue, response }) {
          const type = operation?.operation;
          const executed = response.body.kind === 'single' && response.body.singleResult.data !== undefined;
          if (!executed || (type !== 'query' && type !== 'mutation')) return;
          try {
            recorder.record(type, contextValue.ledger);
          } catch (error) {
            onError(error);
          }
        },
      };
    },
  };
}
