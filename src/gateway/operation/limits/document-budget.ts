import type { OperationDeadline } from './operation-deadline';

/** An operation estimated at this share of the budget or less is small: it may pass a large one waiting. */
const SMALL_SHARE = 0.01;
/** What the small operations that passed others may hold together. */
const SMALL_LANE_SHARE = 0.1;

interface Waiting {
  readonly documents: number;
  /** Lets it run; `passed` when it went ahead of others waiting (it then counts against the small lane). */
  readonly admit: (passed: boolean) => void;
}

/**
 * Bounds the documents the operations running at once may fetch, by their estimates: an operation
 * takes its estimated documents from the budget before it executes and gives them back when its
 * response is sent. One that does not fit waits, first come first served, until it fits or its
 * deadline stops the wait; an estimate above the whole budget takes all of it, so it runs alone.
 *
 * A small operation (at most SMALL_SHARE of the budget) that fits what is free goes ahead of the
 * operation waiting first, within a lane of SMALL_LANE_SHARE, so a cheap query is not held for
 * seconds behind a heavy one; small ones keep their own order. They pass only while that first one
 * could not run even with the lane empty: once only the lane holds it back, none passes, the lane
 * drains, and it runs.
 */
export class DocumentBudget {
  #inFlight = 0;
  /** Documents held by small operations that went ahead of others. */
  #passing = 0;
  readonly #waiting: Waiting[] = [];
  readonly #smallMax: number;
  readonly #laneCapacity: number;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`DocumentBudget needs a capacity of at least 1 document, got ${capacity}`);
    this.#smallMax = Math.floor(capacity * SMALL_SHARE);
    this.#laneCapacity = Math.floor(capacity * SMALL_LANE_SHARE);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Resolves with the release function once `estimatedDocuments` fit; rejects with the OperationStopped
   * error if `deadline` stops first. `onWait` is called, before the wait, when they do not fit at once.
   */
  async acquire(estimatedDocuments: number, deadline: OperationDeadline, onWait?: () => void): Promise<() => void> {
    const documents = Math.min(Math.max(0, estimatedDocuments), this.capacity);
    deadline.throwIfStopped();
    let passed = false;
    if (this.#waiting.length === 0 && this.#inFlight + documents <= this.capacity) {
      this.#take(documents, false);
    } else if (!this.#smallOneWaits() && this.#mayPass(documents)) {
      this.#take(documents, true);
      passed = true;
    } else {
      onWait?.();
      passed = await new Promise<boolean>((resolve, reject) => {
        const { signal } = deadline;
        const entry: Waiting = {
          documents,
          admit: (went) => {
            signal.removeEventListener('abort', leave);
            resolve(went);
          },
        };
        const leave = () => {
          this.#waiting.splice(this.#waiting.indexOf(entry), 1);
          this.#admitWaiting();
          reject(signal.reason);
        };
        this.#waiting.push(entry);
        signal.addEventListener('abort', leave, { once: true });
        // Its time ran out between the check above and the signal's making: no abort event will come.
        if (signal.aborted) leave();
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= documents;
      if (passed) this.#passing -= documents;
      this.#admitWaiting();
    };
  }

  /**
   * Whether a small operation may go ahead of the first one waiting: it fits what is free and the lane,
   * and that first one could not run even with the lane empty.
   */
  #mayPass(documents: number): boolean {
    const first = this.#waiting[0];
    // A small one waiting first keeps its place among the small ones.
    if (!first || documents > this.#smallMax || first.documents <= this.#smallMax) return false;
    const heldBack = this.#inFlight - this.#passing + first.documents > this.capacity;
    return heldBack && this.#inFlight + documents <= this.capacity && this.#passing + documents <= this.#laneCapacity;
  }

  /** Whether a small operation waits behind the first one: a newcomer does not pass it. */
  #smallOneWaits(): boolean {
    return this.#waiting.some((waiting, index) => index > 0 && waiting.documents <= this.#smallMax);
  }

  #take(documents: number, passed: boolean): void {
    this.#inFlight += documents;
    if (passed) this.#passing += documents;
  }

  /**
   * Admits waiting operations in order while the first of them fits (its documents are taken for it
   * here), then the small ones behind it, in their order, while they may pass it.
   */
  #admitWaiting(): void {
    while (this.#waiting.length > 0 && this.#inFlight + this.#waiting[0]!.documents <= this.capacity) {
      const next = this.#waiting.shift()!;
      this.#take(next.documents, false);
      next.admit(false);
    }
    for (const waiting of this.#waiting.slice(1)) {
      if (waiting.documents > this.#smallMax) continue;
      if (!this.#mayPass(waiting.documents)) break;
      this.#waiting.splice(this.#waiting.indexOf(waiting), 1);
      this.#take(waiting.documents, true);
      waiting.admit(true);
    }
  }
}
