import type { Document } from 'mongodb';
import { keyString } from '../../gateway';

/** The distinct non-null values of `field` in `rows`, array values contributing their elements, in row order. */
export function distinctValues(rows: readonly Document[], field: string): unknown[] {
  const values = new Map<string, unknown>();
  for (const row of rows) {
    for (const value of elements(row[field])) {
      const key = keyString(value);
      if (!values.has(key)) values.set(key, value);
    }
  }
  return [...values.values()];
}

/** The non-null values a row's field holds: its elements when it is an array (a path through an array). */
export function elements(value: unknown): unknown[] {
  const all = Array.isArray(value) ? value.flat(Infinity) : [value];
  return all.filter((element) => element !== null && element !== undefined);
}

/**
 * `count` of `values` chosen uniformly at random (a partial Fisher–Yates shuffle), or all of them when
 * there are no more: the keys counted are a random subset even when the rows came in storage order.
 */
export function pickAtRandom<T>(values: readonly T[], count: number, random: () => number = Math.random): T[] {
  if (values.length <= count) return [...values];
  const pool = [...values];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}
