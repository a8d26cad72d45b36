import type { Document } from 'bson';
import { CommandError } from '../../protocol/command-error';

/**
 * One failed statement of insert/update/delete as a `writeErrors` entry:
 * `{ index, code, errmsg, ...extra }` (extra carries keyPattern/keyValue for E11000).
 * Inside a transaction too (jstests/core/txns/transactions_write_errors.js: `ok: 1`, `writeErrors`,
 * no `errorLabels`); only transient errors (112 WriteConflict) fail the whole command there, so that
 * the driver sees the TransientTransactionError label and retries the transaction.
 */
export function writeErrorOf(error: unknown, index: number): Document {
  if (!(error instanceof CommandError) || error.errorLabels.includes('TransientTransactionError')) throw error;
  return { index, code: error.code, errmsg: error.message, ...error.extra };
}

/**
 * Whether a write command stops after a failed statement: ordered ones do, and so does every write
 * in a transaction, ordered or not (the same jstest: `[good, good, bad, bad]` unordered → n 2, one error).
 */
export function stopsAfterError(ordered: boolean, inTransaction: boolean): boolean {
  return ordered || inTransaction;
}

/** Adds `writeErrors` to a write reply when there are any. */
export function withWriteErrors(reply: Document, writeErrors: readonly Document[]): Document {
  return writeErrors.length === 0 ? reply : { ...reply, writeErrors };
}
