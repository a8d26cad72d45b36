import { GraphQLError } from 'graphql';

/** The only codes clients see in `extensions.code` from docjoin itself (Apollo adds its own parse/validation codes). */
export enum PublicErrorCode {
  BAD_USER_INPUT = 'BAD_USER_INPUT',
  NOT_FOUND = 'NOT_FOUND',
  COST_LIMIT_EXCEEDED = 'COST_LIMIT_EXCEEDED',
  /** A subscription (or an operation type the schema has no root for): docjoin serves queries and mutations. */
  OPERATION_NOT_SUPPORTED = 'OPERATION_NOT_SUPPORTED',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  /** A mutation's transaction kept conflicting with other writes until its retries ran out; nothing was written. */
  WRITE_CONFLICT = 'WRITE_CONFLICT',
  /** The operation did not finish within its time limit (HTTP 504); its reads were stopped. */
  OPERATION_TIMEOUT = 'OPERATION_TIMEOUT',
  /** The client went away and the operation was stopped (only in logs: no one reads the answer). */
  OPERATION_CANCELLED = 'OPERATION_CANCELLED',
  /** Too many operations at once: HTTP 503 with Retry-After; nothing ran. */
  OVERLOADED = 'OVERLOADED',
  /** The client's cost budget (a leaky bucket of points) holds fewer points than the operation needs: HTTP 429 with Retry-After; nothing ran. */
  THROTTLED = 'THROTTLED',
  /** The server runs only its trusted documents (server.trustedDocuments) and this is none of them (HTTP 400). */
  PERSISTED_QUERY_NOT_IN_LIST = 'PERSISTED_QUERY_NOT_IN_LIST',
  /**
   * The request itself is malformed (HTTP 400, 413 for a body too large): a body that is not JSON, a
   * persisted query of a version other than 1, or with a hash its query does not have.
   */
  BAD_REQUEST = 'BAD_REQUEST',
  /**
   * A figure MongoDB computed does not fit the field's type: a sum past the largest double (Infinity) or a
   * `Long` sum past 64 bits. The field is null with this error (HTTP 200); aggregate a `Decimal` field instead.
   * Also a connection cursor at an item whose sort values hold a date past JavaScript's range.
   */
  VALUE_OUT_OF_RANGE = 'VALUE_OUT_OF_RANGE',
  /** The response body would exceed maxResponseBytes; ask for less or page through it. */
  RESPONSE_TOO_LARGE = 'RESPONSE_TOO_LARGE',
  /** No valid credentials: a token that is forged, expired, not yet valid, unsigned or for another audience (HTTP 401). */
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  /** The issuer's keys (a JWKS) could not be fetched to check a token: HTTP 503 with Retry-After; nothing ran. */
  AUTHENTICATION_UNAVAILABLE = 'AUTHENTICATION_UNAVAILABLE',
  /** The viewer's role may not do this (an `@access` rule); for a row it may not see, the answer is null, as if absent. */
  FORBIDDEN = 'FORBIDDEN',
  INTERNAL_SERVER_ERROR = 'INTERNAL_SERVER_ERROR',
}

/**
 * A user-facing error for input the caller can fix. During execution it leaves the HTTP status at 200
 * (partial data is still a GraphQL response); `beforeExecution` errors (a bad header) answer 400.
 */
export function badUserInput(message: string, details: Record<string, unknown> = {}, options: { beforeExecution?: boolean } = {}): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: PublicErrorCode.BAD_USER_INPUT, ...details, ...(options.beforeExecution && { http: { status: 400 } }) },
  });
}

/**
 * The viewer's role may not do what was asked (an `@access` rule). Refused before execution it answers
 * HTTP 403; during execution the field is null with this error at its path.
 */
export function forbidden(message: string, options: { beforeExecution?: boolean } = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.FORBIDDEN, ...(options.beforeExecution && { http: { status: 403 } }) } });
}

/** A figure that does not fit its field's type (an aggregate's sum past a double's or a Long's range): the field answers this error. */
export function valueOutOfRange(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.VALUE_OUT_OF_RANGE } });
}
