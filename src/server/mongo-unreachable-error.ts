/**
 * The configured MongoDB could not be connected to (unreachable, refused, timed out, or refused the
 * credentials). Commands print its message as one line: it names the redacted URI and the driver's reason.
 */
export class MongoUnreachableError extends Error {
  override readonly name = 'MongoUnreachableError';

  constructor(
    readonly redactedUri: string,
    readonly reason: string,
  ) {
    super(`cannot reach MongoDB at ${redactedUri}: ${reason}`);
  }
}

/** The first line of a driver error's message (server selection errors can carry more). */
export function firstLineOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').find((line) => line.trim() !== '') ?? message;
}
