import type { OperationDeadline } from '../operation/limits/operation-deadline';
import type { LendableSlot } from '../operation/limits/lendable-slot';
import { MAX_BODY_BYTES } from './read-json-body';

/** A running request's slot: released once its answer is out; lent while it waits for the document budget. */
export interface AdmissionSlot extends LendableSlot {
  release(): void;
}

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
 *
 * A running request that waits for the document budget lends its slot to the next queued one (a small
 * query then runs while large ones wait for documents, instead of queueing behind them), and takes one
 * back ahead of the queue once it may read. While lent, the slot counts against `maxQueued`, and a slot
 * freed by lending is taken at once only while no more than `maxConcurrent + maxQueued` requests are held.
 */
export class Admission {
  #running = 0;
  /** Admitted requests whose slot is lent while they wait for the document budget. */
  #lent = 0;
  /** The requests at the head of the queue that wait to take a lent slot back, in the order they asked. */
  #returning = 0;
  #readingBytes = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
    readonly queueTimeoutMs: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Resolves with the request's slot once it may run; with undefined when the queue is full, it waited `queueTimeoutMs`, or `deadline` stopped first. */
  async enter(deadline: OperationDeadline): Promise<AdmissionSlot | undefined> {
    if (deadline.stopped) return undefined;
    if (this.#mayRunNow()) {
      this.#running += 1;
      return this.#slot();
    }
    if (this.#queueFull()) return undefined;
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
    return admitted ? this.#slot() : undefined;
  }

  /**
   * A request's body is about to be read, before the request asks for a slot, so that a slow upload
   * holds none: undefined, to answer 503 at once without reading it, when every slot and place in the
   * queue is taken. Otherwise its reservation, which takes the bytes as they arrive: a body that would
   * make those being read buffer more than BODY_BYTES_IN_FLIGHT together is refused there. A client
   * that declares a large body and sends nothing holds nothing.
   */
  startReading(): BodyReservation | undefined {
    if (!this.#mayRunNow() && this.#queueFull()) return undefined;
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

  /** Requests admitted that lent their slot while they wait for the document budget. */
  get lent(): number {
    return this.#lent;
  }

  #queueFull(): boolean {
    return this.#queue.length + this.#lent >= this.maxQueued;
  }

  /**
   * Whether a newcomer takes a free slot at once: a slot is free and the requests held (running, lent
   * and queued) stay within `maxConcurrent + maxQueued`. A slot freed by lending is not free past that:
   * heavy requests that each lend theirs would otherwise be taken without end.
   */
  #mayRunNow(): boolean {
    return this.#running < this.maxConcurrent && this.#running + this.#lent + this.#queue.length < this.maxConcurrent + this.maxQueued;
  }

  /** A slot just taken (#running counts it): released once, lent and taken back any number of times. */
  #slot(): AdmissionSlot {
    let state: 'held' | 'lent' | 'waiting' | 'released' = 'held';
    /** While it waits to take a slot back: leaves the queue and rejects that wait with `reason`. */
    let giveUp: ((reason: unknown) => void) | undefined;
    const takeBack = async (deadline: OperationDeadline): Promise<void> => {
      if (state !== 'lent') return;
      this.#lent -= 1;
      if (this.#running < this.maxConcurrent) {
        this.#running += 1;
        state = 'held';
        return;
      }
      state = 'waiting';
      await new Promise<void>((resolve, reject) => {
        const { signal } = deadline;
        const admit = () => {
          signal.removeEventListener('abort', leave);
          giveUp = undefined;
          state = 'held';
          resolve();
        };
        const leave = () => giveUp?.(signal.reason);
        giveUp = (reason) => {
          signal.removeEventListener('abort', leave);
          this.#queue.splice(this.#queue.indexOf(admit), 1);
          this.#returning -= 1;
          giveUp = undefined;
          state = 'released';
          reject(reason);
        };
        // Ahead of every queued request (it may hold documents of the budget already), behind those taking theirs back before it.
        this.#queue.splice(this.#returning++, 0, admit);
        signal.addEventListener('abort', leave, { once: true });
        if (signal.aborted) leave();
      });
    };
    return {
      lend: () => {
        if (state !== 'held') throw new Error(`an admission slot ${state} cannot be lent`);
        state = 'lent';
        this.#running -= 1;
        this.#lent += 1;
        this.#next();
        return { takeBack };
      },
      release: () => {
        if (state === 'held') {
          this.#running -= 1;
          this.#next();
        } else if (state === 'lent') this.#lent -= 1;
        else if (state === 'waiting') giveUp?.(new Error('the request ended while it waited to run again'));
        state = 'released';
      },
    };
  }

  /** Hands the free slot to the first waiting request. */
  #next(): void {
    const admit = this.#queue.shift();
    if (!admit) return;
    if (this.#returning > 0) this.#returning -= 1;
    this.#running += 1;
    admit();
  }
}
