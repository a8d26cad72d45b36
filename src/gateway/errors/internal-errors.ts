/**
 * Internal error classes. They never reach clients as-is: format-error.ts maps them to a PublicErrorCode.
 */

/** The SDL's storage directives are inconsistent; thrown at startup, the message names `Type.field` and the fix. */
export class StorageConfigError extends Error {
  override readonly name = 'StorageConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid storage directives:\n  - ${problems.join('\n  - ')}`);
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

/** An impossible state: a bug in docjoin, never the caller's fault. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
