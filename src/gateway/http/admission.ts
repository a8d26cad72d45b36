/**
 * Admission control for GraphQL requests: at most `maxConcurrent` run at once, at most `maxQueued` wait
 * their turn (first come, first served), and any more are refused at once, so a burst costs a fast 503
 * instead of memory and time. A waiting request whose client goes away leaves the queue.
 */
export class Admission {
  #running = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {}

  /**
   * Resolves with a release function once the request may run; with undefined when the queue is full
   * (refuse it) or the client left while it waited (`abandoned`).
   */
  async enter(abandoned: () => boolean): Promise<(() => void) | undefined> {
    if (this.#running < this.maxConcurrent) {
      this.#running += 1;
      return this.#release();
    }
    if (this.#queue.length >= this.maxQueued) return undefined;
    // The slot is taken for it when it is admitted (#next), so no newcomer can slip in between.
    await new Promise<void>((admit) => this.#queue.push(admit));
    const release = this.#release();
    if (!abandoned()) return release;
    release();
    return undefined;
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

  /** Hands the free slot to the first waiting request (which starts, or leaves if its client has gone). */
  #next(): void {
    const admit = this.#queue.shift();
    if (!admit) return;
    this.#running += 1;
    admit();
  }
}
