/**
 * Internal error classes. They never reach clients as-is: format-error.ts maps them to a PublicErrorCode.
 */

/** The SDL's storage directives are inconsistent; thrown at startup, the message names `Type.field` and the fix. */
export class StorageConfigError extends Error {
  override readonly name = 'StorageConfigError';
  /** What the database check found besides, in the same start (the schema's own problems come first). */
  readonly databaseProblems: readonly string[];
  constructor(
    readonly problems: readonly string[],
    databaseProblems: readonly string[] = [],
  ) {
    const database = databaseProblems.length > 0 ? `\nThe database does not match the schema either:\n  - ${databaseProblems.join('\n  - ')}` : '';
    super(`Invalid storage directives:\n  - ${problems.join('\n  - ')}${database}`);
    this.databaseProblems = databaseProblems;
  }
}

/** The database the SDL describes does not match the database we connected to (missing collection or index). */
export class DatabaseMismatchError extends Error {
  override readonly name = 'DatabaseMismatchError';
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? `The database does not match the schema: ${problems[0]}` : `The database does not match the schema:\n  - ${problems.join('\n  - ')}`);
  }
}

/** A command failed in the driver or the server; public code DATABASE_UNAVAILABLE. */
export class DatabaseFailure extends Error {
  override readonly name = 'DatabaseFailure';
  constructor(readonly collection: string, cause: unknown) {
    super(`MongoDB command on ${collection} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * A write unit's transaction failed with a transient server error (a write conflict) in each of its
 * `attempts`, and its retries ran out; every attempt was aborted. writes/ reports it as WRITE_CONFLICT.
 */
export class TransactionConflict extends Error {
  override readonly name = 'TransactionConflict';
  constructor(readonly attempts: number, cause: unknown) {
    super(`transaction still conflicting after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Why an operation stopped before its end: its time limit, or its client went away. */
export type StopReason = 'timeout' | 'client-gone';

/**
 * Thrown by the funnel once an operation's deadline has passed (public code
 * OPERATION_TIMEOUT) or its client has gone (OPERATION_CANCELLED, which no client reads: it is logged).
 */
export class OperationStopped extends Error {
  override readonly name = 'OperationStopped';
  constructor(
    readonly reason: StopReason,
    readonly timeoutMs: number,
  ) {
    super(reason === 'timeout' ? `The operation did not finish within its time limit of ${timeoutMs} ms (DOCJOIN_OPERATION_TIMEOUT_MS); ask for less, or page through it` : 'The client closed the connection; the operation was stopped');
  }
}

/** An impossible state: a bug in docjoin, never the caller's fault. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
