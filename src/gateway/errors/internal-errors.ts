import { types } from 'node:util';
import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
} from 'mongodb';

/**
 * Internal error classes. They never reach clients as-is: format-error.ts maps them to a PublicErrorCode.
 */

/** A createGateway option with a wrong value; the message names the option and the value. */
export class GatewayOptionError extends Error {
  override readonly name: string = 'GatewayOptionError';
}

/** The SDL's storage directives are inconsistent; thrown at startup, the message names `Type.field` and the fix. */
export class StorageConfigError extends Error {
  override readonly name: string = 'StorageConfigError';
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

/**
 * The SDL files themselves are wrong (a syntax error, an unknown directive or argument, a value of the
 * wrong type, a schema path that does not exist): a StorageConfigError whose message is the problems
 * alone, each naming its file, line and `Type.field`.
 */
export class SchemaSourceError extends StorageConfigError {
  override readonly name = 'SchemaSourceError';
  constructor(problems: readonly string[]) {
    super(problems);
    this.message = problems.length === 1 ? problems[0]! : `The schema has ${problems.length} errors:\n  - ${problems.join('\n  - ')}`;
  }
}

/** The database the SDL describes does not match the database we connected to (missing collection or index). */
export class DatabaseMismatchError extends Error {
  override readonly name = 'DatabaseMismatchError';
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? `The database does not match the schema: ${problems[0]}` : `The database does not match the schema:\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * A command failed in the driver or the server. When MongoDB could not answer it (unavailable: see
 * isUnavailability), the public code is DATABASE_UNAVAILABLE, and `/health` hears of it; a command
 * MongoDB refused (a document that breaks what the write expects, a bug) is an internal error.
 */
export class DatabaseFailure extends Error {
  override readonly name = 'DatabaseFailure';
  readonly unavailable: boolean;
  constructor(readonly collection: string, cause: unknown) {
    super(`MongoDB command on ${collection} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.unavailable = isUnavailability(cause);
  }
}

/** Server codes after which the driver retries a read (the retryable reads specification's list): the server cannot answer now. */
export const RETRYABLE_READ_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Server codes of a deployment that cannot answer now: those, and the waits a cluster gives up on. */
const UNAVAILABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  ...RETRYABLE_READ_CODES,
  50, // MaxTimeMSExpired: the command ran out of the time its operation had left
  64, // WriteConcernFailed: the replicas did not confirm in time
  100, // UnsatisfiableWriteConcern: not enough replicas
  133, // FailedToSatisfyReadPreference (mongos)
  202, // NetworkInterfaceExceededTimeLimit (mongos)
]);

/** The driver's errors of a deployment it cannot reach or no longer talks to; its other errors are refusals. */
const UNAVAILABLE_DRIVER_ERRORS = [MongoNetworkError, MongoServerSelectionError, MongoTopologyClosedError, MongoNotConnectedError, MongoServerClosedError, MongoStalePrimaryError, MongoOperationTimeoutError];

/**
 * Whether `error` says MongoDB could not answer, rather than that it refused the command (or that the
 * driver refused it, or docjoin erred): a system error of the connection (EPIPE, ECONNRESET: a socket
 * the driver had not noticed closing), UNAVAILABLE_DRIVER_ERRORS, a server reply with one of
 * UNAVAILABLE_SERVER_CODES or labelled retryable, and a bulk write the driver could not send for one
 * of those.
 */
export function isUnavailability(error: unknown): boolean {
  if (isSystemError(error)) return true;
  if (error instanceof MongoServerError) {
    // A bulk write wraps what stopped it, a reply or not.
    const wrapped: unknown = error.errorResponse;
    if (wrapped instanceof Error) return isUnavailability(wrapped);
    return (typeof error.code === 'number' && UNAVAILABLE_SERVER_CODES.has(error.code)) || error.hasErrorLabel('RetryableWriteError');
  }
  return UNAVAILABLE_DRIVER_ERRORS.some((kind) => error instanceof kind);
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

/** Why an operation stopped before its end: its time limit, its client went away, or its response grew past its size limit. */
export type StopReason = 'timeout' | 'client-gone' | 'response-too-large';

/**
 * Thrown by the funnel once an operation's deadline has passed (public code OPERATION_TIMEOUT), its
 * client has gone (OPERATION_CANCELLED, which no client reads: it is logged), or its response has
 * grown past `maxResponseBytes` while being built (RESPONSE_TOO_LARGE).
 */
export class OperationStopped extends Error {
  override readonly name = 'OperationStopped';
  constructor(
    readonly reason: StopReason,
    readonly timeoutMs: number,
    /** The response size limit, for a response too large. */
    readonly maxResponseBytes?: number,
  ) {
    super(stopMessage(reason, timeoutMs, maxResponseBytes));
  }
}

function stopMessage(reason: StopReason, timeoutMs: number, maxResponseBytes: number | undefined): string {
  switch (reason) {
    case 'timeout':
      return `The operation did not finish within its time limit of ${timeoutMs} ms (DOCJOIN_OPERATION_TIMEOUT_MS); ask for less, or page through it`;
    case 'client-gone':
      return 'The client closed the connection; the operation was stopped';
    case 'response-too-large':
      return `The response would be over the limit of ${(maxResponseBytes ?? 0).toLocaleString('en')} bytes (DOCJOIN_MAX_RESPONSE_BYTES): the operation was stopped before building it; select fewer fields or ask for smaller pages`;
  }
}

/** An impossible state: a bug in docjoin, never the caller's fault. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

/** Node's own sockets make these errors, in its own realm (`instanceof Error` can fail where the caller runs in another). */
function isSystemError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (error instanceof Error || types.isNativeError(error)) && typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
