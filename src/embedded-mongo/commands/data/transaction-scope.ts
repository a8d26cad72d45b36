import type { Document } from 'bson';
import type { Store } from '../../storage/store';
import type { Transaction } from '../../storage/transaction';
import { CommandError, ErrorCodes, namedError } from '../../protocol/command-error';
import type { CommandContext, CommandHandler } from '../../protocol/command-types';
import { badValue, int64Value, isDocument } from './command-fields';

/**
 * A data command: like a CommandHandler, plus the transaction it runs in (undefined outside one).
 * Writes outside a transaction may wait for one to end, so they answer with a promise.
 */
export type DataCommandHandler = (command: Document, context: CommandContext, transaction: Transaction | undefined) => Document | Promise<Document>;

/**
 * Runs a data command inside the transaction its session fields name (`lsid`, `txnNumber`,
 * `startTransaction`, `autocommit: false`). A failed operation aborts the transaction, as in MongoDB;
 * the driver then retries the whole transaction when the error carries TransientTransactionError.
 * A write error (`writeErrors` in an `ok: 1` reply) aborts it too: a later commit gets 251
 * (jstests/core/txns/multi_statement_transaction_abort.js, "Abort transaction on duplicated key errors").
 */
export function inTransactionScope(store: Store, handler: DataCommandHandler): CommandHandler {
  return (command, context) => {
    // The command's name is its first key.
    const [name = ''] = Object.keys(command);
    // Refused before the transaction is looked up: one it would start is not started, and one already
    // open stays open (jstests/core/txns/commands_not_allowed_in_txn.js).
    if (command.autocommit === false) {
      refuseInTransactions(name);
      refuseLaterConcerns(command);
    }
    const transaction = transactionOf(store, command);
    if (transaction === undefined) {
      if (command.txnNumber === undefined || !RETRYABLE_WRITES.has(name)) return handler(command, context, undefined);
      const { sessionKey, txnNumber } = transactionFields(command);
      return store.sessions.retryableWrite(sessionKey, txnNumber, () => handler(command, context, undefined));
    }
    const settle = (reply: Document): Document => {
      if (Array.isArray(reply.writeErrors) && reply.writeErrors.length > 0) store.sessions.abortAfterError(transaction);
      return reply;
    };
    const fail = (error: unknown): never => {
      store.sessions.abortAfterError(transaction);
      throw error;
    };
    try {
      const reply = handler(command, context, transaction);
      return reply instanceof Promise ? reply.then(settle, fail) : settle(reply);
    } catch (error) {
      return fail(error);
    }
  };
}

/** The commands a driver retries with the same lsid and txnNumber (MongoDB docs, "Retryable Writes"). */
const RETRYABLE_WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

/**
 * Commands MongoDB refuses inside a transaction (the manual's "Transactions and Operations": only CRUD,
 * distinct, aggregate, getMore, killCursors and the creation of collections and their indexes may run
 * in one). The gateway never sends them there; refusing them keeps code that does from passing its
 * tests here and failing on MongoDB.
 */
const REFUSED_IN_TRANSACTIONS = new Set(['count', 'listCollections', 'listIndexes', 'listDatabases', 'drop', 'dropDatabase', 'dropIndexes']);

/**
 * A transaction takes its read concern from its first command and its write concern from its commit:
 * MongoDB refuses a readConcern on a later command and a writeConcern on any command inside it (72).
 */
function refuseLaterConcerns(command: Document): void {
  const given = (concern: unknown) => isDocument(concern) && Object.keys(concern).length > 0;
  if (given(command.readConcern) && command.startTransaction !== true) {
    throw namedError('InvalidOptions', 'Only the first command in a transaction may specify a readConcern');
  }
  if (given(command.writeConcern)) throw namedError('InvalidOptions', 'Cannot set write concern after starting a transaction.');
}

function refuseInTransactions(name: string): void {
  if (!REFUSED_IN_TRANSACTIONS.has(name)) return;
  throw new CommandError(ErrorCodes.OperationNotSupportedInTransaction, 'OperationNotSupportedInTransaction', `Cannot run '${name}' in a multi-document transaction.`);
}

/** The transaction a command belongs to; commands without `autocommit: false` run outside any (retryable writes included). */
export function transactionOf(store: Store, command: Document): Transaction | undefined {
  if (command.autocommit === undefined || command.autocommit === null) return undefined;
  if (command.autocommit !== false) throw badValue('autocommit must be false when given');
  const { sessionKey, txnNumber } = transactionFields(command);
  return command.startTransaction === true ? store.sessions.start(sessionKey, txnNumber) : store.sessions.active(sessionKey, txnNumber);
}

/** The session key and txnNumber of a transaction command (commitTransaction, abortTransaction, ...). */
export function transactionFields(command: Document): { sessionKey: string; txnNumber: bigint } {
  if (command.txnNumber === undefined) throw new CommandError(50768, 'Location50768', 'txnNumber must be provided for multi-document transactions');
  return { sessionKey: sessionKeyOf(command.lsid), txnNumber: int64Value(command.txnNumber, 'txnNumber') };
}

/** A logical session id (`{ id: UUID }`) as a map key. */
export function sessionKeyOf(lsid: unknown): string {
  if (!isDocument(lsid)) throw badValue('a transaction needs a logical session id (lsid)');
  const id: unknown = lsid.id;
  if (typeof id === 'object' && id !== null && (id as { _bsontype?: unknown })._bsontype === 'Binary') {
    return (id as { toString(encoding: 'hex'): string }).toString('hex');
  }
  throw badValue('lsid.id must be a UUID');
}

/** The session a cursor command comes in (its lsid's key), if any: its getMores must come in it too. */
export function cursorSession(command: Document): string | undefined {
  return command.lsid === undefined ? undefined : sessionKeyOf(command.lsid);
}
