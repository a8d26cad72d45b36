import { setTimeout as sleep } from 'node:timers/promises';
import type { TransactionRetryGate } from '../request/mongo/mongo-funnel';

/** How far a write unit's transaction may be retried (gateway options maxTransactionAttempts, transactionRetryMs). */
export interface TransactionRetryBounds {
  /** Runs of the unit's work, the first included (1: never retried). */
  readonly maxAttempts: number;
  /** No retry starts later than this many milliseconds after the first attempt started. */
  readonly retryMs: number;
}

export const DEFAULT_MAX_TRANSACTION_ATTEMPTS = 8;
export const DEFAULT_TRANSACTION_RETRY_MS = 2_000;

export const BACKOFF_BASE_MS = 15;
export const BACKOFF_CAP_MS = 500;

/** Which bound stopped the retries: the attempt count, the time, or the operation's round-trip limit. */
export type RetryLimit = 'attempts' | 'time' | 'roundTrips';

/**
 * The wait before retry `retry` (1 = before the second attempt): "full jitter", a uniform draw from
 * [0, min(cap, base · 2^(retry−1))). Exponential growth spreads a burst of conflicting mutations over
 * more time each round; the random draw keeps them from conflicting again in lockstep.
 */
export function backoffMs(retry: number, random: number): number {
  return random * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
}

/** Time and chance as the retries see them; tests pass their own. */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

const SYSTEM_CLOCK: RetryClock = { now: () => performance.now(), sleep: (ms) => sleep(ms), random: Math.random };

/**
 * One write unit's retries (the funnel asks after each attempt that failed with a transient error).
 * Another attempt starts after its backoff, unless the unit has had `maxAttempts`, or the operation's
 * round-trip limit could not cover one more (`mayAffordRetry`, CostLedger.mayRetry), or it could not
 * start within `retryMs` of the first. `stoppedBy` then says which.
 */
export class TransactionRetries implements TransactionRetryGate {
  readonly #started: number;
  #stoppedBy: RetryLimit | undefined;

  constructor(
    private readonly bounds: TransactionRetryBounds,
    private readonly mayAffordRetry: () => boolean,
    private readonly clock: RetryClock = SYSTEM_CLOCK,
  ) {
    this.#started = clock.now();
  }

  get stoppedBy(): RetryLimit | undefined {
    return this.#stoppedBy;
  }

  async retryAfter(failedAttempts: number): Promise<boolean> {
    if (failedAttempts >= this.bounds.maxAttempts) return this.#stop('attempts');
    if (!this.mayAffordRetry()) return this.#stop('roundTrips');
    const wait = backoffMs(failedAttempts, this.clock.random());
    if (this.clock.now() + wait - this.#started >= this.bounds.retryMs) return this.#stop('time');
    await this.clock.sleep(wait);
    return true;
  }

  #stop(limit: RetryLimit): false {
    this.#stoppedBy = limit;
    return false;
  }
}
