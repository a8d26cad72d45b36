import { SourceSample, sampledId } from '../../../../src/gateway/workload/source-sample';

/** Ids 0…n−1 changed `changesOf(id)` times each, in one sample or split over several merged ones. */
function changes(n: number, changesOf: (id: number) => number): Array<[number, number]> {
  return Array.from({ length: n }, (_, id) => [id, changesOf(id)]);
}

function sampled(entries: Array<[number, number]>, size: number): SourceSample {
  const sample = new SourceSample(size);
  for (const [id, times] of entries) for (let i = 0; i < times; i++) sample.addId(id);
  return sample;
}

describe('SourceSample', () => {
  it('keeps every id while there are fewer than its size, with its exact changes', () => {
    const sample = sampled(changes(3, (id) => id + 1), 8);
    expect(sample.entries().map(({ id, changes: count }) => [sampledId(id), count])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });

  it('keeps at most its size of distinct ids, each with all of its changes however they interleave', () => {
    const entries = changes(500, (id) => 1 + (id % 7));
    const sample = new SourceSample(32);
    // Round-robin: every id changes once per round, so a kept id must have been kept since its first change.
    for (let round = 0; round < 7; round++) for (const [id, times] of entries) if (round < times) sample.addId(id);
    const kept = sample.entries();
    expect(kept).toHaveLength(32);
    for (const { id, changes: count } of kept) expect(count).toBe(1 + ((sampledId(id) as number) % 7));
  });

  it('merges windows into the sample of them all', () => {
    const all = changes(300, (id) => 1 + (id % 3));
    const whole = sampled(all, 16);
    const merged = new SourceSample(16);
    for (const part of [all.slice(0, 100), all.slice(100, 250), all.slice(250)]) {
      for (const { id, changes: count } of sampled(part, 16).entries()) merged.add(id, count);
    }
    expect(merged.entries()).toEqual(whole.entries());
  });

  it('keys ids by their canonical Extended JSON, so an id read back is the id recorded', () => {
    const sample = new SourceSample();
    sample.addId('abc');
    sample.addId(42);
    expect(sample.entries().map(({ id }) => sampledId(id))).toEqual(['abc', 42]);
  });
});

describe('sample keys', () => {
  it('are the canonical Extended JSON of { id }, whatever the id', () => {
    const { EJSON, ObjectId, Long } = jest.requireActual<typeof import('bson')>('bson');
    for (const id of [new ObjectId(), 'a "quoted" \\ string', 7, Long.fromNumber(8), 2.5, new Date(0)]) {
      const sample = new SourceSample();
      sample.addId(id);
      expect(sample.entries()[0]!.id).toBe(EJSON.stringify({ id }, { relaxed: false }));
    }
  });
});
