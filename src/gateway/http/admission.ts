import type { OperationDeadline } from '../operation/limits/operation-deadline';
import { SaturatedThroughput } from '../operation/limits/saturated-throughput';
import { MAX_BODY_BYTES } from './read-json-body';

interface Queued {
  readonly deadline: OperationDeadline;
  /** Lets it run (true) or refuses it (false). */
  readonly settle: (admitted: boolean) => void;
}

/** What the request bodies being read at once may buffer together (64 bodies of the largest size). */
export const BODY_BYTES_IN_FLIGHT = 64 * MAX_BODY_BYTES;

/**
 * Admission control for GraphQL requests: at most `maxConcurrent` run at once, at most `maxQueued` wait
 * their turn (first come, first served), and any more are refused at once, so a burst costs a fast 503
 * instead of memory and time. A waiting request leaves the queue as soon as its deadline stops it (its
 * time is up, or its client went away), and is refused as soon as its turn, at the rate operations
 * finish while others wait (SaturatedThroughput), would come after its deadline.
 */
export class Admission {
  #running = 0;
  #readingBytes = 0;
  readonly #queue: Queued[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
    private readonly throughput = new SaturatedThroughput(),
  ) {}

  /** Resolves with a release function once the request may run; with undefined when the queue is full or `deadline` stopped first. */
  async enter(deadline: OperationDeadline): Promise<(() => void) | undefined> {
    if (deadline.stopped) return undefined;
    if (this.#running < this.maxConcurrent) {
      this.#running += 1;
      return this.#release();
    }
    if (this.#queue.length >= this.maxQueued || this.throughput.turnComesTooLate(this.#queue.length + 1, deadline.remainingMs())) return undefined;
    // The slot is taken for it when it is admitted (#next), so no newcomer can slip in between.
    const admitted = await new Promise<boolean>((resolve) => {
      const { signal } = deadline;
      const leave = () => {
        this.#remove(queued);
        resolve(false);
      };
      const queued: Queued = {
        deadline,
        settle: (admitted) => {
          signal.removeEventListener('abort', leave);
          resolve(admitted);
        },
      };
      signal.addEventListener('abort', leave, { once: true });
      this.#queue.push(queued);
      this.throughput.saturated(true);
    });
    return admitted ? this.#release() : undefined;
  }

  /**
   * A request's body of `bytes` (at most MAX_BODY_BYTES; that when its length is not declared) is
   * about to be read, before the request asks for a slot, so that a slow upload holds none: undefined,
   * to answer 503 at once without reading it, when every slot and place in the queue is taken, or when
   * the bodies arriving would buffer more than BODY_BYTES_IN_FLIGHT together. Otherwise the function
   * to call once the body is read.
   */
  startReading(bytes: number | undefined): (() => void) | undefined {
    const full = this.#running >= this.maxConcurrent && this.#queue.length >= this.maxQueued;
    const reserved = Math.min(bytes ?? MAX_BODY_BYTES, MAX_BODY_BYTES);
    if (full || this.#readingBytes + reserved > BODY_BYTES_IN_FLIGHT) return undefined;
    this.#readingBytes += reserved;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#readingBytes -= reserved;
    };
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      this.throughput.released(1);
      this.#next();
      this.#refuseLate();
    };
  }

  /** Hands the free slot to the first waiting request. */
  #next(): void {
    const queued = this.#queue.shift();
    if (this.#queue.length === 0) this.throughput.saturated(false);
    if (!queued) return;
    this.#running += 1;
    queued.settle(true);
  }

  /** Refuses, in order, each waiting request whose turn comes after its deadline at the measured rate. */
  #refuseLate(): void {
    let ahead = 0;
    for (const queued of [...this.#queue]) {
      if (!this.throughput.turnComesTooLate(ahead + 1, queued.deadline.remainingMs())) {
        ahead += 1;
        continue;
      }
      this.#remove(queued);
      queued.settle(false);
    }
  }

  #remove(queued: Queued): void {
    this.#queue.splice(this.#queue.indexOf(queued), 1);
    if (this.#queue.length === 0) this.throughput.saturated(false);
  }
}
