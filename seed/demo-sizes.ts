import type { DemoCollectionName } from './demo-documents';

/** Bounds of the embedded arrays, matching the `limit`s declared in schema/domain.graphql. */
export const RECENT_COMMENTS_LIMIT = 3;
export const RECENT_LOGS_LIMIT = 10;

export const TASKS_PER_PERSON = 3;
export const LOG_MESSAGES_PER_HOST = 1_000;

/** Documents per collection at scale 1. */
const SCALE_ONE_SIZES = {
  people: 500,
  stocks: 50,
  posts: 300,
  comments: 10_000,
  publishers: 20,
  books: 1_000,
  authors: 200,
  products: 200,
  parts: 2_000,
  hosts: 100,
} as const;

export type DemoSizes = Record<DemoCollectionName, number>;

/**
 * Documents per collection at `scale` (linear; any positive number, so 0.1 makes a small set).
 * Every collection keeps at least one document; tasks and log messages are fixed multiples of
 * people and hosts so "3 tasks per person" and "1,000 messages per host" hold at every scale.
 */
export function demoSizes(scale: number): DemoSizes {
  assertValidScale(scale);
  const scaled = (base: number): number => Math.max(1, Math.round(base * scale));
  const people = scaled(SCALE_ONE_SIZES.people);
  const hosts = scaled(SCALE_ONE_SIZES.hosts);
  return {
    people,
    stocks: scaled(SCALE_ONE_SIZES.stocks),
    tasks: people * TASKS_PER_PERSON,
    posts: scaled(SCALE_ONE_SIZES.posts),
    comments: scaled(SCALE_ONE_SIZES.comments),
    publishers: scaled(SCALE_ONE_SIZES.publishers),
    books: scaled(SCALE_ONE_SIZES.books),
    authors: scaled(SCALE_ONE_SIZES.authors),
    products: scaled(SCALE_ONE_SIZES.products),
    parts: scaled(SCALE_ONE_SIZES.parts),
    hosts,
    logMessages: hosts * LOG_MESSAGES_PER_HOST,
  };
}

export function assertValidScale(scale: number): void {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    throw new RangeError(`scale must be a finite number greater than 0, got ${String(scale)}`);
  }
}
