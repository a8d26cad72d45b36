/**
 * A tiny seeded PRNG (mulberry32) so the demo data is identical on every run and machine.
 * Math.random cannot be seeded; a 32-bit generator is plenty for picking demo values.
 */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** A float in [min, max) rounded to `decimals` places. */
  float(min: number, max: number, decimals: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** `count` distinct integers from [0, size), in the order they were drawn. */
  distinctInts(count: number, size: number): number[];
  /** `length` random lowercase letters. */
  letters(length: number): string;
  /** Shuffles `items` in place (Fisher–Yates) and returns it. */
  shuffle<T>(items: T[]): T[];
}

// Local bindings: under jest's vm sandbox every `Math.x` is a slow global lookup, and the
// generator calls these a few million times at scale 1.
const { floor, imul, round } = Math;

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + floor(next() * (max - min + 1));
  return {
    next,
    int,
    float(min, max, decimals) {
      const factor = 10 ** decimals;
      return round((min + next() * (max - min)) * factor) / factor;
    },
    pick(items) {
      if (items.length === 0) throw new Error('pick: cannot pick from an empty list');
      return items[floor(next() * items.length)] as (typeof items)[number];
    },
    chance(p) {
      return next() < p;
    },
    distinctInts(count, size) {
      if (count > size) throw new Error(`distinctInts: cannot draw ${count} distinct values from ${size}`);
      const drawn = new Set<number>();
      // Rejection sampling: callers draw a handful of values from a much larger range.
      while (drawn.size < count) drawn.add(floor(next() * size));
      return [...drawn];
    },
    letters(length) {
      let letters = '';
      for (let i = 0; i < length; i++) letters += String.fromCharCode(97 + floor(next() * 26));
      return letters;
    },
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i--) {
        const j = floor(next() * (i + 1));
        const held = items[i] as (typeof items)[number];
        items[i] = items[j] as (typeof items)[number];
        items[j] = held;
      }
      return items;
    },
  };
}

/** A stable 32-bit seed from a label (FNV-1a), so each collection gets its own independent stream. */
export function seedFromLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
