import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../errors/public-error-code';

/** A write names a document that does not exist; raised before anything is written. */
export function notFound(message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.NOT_FOUND, ...details } });
}

/** Thrown by the test-only `failAfterWrites` hook: the process "dies" between two writes. */
export class InjectedWriteFailure extends Error {
  override readonly name = 'InjectedWriteFailure';
  constructor(readonly afterWrites: number) {
    super(`injected failure after ${afterWrites} write command(s)`);
  }
}
