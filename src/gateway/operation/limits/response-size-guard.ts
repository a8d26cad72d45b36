import { OperationTypeNode } from 'graphql';
import type { OperationDeadline } from './operation-deadline';
import { OperationStopped } from '../../errors/internal-errors';
import type { ConnectionValue } from '../planning/connection-page';

/**
 * Stops an operation whose response is certain to exceed `maxBytes` before it is built. Each relation
 * field and stored list of leaves adds, as it resolves, the fewest bytes its values will take
 * (plan/response-bytes.ts): a few aliases under lists of lists make a response of millions of values
 * from a short query and a few documents, and building and serializing it would hold the event loop for
 * seconds. Once the least size is over the limit, the field fails with RESPONSE_TOO_LARGE. A query's
 * deadline stops too (no read is sent after that, every field counted after it fails), and its answer
 * is that one error (operation-deadline-plugin.ts). A mutation's field fails alone, its bytes taken
 * back, and the deadline goes on: the fields after it still read back what they wrote.
 */
export class ResponseSizeGuard {
  #leastBytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly deadline: OperationDeadline,
  ) {}

  /** Counts `bytes` more of an `operation`'s response; throws once the response cannot fit. */
  add(bytes: number, operation: OperationTypeNode): void {
    this.#leastBytes += bytes;
    if (this.#leastBytes <= this.maxBytes) return;
    if (operation === OperationTypeNode.MUTATION) {
      // The field answers null: what it would have held is not in the response.
      this.#leastBytes -= bytes;
      throw new OperationStopped('response-too-large', this.deadline.timeoutMs, this.maxBytes);
    }
    this.deadline.stop('response-too-large', this.maxBytes);
    this.deadline.throwIfStopped();
  }
}

/** The objects a field's value puts in the response: a list's entries but its nulls, a connection's page items, one document or none. */
export function responseObjects(value: unknown, connection: boolean): number {
  if (value === null || value === undefined) return 0;
  const items = connection ? (value as ConnectionValue).nodes : value;
  if (!Array.isArray(items)) return 1;
  let objects = 0;
  for (const item of items) if (item !== null && item !== undefined) objects += 1;
  return objects;
}
