import { createPrng, seedFromLabel } from '../../../seed/prng';

test('the same seed gives the same sequence; a different seed a different one', () => {
  const take = (seed: number) => Array.from({ length: 5 }, createPrng(seed).next);
  expect(take(42)).toEqual(take(42));
  expect(take(42)).not.toEqual(take(43));
  expect(take(42).every((x) => x >= 0 && x < 1)).toBe(true);
});

test('mulberry32 matches its reference output', () => {
  // Values computed with the widely published reference implementation (outputs * 2^32).
  const rng = createPrng(1);
  expect([rng.next(), rng.next(), rng.next()].map((x) => Math.round(x * 4294967296))).toEqual([
    2693262067, 11749833, 2265367787,
  ]);
  const other = createPrng(0xdeadbeef);
  for (let i = 0; i < 1_000; i++) other.next();
  expect(Math.round(other.next() * 4294967296)).toBe(1570522115);
});

test('int covers both bounds and nothing outside them', () => {
  const rng = createPrng(7);
  const seen = new Set<number>();
  for (let i = 0; i < 1_000; i++) seen.add(rng.int(3, 6));
  expect([...seen].sort()).toEqual([3, 4, 5, 6]);
});

test('distinctInts draws distinct values and refuses impossible requests', () => {
  const rng = createPrng(9);
  const drawn = rng.distinctInts(10, 10);
  expect([...drawn].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(() => rng.distinctInts(3, 2)).toThrow('distinctInts: cannot draw 3 distinct values from 2');
});

test('shuffle permutes in place; float rounds; letters are lowercase', () => {
  const rng = createPrng(11);
  const items = [1, 2, 3, 4, 5, 6, 7, 8];
  expect(rng.shuffle(items)).toBe(items);
  expect([...items].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(items).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  const value = rng.float(1, 2, 2);
  expect(Math.round(value * 100) / 100).toBe(value);
  expect(rng.letters(6)).toMatch(/^[a-z]{6}$/);
});

test('seedFromLabel is FNV-1a', () => {
  expect(seedFromLabel('')).toBe(0x811c9dc5);
  expect(seedFromLabel('a')).toBe(0xe40c292c);
});
