/**
 * Every demo date is derived from this fixed instant, never from the current time, so the same
 * scale always produces byte-identical documents. Log messages and comments end shortly before it;
 * task due dates straddle it.
 */
export const DEMO_EPOCH_MS = Date.UTC(2026, 0, 1, 0, 0, 0);

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
