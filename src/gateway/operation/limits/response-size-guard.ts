import type { OperationDeadline } from './operation-deadline';

/**
 * Stops an operation whose response is certain to exceed `maxBytes` before it is built. Each relation
 * field adds, as it resolves, the fewest bytes its values will take (plan/response-bytes.ts): a few
 * aliases under lists of lists make a response of millions of values from a short query and a few
 * documents, and building and serializing it would hold the event loop for seconds. Once the least
 * size is over the limit, the deadline stops the operation (no read is sent after that) and the field
 * fails; the answer is RESPONSE_TOO_LARGE (operation-deadline-plugin.ts).
 */
export class ResponseSizeGuard {
  #leastBytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly deadline: OperationDeadline,
  ) {}

  /** Counts `bytes` more; throws the operation's stop once the response cannot fit. */
  add(bytes: number): void {
    this.#leastBytes += bytes;
    if (this.#leastBytes <= this.maxBytes) return;
    this.deadline.stop('response-too-large', this.maxBytes);
    this.deadline.throwIfStopped();
  }
}
