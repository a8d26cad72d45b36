import { distributionOf } from './distribution';
import type { ArrayGrowth, ChildGrowth } from './statistics-types';
import { DAY_MS } from './time-field';

/**
 * Entries an array gains per day of its parent's age: the least-squares slope of length against time,
 * negated (an older parent has a smaller time). Needs two parents of different times.
 */
export function arrayGrowth(timePath: string, points: ReadonlyArray<{ readonly time: number; readonly length: number }>): ArrayGrowth | undefined {
  if (points.length < 2) return undefined;
  const meanTime = points.reduce((sum, point) => sum + point.time, 0) / points.length;
  const meanLength = points.reduce((sum, point) => sum + point.length, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.time - meanTime) * (point.length - meanLength);
    variance += (point.time - meanTime) ** 2;
  }
  if (variance === 0) return undefined;
  const times = points.map((point) => point.time);
  return {
    timePath,
    parents: points.length,
    spanDays: (Math.max(...times) - Math.min(...times)) / DAY_MS,
    // 0 - x keeps a flat slope from reading -0
    entriesPerDay: 0 - (covariance / variance) * DAY_MS,
  };
}

/**
 * Children each key gains per day: (children − 1) / days from its oldest to its newest child, over keys
 * whose oldest and newest differ in time.
 */
export function childGrowth(timePath: string, keys: ReadonlyArray<{ readonly children: number; readonly oldest: number; readonly newest: number }>): ChildGrowth | undefined {
  const rates = keys.filter((key) => key.newest > key.oldest).map((key) => (key.children - 1) / ((key.newest - key.oldest) / DAY_MS));
  const childrenPerDay = distributionOf(rates);
  return childrenPerDay && { timePath, keys: rates.length, childrenPerDay };
}
