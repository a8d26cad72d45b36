import type { Distribution } from './statistics-types';

/**
 * p50, p99, max and mean of `values`; undefined when there are none. Percentiles by nearest rank: the
 * value at rank ⌈p/100 × n⌉ in ascending order, so each is a value that was measured, and a sample
 * holding a whole collection gives the collection's exact percentiles.
 */
export function distributionOf(values: readonly number[]): Distribution | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (percent: number) => sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)]!;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return { count: sorted.length, p50: at(50), p99: at(99), max: sorted[sorted.length - 1]!, mean: total / sorted.length };
}
