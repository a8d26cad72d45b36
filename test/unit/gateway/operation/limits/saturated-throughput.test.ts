import { SaturatedThroughput } from '../../../../../src/gateway/operation/limits/saturated-throughput';

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let at = 0;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('SaturatedThroughput', () => {
  it('knows no rate until it has been saturated for 500 ms with two recent releases, and counts only releases while someone waits', () => {
    const clock = manualClock();
    const throughput = new SaturatedThroughput(clock.now);
    throughput.released(50);
    clock.advance(1_000);
    throughput.released(50);
    expect(throughput.ratePerMs()).toBeUndefined();
    throughput.saturated(true);
    clock.advance(400);
    throughput.released(10);
    throughput.released(10);
    expect(throughput.ratePerMs()).toBeUndefined();
    clock.advance(200);
    // 20 units in 600 ms saturated, all faded a little (the unsaturated second and its releases count for nothing).
    expect(throughput.ratePerMs()).toBeCloseTo(0.033, 3);
    expect(throughput.turnComesTooLate(0, 0)).toBe(false);
  });

  it('says a turn comes too late when the units ahead take longer than the time left at that rate', () => {
    const clock = manualClock();
    const throughput = new SaturatedThroughput(clock.now);
    throughput.saturated(true);
    clock.advance(1_000);
    for (let i = 0; i < 4; i++) throughput.released(1);
    // 4 per second: 8 releases fit in 2 s, 9 do not.
    expect(throughput.turnComesTooLate(8, 2_000)).toBe(false);
    expect(throughput.turnComesTooLate(9, 2_000)).toBe(true);
    expect(throughput.turnComesTooLate(1, 0)).toBe(true);
  });

  it('forgets: after a quiet minute, the rate is unknown again', () => {
    const clock = manualClock();
    const throughput = new SaturatedThroughput(clock.now);
    throughput.saturated(true);
    clock.advance(1_000);
    for (let i = 0; i < 10; i++) throughput.released(1);
    throughput.saturated(false);
    expect(throughput.ratePerMs()).toBeCloseTo(0.01, 5);
    clock.advance(60_000);
    expect(throughput.ratePerMs()).toBeUndefined();
    expect(throughput.turnComesTooLate(1_000_000, 1)).toBe(false);
  });
});
