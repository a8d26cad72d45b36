import { distributionOf } from '../../../../src/advise/statistics/distribution';
import { arrayGrowth, childGrowth } from '../../../../src/advise/statistics/growth';
import { sampleSizeFor } from '../../../../src/advise/statistics/sample-collection';
import { pickAtRandom } from '../../../../src/advise/statistics/sampled-keys';

const DAY = 24 * 60 * 60 * 1000;

describe('distributionOf', () => {
  it('takes percentiles by nearest rank, so each is a measured value', () => {
    expect(distributionOf([4, 1, 3, 2])).toEqual({ count: 4, p50: 2, p99: 4, max: 4, mean: 2.5 });
    expect(distributionOf(Array.from({ length: 100 }, (_, i) => i + 1))).toMatchObject({ p50: 50, p99: 99, max: 100 });
    expect(distributionOf([7])).toEqual({ count: 1, p50: 7, p99: 7, max: 7, mean: 7 });
    expect(distributionOf([])).toBeUndefined();
  });
});

describe('growth', () => {
  it('is the slope of length against age, per day', () => {
    expect(arrayGrowth('createdAt', [0, 1, 2].map((day) => ({ time: day * DAY, length: 10 - 3 * day })))).toEqual({ timePath: 'createdAt', parents: 3, spanDays: 2, entriesPerDay: 3 });
    expect(arrayGrowth('createdAt', [0, 1].map((day) => ({ time: day * DAY, length: 5 })))!.entriesPerDay).toBe(0);
    expect(arrayGrowth('createdAt', [{ time: 0, length: 1 }, { time: 0, length: 2 }])).toBeUndefined();
  });

  it('counts children added per key per day between its oldest and newest child', () => {
    expect(childGrowth('time', [{ children: 5, oldest: 0, newest: 2 * DAY }, { children: 2, oldest: DAY, newest: DAY }])).toEqual({ timePath: 'time', keys: 1, childrenPerDay: { count: 1, p50: 2, p99: 2, max: 2, mean: 2 } });
    expect(childGrowth('time', [])).toBeUndefined();
  });
});

describe('sampleSizeFor', () => {
  it('samples a collection no bigger than the sample (or 100 documents) whole', () => {
    expect(sampleSizeFor(0, 1000)).toBe(1000);
    expect(sampleSizeFor(1000, 1000)).toBe(1000);
    expect(sampleSizeFor(100, 10)).toBe(10);
  });

  it('stays under 5% of a bigger collection, where MongoDB samples with a random cursor', () => {
    expect(sampleSizeFor(2000, 1000)).toBe(99);
    expect(sampleSizeFor(20_001, 1000)).toBe(1000);
    expect(sampleSizeFor(1_000_000, 1000)).toBe(1000);
  });
});

describe('pickAtRandom', () => {
  it('keeps every value when there are no more than asked, else that many distinct ones', () => {
    expect(pickAtRandom([1, 2, 3], 3)).toEqual([1, 2, 3]);
    let next = 0;
    const picked = pickAtRandom([1, 2, 3, 4, 5], 2, () => [0.99, 0][next++]!);
    expect(picked).toEqual([5, 2]);
  });
});
