import type { Store } from '../../storage/store';
import { badValue } from './command-fields';
import type { DataCommandHandler } from './transaction-scope';
import { sessionKeyOf, transactionFields } from './transaction-scope';

/** commitTransaction: `{ commitTransaction: 1, lsid, txnNumber, autocommit: false }` → `{}`; 251 for unknown or aborted transactions, 112 on conflict. */
export function commitTransactionCommand(store: Store): DataCommandHandler {
  return (command) => {
    const { sessionKey, txnNumber } = transactionFields(command);
    store.sessions.commit(sessionKey, txnNumber);
    return {};
  };
}

/** abortTransaction: discards the transaction's writes; 251 when it is not open. */
export function abortTransactionCommand(store: Store): DataCommandHandler {
  return (command) => {
    const { sessionKey, txnNumber } = transactionFields(command);
    store.sessions.abort(sessionKey, txnNumber);
    return {};
  };
}

/** endSessions: `{ endSessions: [lsid, ...] }` → `{}`, aborting the sessions' open transactions. */
export function endSessionsCommand(store: Store): DataCommandHandler {
  return (command) => {
    const lsids: unknown = command.endSessions;
    if (!Array.isArray(lsids)) throw badValue(`'endSessions' must be an array of session ids`);
    store.sessions.endSessions(lsids.map(sessionKeyOf));
    return {};
  };
}
