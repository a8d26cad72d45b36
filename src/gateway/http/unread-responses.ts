import type { ServerResponse } from 'node:http';

/** What the answers not yet taken by their clients may hold together, at least (see UnreadResponses). */
export const UNREAD_RESPONSE_BYTES = 256 * 1024 * 1024;

/** A smaller answer fits in the system's buffer for its socket: it holds no memory of the process. */
const TRACKED_FROM_BYTES = 64 * 1024;

/** A tracked answer is written in pieces of this size: each one the system takes is progress. */
const PIECE_BYTES = 1024 * 1024;

/**
 * Sends answers, and bounds the memory held by those their clients are slow to take. What a client
 * has not read stays in the process until the connection ends: a client that never reads would hold
 * its answer for good. An answer of TRACKED_FROM_BYTES or more is written in pieces and tracked until
 * the system has taken the last (or its connection ends). One whose client took no piece for
 * `stallMs` has its connection closed, and while the tracked answers hold more than `budgetBytes`
 * together, the one waiting longest has its connection closed (the newest always stays).
 */
export class UnreadResponses {
  readonly #waiting = new Map<ServerResponse, { readonly bytes: number; progressAt: number }>();
  #bytes = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly budgetBytes: number,
    readonly stallMs: number,
  ) {}

  /** The bytes the answers being taken hold, by their sizes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Ends `response` with `body` (`bytes` long in UTF-8), tracking it while its client takes it when it is large enough to matter. */
  send(response: ServerResponse, body: string, bytes: number): void {
    // A response without its socket yet (pipelined behind another) is tracked too: it waits in the process.
    if (bytes < TRACKED_FROM_BYTES || response.destroyed || response.socket?.destroyed) {
      response.end(body);
      return;
    }
    const entry = { bytes, progressAt: Date.now() };
    this.#waiting.set(response, entry);
    this.#bytes += bytes;
    const release = (): void => this.#release(response);
    response.once('finish', release);
    response.once('close', release);
    for (const [oldest] of this.#waiting) {
      if (this.#bytes <= this.budgetBytes || oldest === response) break;
      this.#cut(oldest);
    }
    this.#timer ??= setInterval(() => this.#cutStalled(), Math.min(1000, this.stallMs)).unref();
    const encoded = Buffer.from(body);
    response.setHeader('content-length', encoded.length);
    // One piece after the other: pieces written together would go out in one write, taken all at once or not at all.
    const writeFrom = (at: number): void => {
      if (at >= encoded.length) {
        response.end();
        return;
      }
      response.write(encoded.subarray(at, at + PIECE_BYTES), (error) => {
        if (error) return;
        entry.progressAt = Date.now();
        writeFrom(at + PIECE_BYTES);
      });
    };
    writeFrom(0);
  }

  #release(response: ServerResponse): void {
    const entry = this.#waiting.get(response);
    if (!entry) return;
    this.#waiting.delete(response);
    this.#bytes -= entry.bytes;
    if (this.#waiting.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #cut(response: ServerResponse): void {
    this.#release(response);
    // Its connection: now, or once a pipelined response gets it.
    response.destroy();
  }

  #cutStalled(): void {
    const now = Date.now();
    for (const [response, entry] of this.#waiting) if (now - entry.progressAt >= this.stallMs) this.#cut(response);
  }
}
