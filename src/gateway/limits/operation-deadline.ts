import { OperationStopped, type StopReason } from '../errors/internal-errors';

/**
 * When one operation must stop: `timeoutMs` after it arrived, or as soon as its client goes away. The
 * funnel sends no read after that (the loaders' next batches fail at once) and gives each read the time
 * left as `maxTimeMS`, so MongoDB stops too. Work in memory (embedded and snapshot fields) is left to
 * finish: it is bounded by the document budget, and stopping it field by field would cost an error
 * per field. The timer does not keep the process alive.
 */
export class OperationDeadline {
  readonly #controller = new AbortController();
  readonly #expiresAt: number;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly timeoutMs: number) {
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new RangeError(`OperationDeadline needs a timeout of at least 1 ms, got ${timeoutMs}`);
    this.#expiresAt = Date.now() + timeoutMs;
    this.#timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    this.#timer.unref();
  }

  /** Aborts when the operation must stop; its reason is the OperationStopped error. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get stopReason(): StopReason | undefined {
    return this.#controller.signal.aborted ? (this.#controller.signal.reason as OperationStopped).reason : undefined;
  }

  /** Milliseconds left, at least 1 (a MongoDB `maxTimeMS` of 0 means no limit). */
  remainingMs(): number {
    return Math.max(1, this.#expiresAt - Date.now());
  }

  /** The first reason wins: a timed-out operation whose client then leaves stays timed out. */
  stop(reason: StopReason): void {
    clearTimeout(this.#timer);
    if (!this.#controller.signal.aborted) this.#controller.abort(new OperationStopped(reason, this.timeoutMs));
  }

  throwIfStopped(): void {
    if (this.#controller.signal.aborted) throw this.#controller.signal.reason as OperationStopped;
  }

  /** The operation finished: the timer is no longer needed. */
  finish(): void {
    clearTimeout(this.#timer);
  }
}
