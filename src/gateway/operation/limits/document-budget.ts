import type { OperationDeadline } from './operation-deadline';

/**
 * Bounds the documents the operations running at once may fetch, by their estimates: an operation
 * takes its estimated documents from the budget before it executes and gives them back when its
 * response is sent. One that does not fit waits, first come first served (a large operation is not
 * overtaken forever by small ones), until it fits or its deadline stops the wait. An estimate above
 * the whole budget takes all of it, so it runs alone rather than never.
 */
export class DocumentBudget {
  #inFlight = 0;
  readonly #waiting: Array<{ readonly documents: number; readonly admit: () => void }> = [];

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`DocumentBudget needs a capacity of at least 1 document, got ${capacity}`);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves with the release function once `estimatedDocuments` fit; rejects with the OperationStopped error if `deadline` stops first. */
  async acquire(estimatedDocuments: number, deadline: OperationDeadline): Promise<() => void> {
    const documents = Math.min(Math.max(0, estimatedDocuments), this.capacity);
    deadline.throwIfStopped();
    if (this.#waiting.length > 0 || this.#inFlight + documents > this.capacity) {
      await new Promise<void>((resolve, reject) => {
        const { signal } = deadline;
        const entry = {
          documents,
          admit: () => {
            signal.removeEventListener('abort', leave);
            resolve();
          },
        };
        const leave = () => {
          this.#waiting.splice(this.#waiting.indexOf(entry), 1);
          this.#admitWaiting();
          reject(signal.reason);
        };
        signal.addEventListener('abort', leave, { once: true });
        this.#waiting.push(entry);
      });
    } else {
      this.#inFlight += documents;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= documents;
      this.#admitWaiting();
    };
  }

  /** Admits waiting operations in order while the first of them fits (its documents are taken for it here). */
  #admitWaiting(): void {
    while (this.#waiting.length > 0 && this.#inFlight + this.#waiting[0]!.documents <= this.capacity) {
      const next = this.#waiting.shift()!;
      this.#inFlight += next.documents;
      next.admit();
    }
  }
}
