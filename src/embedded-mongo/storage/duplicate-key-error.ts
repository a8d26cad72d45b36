import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { formatShellValue } from '../protocol/shell-value';

/**
 * MongoDB's E11000 error, with the message format of MongoDB 7
 * (`E11000 duplicate key error collection: db.users index: email_1 dup key: { email: "a@x" }`)
 * and the `keyPattern` / `keyValue` fields drivers expose on the error.
 */
export function duplicateKeyError(ns: string, indexName: string, keyPattern: Document, keyValue: Document): CommandError {
  const message = `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: ${formatShellValue(keyValue)}`;
  return new CommandError(ErrorCodes.DuplicateKey, 'DuplicateKey', message, { keyPattern, keyValue });
}
