import type { Document } from 'bson';
import type { Transaction } from '../../storage/transaction';
import { CommandError } from '../command-error';

/**
 * One failed statement of insert/update/delete as a `writeErrors` entry:
 * `{ index, code, errmsg, ...extra }` (extra carries keyPattern/keyValue for E11000).
 * Inside a transaction the error fails the whole command instead (and so aborts the transaction).
 */
export function writeErrorOf(error: unknown, index: number, transaction: Transaction | undefined): Document {
  if (!(error instanceof CommandError) || transaction !== undefined) throw error;
  return { index, code: error.code, errmsg: error.message, ...error.extra };
}

/** Adds `writeErrors` to a write reply when there are any. */
export function withWriteErrors(reply: Document, writeErrors: readonly Document[]): Document {
  return writeErrors.length === 0 ? reply : { ...reply, writeErrors };
}
