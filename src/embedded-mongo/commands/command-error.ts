import type { Document } from 'bson';

/**
 * A command failure that the wire layer turns into `{ ok: 0, errmsg, code, codeName, ...extra }`,
 * with `errorLabels` when labels are given. Codes and names are MongoDB's own
 * (https://github.com/mongodb/mongo/blob/master/src/mongo/base/error_codes.yml).
 */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Document = {},
    readonly errorLabels: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export const ErrorCodes = {
  BadValue: 2,
  NamespaceNotFound: 26,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  AuthenticationFailed: 18,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  DuplicateKey: 11000,
} as const;
