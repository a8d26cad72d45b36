import { BoundedHeap, smallest } from '../../../../src/embedded-mongo/query/top-k';

/** A deterministic pseudo-random sequence, so failures reproduce. */
function numbers(count: number, seed: number, modulo: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % modulo;
  });
}

describe('smallest (bounded heap)', () => {
  it('returns the first k of a full sort, ascending, for every k', () => {
    const values = numbers(200, 7, 1000);
    const sorted = [...values].sort((a, b) => a - b);
    for (const k of [1, 2, 5, 20, 199, 200, 500]) {
      expect(smallest(values, (a, b) => a - b, k)).toEqual(sorted.slice(0, k));
    }
  });

  it('keeps the earliest of equal keys when ties are broken by position (a stable sort prefix)', () => {
    const items = numbers(300, 3, 10).map((key, position) => ({ key, position }));
    const byKeyThenPosition = (a: { key: number; position: number }, b: { key: number; position: number }): number => a.key - b.key || a.position - b.position;
    const stable = [...items].sort((a, b) => a.key - b.key);
    expect(smallest(items, byKeyThenPosition, 25)).toEqual(stable.slice(0, 25));
  });

  it('keeps nothing for a capacity of 0 and everything when the capacity exceeds the input', () => {
    expect(smallest([3, 1, 2], (a, b) => a - b, 0)).toEqual([]);
    const heap = new BoundedHeap<number>(0, (a, b) => a - b);
    expect(heap.wouldKeep(1)).toBe(false);
    expect(smallest([3, 1, 2], (a, b) => a - b, 10)).toEqual([1, 2, 3]);
  });

  it('tells whether an item would be kept once the heap is full', () => {
    const heap = new BoundedHeap<number>(2, (a, b) => a - b);
    heap.offer(5);
    heap.offer(9);
    expect(heap.wouldKeep(7)).toBe(true);
    expect(heap.wouldKeep(9)).toBe(false);
    heap.offer(1);
    expect(heap.sorted()).toEqual([1, 5]);
  });
});
