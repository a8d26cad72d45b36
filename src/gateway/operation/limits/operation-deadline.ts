import { setMaxListeners } from 'node:events';
import { OperationStopped, type StopReason } from '../../errors/internal-errors';
import { MAX_TIMER_MS } from '../../../settings/setting-rules';

/** How long after its deadline an operation is cut off whatever it is waiting for (see overrunSignal). */
export const OVERRUN_MS = 250;

/**
 * When one operation must stop: `timeoutMs` after it arrived, as soon as its client goes away, or once
 * the response it builds is certain to be too large to send (response-size-guard.ts). The
 * funnel sends no read after that (the loaders' next batches fail at once) and gives each read the time
 * left as `maxTimeMS`, so MongoDB stops too. Work in memory (embedded and snapshot fields) is left to
 * finish: it is bounded by the document budget, and stopping it field by field would cost an error
 * per field.
 *
 * Most operations only ever ask whether they must stop, so the clock is read then; `signal` and its
 * timer exist only once something waits on it (a queue for admission or for the document budget).
 * The overrun, the backstop past the deadline, has its own timer, made for every request served over
 * HTTP and for each read; its AbortSignal (`overrunSignal`) only once a read asks for it. Neither timer
 * keeps the process alive.
 */
export class OperationDeadline {
  readonly #expiresAt: number;
  #stopped: OperationStopped | undefined;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #overrunTimer: NodeJS.Timeout | undefined;
  /** The overrun's reason, once it has fired. */
  #overran: OperationStopped | undefined;
  readonly #overrunListeners = new Set<(reason: OperationStopped) => void>();
  #overrunController: AbortController | undefined;
  #finished = false;
  /**
   * The response extensions of what the operation has cost so far (`{ cost: … }`), for the answer the
   * HTTP server gives at its overrun, before the operation has ended: set by the cost plugin once the
   * operation is estimated; undefined without a cost report.
   */
  extensionsSoFar: (() => Record<string, unknown>) | undefined;
  /** The operation was a mutation, which may have written whatever its answer: for the HTTP server's answer in its place. */
  ranMutation = false;

  constructor(readonly timeoutMs: number) {
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new RangeError(`OperationDeadline needs a timeout of at least 1 ms, got ${timeoutMs}`);
    this.#expiresAt = Date.now() + timeoutMs;
  }

  /** Aborts when the operation must stop; its reason is the OperationStopped error. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.stopped) this.#controller.abort(this.#stopped);
      else if (!this.#finished) {
        this.#timer = setTimeout(() => this.stop('timeout'), this.#expiresAt - Date.now());
        this.#timer.unref();
      }
    }
    return this.#controller.signal;
  }

  /**
   * Aborts OVERRUN_MS after the time is up (never on the client leaving), for what does not stop by
   * itself at the deadline: a read waiting for a server (maxTimeMS stops only a read MongoDB has
   * received, and during an outage the driver waits for its serverSelectionTimeoutMS, whatever the URI
   * set it to). The slack lets MongoDB's own maxTimeMS answer come first, so a timed-out read does not
   * cost the driver its connection. Its reason is the timeout's OperationStopped.
   */
  get overrunSignal(): AbortSignal {
    if (!this.#overrunController) {
      this.#overrunController = new AbortController();
      // Every read of the operation listens to it, and many run at once.
      setMaxListeners(0, this.#overrunController.signal);
      if (this.#overran) this.#overrunController.abort(this.#overran);
      else this.#armOverrun();
    }
    return this.#overrunController.signal;
  }

  /**
   * Calls `listener` with the overrun's reason when the operation overruns (at once if it has), as
   * overrunSignal aborts, without the cost of an AbortSignal: the HTTP answer's backstop. Returns the
   * function that stops listening.
   */
  onOverrun(listener: (reason: OperationStopped) => void): () => void {
    if (this.#overran) {
      listener(this.#overran);
      return () => undefined;
    }
    this.#overrunListeners.add(listener);
    this.#armOverrun();
    return () => this.#overrunListeners.delete(listener);
  }

  #armOverrun(): void {
    if (this.#overrunTimer || this.#finished) return;
    this.#overrunTimer = setTimeout(() => {
      this.stop('timeout');
      const reason = (this.#overran = new OperationStopped('timeout', this.timeoutMs));
      this.#overrunController?.abort(reason);
      for (const listener of this.#overrunListeners) listener(reason);
      this.#overrunListeners.clear();
      // A Node timer past MAX_TIMER_MS fires at once: the longest time limit waits its overrun out at most that long.
    }, Math.min(this.#expiresAt + OVERRUN_MS - Date.now(), MAX_TIMER_MS));
    this.#overrunTimer.unref();
  }

  /** Whether the operation must stop (its time is up, or it was stopped). */
  get stopped(): boolean {
    if (this.#stopped === undefined && !this.#finished && Date.now() >= this.#expiresAt) this.stop('timeout');
    return this.#stopped !== undefined;
  }

  get stopReason(): StopReason | undefined {
    return this.stoppedBy?.reason;
  }

  /** Why the operation must stop, as the error its reads fail with; undefined while it may go on. */
  get stoppedBy(): OperationStopped | undefined {
    return this.stopped ? this.#stopped : undefined;
  }

  /** Milliseconds left, at least 1 (a MongoDB `maxTimeMS` of 0 means no limit). */
  remainingMs(): number {
    return Math.max(1, this.#expiresAt - Date.now());
  }

  /**
   * The first reason wins: a timed-out operation whose client then leaves stays timed out.
   * `maxResponseBytes`: the limit a response too large is over.
   */
  stop(reason: StopReason, maxResponseBytes?: number): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    this.#stopped = !this.#finished && Date.now() >= this.#expiresAt ? new OperationStopped('timeout', this.timeoutMs) : new OperationStopped(reason, this.timeoutMs, maxResponseBytes);
    this.#controller?.abort(this.#stopped);
  }

  throwIfStopped(): void {
    if (this.stopped) throw this.#stopped!;
  }

  /**
   * The operation finished: its time no longer runs out, and no overrun answer will need its cost. The
   * deadline often lives long enough to be promoted to V8's old generation, where a dead object keeps
   * what it points to alive until the next full collection: kept, the report's closure held each
   * request's cost ledger and estimate past the young generation's collections (under load, 15% more
   * CPU per request on the peer benchmark's books query).
   */
  finish(): void {
    this.extensionsSoFar = undefined;
    this.#finished = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#overrunTimer);
    this.#overrunListeners.clear();
  }
}
