import type { ServerResponse } from 'node:http';

/** What the answers not yet taken by their clients may hold together, at least (see UnreadResponses). */
export const UNREAD_RESPONSE_BYTES = 256 * 1024 * 1024;

/** A smaller answer fits in the system's buffer for its socket: it holds no memory of the process. */
const TRACKED_FROM_BYTES = 64 * 1024;

/**
 * Bounds the memory held by answers their clients are slow to take. An answer is handed to its socket
 * whole, and what the client has not read stays in the process until the connection ends: a client
 * that never reads would hold its answer for good. Each answer not yet passed to the system in full is
 * tracked until it is (or its connection ends). One whose client took nothing for `stallMs` has its
 * connection closed, and while the tracked answers hold more than `budgetBytes` together, the one
 * waiting longest has its connection closed (the newest always stays).
 */
export class UnreadResponses {
  readonly #waiting = new Map<ServerResponse, { readonly bytes: number; written: number; progressAt: number }>();
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

  /** `response`, just ended with a body of `bytes`: tracked until its client has taken it, when it has not yet (and is large enough to matter). */
  track(response: ServerResponse, bytes: number): void {
    const socket = response.socket;
    if (bytes < TRACKED_FROM_BYTES || response.writableFinished || !socket || socket.destroyed) return;
    this.#waiting.set(response, { bytes, written: socket.bytesWritten, progressAt: Date.now() });
    this.#bytes += bytes;
    const release = (): void => this.#release(response);
    response.once('finish', release);
    response.once('close', release);
    for (const [oldest] of this.#waiting) {
      if (this.#bytes <= this.budgetBytes || oldest === response) break;
      this.#cut(oldest);
    }
    this.#timer ??= setInterval(() => this.#cutStalled(), Math.min(1000, this.stallMs)).unref();
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
    response.socket?.destroy();
  }

  #cutStalled(): void {
    const now = Date.now();
    for (const [response, entry] of this.#waiting) {
      const written = response.socket?.bytesWritten ?? entry.written;
      if (written !== entry.written) {
        entry.written = written;
        entry.progressAt = now;
      } else if (now - entry.progressAt >= this.stallMs) this.#cut(response);
    }
  }
}
