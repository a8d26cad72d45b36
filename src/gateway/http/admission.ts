import type { OperationDeadline } from '../operation/limits/operation-deadline';
import { MAX_BODY_BYTES } from './read-json-body';

/** What the request bodies being read at once may buffer together (64 bodies of the largest size). */
export const BODY_BYTES_IN_FLIGHT = 64 * MAX_BODY_BYTES;

/** The bytes of one request body being read, taken as they arrive (Admission.startReading). */
export interface BodyReservation {
  /** Whether `bytes` more of the body may be buffered: false once the bodies being read would buffer more than BODY_BYTES_IN_FLIGHT. */
  take(bytes: number): boolean;
  /** The body is read (or abandoned): what it took is free again. */
  release(): void;
}

/**
 * Admission control for GraphQL requests: at most `maxConcurrent` run at once, at most `maxQueued` wait
 * their turn (first come, first served), and any more are refused at once, so a burst costs a fast 503
 * instead of memory and time. A waiting request leaves the queue after `queueTimeoutMs` (HAProxy's
 * `timeout queue`: the server is overloaded, and a 503 lets the client go elsewhere), or as soon as
 * its deadline stops it (its time is up, or its client went away).
 */
export class Admission {
  #running = 0;
  #readingBytes = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
    readonly queueTimeoutMs: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Resolves with a release function once the request may run; with undefined when the queue is full, it waited `queueTimeoutMs`, or `deadline` stopped first. */
  async enter(deadline: OperationDeadline): Promise<(() => void) | undefined> {
    if (deadline.stopped) return undefined;
    if (this.#running < this.maxConcurrent) {
      this.#running += 1;
      return this.#release();
    }
    if (this.#queue.length >= this.maxQueued) return undefined;
    // The slot is taken for it when it is admitted (#next), so no newcomer can slip in between.
    const admitted = await new Promise<boolean>((resolve) => {
      const { signal } = deadline;
      let timer: NodeJS.Timeout | undefined;
      const admit = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', leave);
        this.#queue.splice(this.#queue.indexOf(admit), 1);
        resolve(false);
      };
      signal.addEventListener('abort', leave, { once: true });
      if (Number.isFinite(this.queueTimeoutMs)) {
        timer = setTimeout(leave, this.queueTimeoutMs);
        timer.unref();
      }
      this.#queue.push(admit);
    });
    return admitted ? this.#release() : undefined;
  }

  /**
   * A request's body is about to be read, before the request asks for a slot, so that a slow upload
   * holds none: undefined, to answer 503 at once without reading it, when every slot and place in the
   * queue is taken. Otherwise its reservation, which takes the bytes as they arrive: a body that would
   * make those being read buffer more than BODY_BYTES_IN_FLIGHT together is refused there. A client
   * that declares a large body and sends nothing holds nothing.
   */
  startReading(): BodyReservation | undefined {
    if (this.#running >= this.maxConcurrent && this.#queue.length >= this.maxQueued) return undefined;
    let held = 0;
    let released = false;
    return {
      take: (bytes) => {
        if (released || this.#readingBytes + bytes > BODY_BYTES_IN_FLIGHT) return false;
        this.#readingBytes += bytes;
        held += bytes;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.#readingBytes -= held;
      },
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
      this.#next();
    };
  }

  /** Hands the free slot to the first waiting request. */
  #next(): void {
    const admit = this.#queue.shift();
    if (!admit) return;
    this.#running += 1;
    admit();
  }
}
