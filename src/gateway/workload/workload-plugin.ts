import type { ApolloServerPlugin } from '@apollo/server';
import type { CostLedger } from '../cost/cost-ledger';
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
 * recorded.
 */
export function ApolloServerPluginDocjoinWorkload<TContext extends { readonly ledger: CostLedger }>(options: DocjoinWorkloadOptions): ApolloServerPlugin<TContext> {
  const { recorder } = options;
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`docjoin: warning: workload capture failed: ${error instanceof Error ? error.message : String(error)}\n`));
  return {
    async requestDidStart() {
      let executed = false;
      return {
        async executionDidStart() {
          executed = true;
        },
        async willSendResponse({ operation, contextValue }) {
          const type = operation?.operation;
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
