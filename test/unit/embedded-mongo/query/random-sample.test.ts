import { randomSample } from '../../../../src/embedded-mongo/query/random-sample';

describe('randomSample', () => {
  it('picks distinct items in the order a partial Fisher–Yates shuffle draws them', () => {
    const draws = [0.99, 0, 0.5];
    let next = 0;
    // 10 items: position 0 swaps with 9, position 1 with itself, position 2 with 2 + floor(0.5 × 8) = 6
    expect(randomSample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 3, () => draws[next++]!)).toEqual([9, 1, 6]);
  });

  it('returns every item once when asked for as many or more', () => {
    const all = randomSample(['a', 'b', 'c'], 5);
    expect([...all].sort()).toEqual(['a', 'b', 'c']);
    expect(randomSample([], 3)).toEqual([]);
    expect(randomSample([1, 2], 0)).toEqual([]);
  });

  it('never repeats an item, whatever the draws', () => {
    expect(new Set(randomSample([0, 1, 2, 3, 4], 5, () => 0.999999)).size).toBe(5);
    expect(new Set(randomSample([0, 1, 2, 3, 4], 5, () => 0)).size).toBe(5);
  });
});
