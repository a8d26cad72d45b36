import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffMs, TransactionRetries, type RetryClock } from '../../../../src/gateway/writes/transaction-retries';

/** A clock that moves only when slept on (or told to), drawing `draws` in turn; it logs every sleep. */
function fakeClock(draws: readonly number[]): RetryClock & { sleeps: number[]; advance(ms: number): void } {
  let now = 1_000;
  let next = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => draws[next++ % draws.length]!,
    advance: (ms) => {
      now += ms;
    },
  };
}

/** Asks `retries` after each failed attempt until it stops; returns how many attempts ran. */
async function attemptsUntilStopped(retries: TransactionRetries): Promise<number> {
  let attempts = 1;
  while (await retries.retryAfter(attempts)) attempts += 1;
  return attempts;
}

describe('backoffMs', () => {
  it('doubles from the base up to the cap, scaled by the draw (full jitter)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((retry) => backoffMs(retry, 1))).toEqual([15, 30, 60, 120, 240, 480, 500, 500]);
    expect([1, 2, 3].map((retry) => backoffMs(retry, 0.5))).toEqual([7.5, 15, 30]);
    expect(backoffMs(3, 0)).toBe(0);
    expect([BACKOFF_BASE_MS, BACKOFF_CAP_MS]).toEqual([15, 500]);
  });
});

describe('TransactionRetries', () => {
  it('waits the backoff before each retry and stops at maxAttempts', async () => {
    const clock = fakeClock([1, 0.5]);
    const retries = new TransactionRetries({ maxAttempts: 5, retryMs: 10_000 }, () => true, clock);
    expect(await attemptsUntilStopped(retries)).toBe(5);
    expect(clock.sleeps).toEqual([15, 15, 60, 60]);
    expect(retries.stoppedBy).toBe('attempts');
  });

  it('maxAttempts 1 never retries, and draws nothing', async () => {
    const clock = fakeClock([1]);
    const retries = new TransactionRetries({ maxAttempts: 1, retryMs: 10_000 }, () => true, clock);
    expect(await attemptsUntilStopped(retries)).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(retries.stoppedBy).toBe('attempts');
  });

  it('starts no retry whose backoff would end at or after retryMs from the first attempt', async () => {
    const clock = fakeClock([1]);
    const retries = new TransactionRetries({ maxAttempts: 100, retryMs: 500 }, () => true, clock);
    // Each attempt takes 50 ms: the 4th backoff (120) ends 425 ms after the first attempt started; the 5th (240) would end at 715.
    let attempts = 1;
    clock.advance(50);
    while (await retries.retryAfter(attempts)) {
      attempts += 1;
      clock.advance(50);
    }
    expect(attempts).toBe(5);
    expect(clock.sleeps).toEqual([15, 30, 60, 120]);
    expect(retries.stoppedBy).toBe('time');
  });

  it('retryMs 0 starts no retry', async () => {
    const retries = new TransactionRetries({ maxAttempts: 5, retryMs: 0 }, () => true, fakeClock([0]));
    expect(await attemptsUntilStopped(retries)).toBe(1);
    expect(retries.stoppedBy).toBe('time');
  });

  it('stops when the round-trip limit could not cover another attempt, before waiting', async () => {
    const clock = fakeClock([1]);
    let affordable = 2;
    const retries = new TransactionRetries({ maxAttempts: 5, retryMs: 10_000 }, () => affordable-- > 0, clock);
    expect(await attemptsUntilStopped(retries)).toBe(3);
    expect(clock.sleeps).toEqual([15, 30]);
    expect(retries.stoppedBy).toBe('roundTrips');
  });

  it('has not stopped while it allows retries', async () => {
    const retries = new TransactionRetries({ maxAttempts: 5, retryMs: 10_000 }, () => true, fakeClock([0]));
    expect(await retries.retryAfter(1)).toBe(true);
    expect(retries.stoppedBy).toBeUndefined();
  });
});
