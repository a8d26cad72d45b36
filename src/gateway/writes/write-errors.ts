import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../errors/public-error-code';

/** A write names a document that does not exist; raised before anything is written. */
export function notFound(message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.NOT_FOUND, ...details } });
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
