import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../../errors/public-error-code';
import type { OperationDeadline } from './operation-deadline';
import { SaturatedThroughput } from './saturated-throughput';

interface Waiting {
  readonly documents: number;
  readonly deadline: OperationDeadline;
  readonly admit: () => void;
  readonly refuse: (error: GraphQLError) => void;
}

/**
 * Bounds the documents the operations running at once may fetch, by their estimates: an operation
 * takes its estimated documents from the budget before it executes and gives them back when its
 * response is sent. One that does not fit waits, first come first served (a large operation is not
 * overtaken forever by small ones), until it fits or its deadline stops the wait. An estimate above
 * the whole budget takes all of it, so it runs alone rather than never. One whose turn, at the rate
 * documents come back while operations wait (SaturatedThroughput), comes after its deadline is refused
 * with 503 OVERLOADED when it asks or as soon as that is known, rather than answered 504 at its deadline.
 */
export class DocumentBudget {
  #inFlight = 0;
  readonly #waiting: Waiting[] = [];

  constructor(
    readonly capacity: number,
    private readonly throughput = new SaturatedThroughput(),
  ) {
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
      const ahead = this.#inFlight + this.#waiting.reduce((sum, waiting) => sum + waiting.documents, 0) + documents - this.capacity;
      if (this.throughput.turnComesTooLate(ahead, deadline.remainingMs())) throw turnTooLate();
      await new Promise<void>((resolve, reject) => {
        const { signal } = deadline;
        const leave = () => {
          this.#remove(entry);
          this.#admitWaiting();
          reject(signal.reason);
        };
        const entry: Waiting = {
          documents,
          deadline,
          admit: () => {
            signal.removeEventListener('abort', leave);
            resolve();
          },
          refuse: (error) => {
            signal.removeEventListener('abort', leave);
            reject(error);
          },
        };
        signal.addEventListener('abort', leave, { once: true });
        this.#waiting.push(entry);
        this.throughput.saturated(true);
      });
    } else {
      this.#inFlight += documents;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= documents;
      this.throughput.released(documents);
      this.#admitWaiting();
      this.#refuseLate();
    };
  }

  /** Admits waiting operations in order while the first of them fits (its documents are taken for it here). */
  #admitWaiting(): void {
    while (this.#waiting.length > 0 && this.#inFlight + this.#waiting[0]!.documents <= this.capacity) {
      const next = this.#waiting.shift()!;
      this.#inFlight += next.documents;
      next.admit();
    }
    if (this.#waiting.length === 0) this.throughput.saturated(false);
  }

  /** Refuses, in order, each waiting operation whose turn comes after its deadline at the measured rate. */
  #refuseLate(): void {
    let ahead = this.#inFlight - this.capacity;
    for (const waiting of [...this.#waiting]) {
      ahead += waiting.documents;
      if (!this.throughput.turnComesTooLate(ahead, waiting.deadline.remainingMs())) continue;
      ahead -= waiting.documents;
      this.#remove(waiting);
      waiting.refuse(turnTooLate());
    }
    if (this.#waiting.length === 0) this.throughput.saturated(false);
  }

  #remove(waiting: Waiting): void {
    this.#waiting.splice(this.#waiting.indexOf(waiting), 1);
    if (this.#waiting.length === 0) this.throughput.saturated(false);
  }
}

/** 503 OVERLOADED for an operation that would wait past its deadline for the documents it needs. */
function turnTooLate(): GraphQLError {
  return new GraphQLError('docjoin is at capacity: at the rate running operations finish, this one could not start before its time limit; retry shortly', {
    extensions: { code: PublicErrorCode.OVERLOADED, http: { status: 503, headers: new Map([['retry-after', '1']]) } },
  });
}
