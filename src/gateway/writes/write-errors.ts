import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../errors/public-error-code';
import type { RetryLimit } from './transaction-retries';

/** A write names a document that does not exist; raised before anything is written. */
export function notFound(message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.NOT_FOUND, ...details } });
}

const WHY_NOT_RETRIED: Record<RetryLimit, string> = {
  attempts: 'that is the most maxTransactionAttempts allows',
  time: 'no retry could start within transactionRetryMs',
  roundTrips: "another attempt could exceed the operation's round-trip limit (maxRoundTrips)",
};

/**
 * A mutation's transaction conflicted with other writes (another transaction holds a document it
 * writes) in each of its `attempts`, and `limit` stopped the retries; every attempt was rolled back.
 */
export function writeConflict(coordinate: string, attempts: number, limit: RetryLimit, cause: Error): GraphQLError {
  return new GraphQLError(
    `${coordinate}: its transaction conflicted with other writes in each of ${attempts} attempt(s), and ${WHY_NOT_RETRIED[limit]}; nothing was written, try again later`,
    { extensions: { code: PublicErrorCode.WRITE_CONFLICT, attempts, retryLimit: limit }, originalError: cause },
  );
}

/**
 * Test seam (not part of the package's API): the write units of the gateway whose storage map is a key
 * throw after that many write commands, as if the process died between two writes.
 */
export const injectedWriteFailures = new WeakMap<object, number>();

/** Thrown through `injectedWriteFailures`: the process "dies" between two writes. */
export class InjectedWriteFailure extends Error {
  override readonly name = 'InjectedWriteFailure';
  constructor(readonly afterWrites: number) {
    super(`injected failure after ${afterWrites} write command(s)`);
  }
}
