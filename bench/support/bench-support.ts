/** What the benchmarks share: the median they report, and the latency the embedded server adds (BENCH_LATENCY_MS). */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds the embedded server delays each reply: BENCH_LATENCY_MS, else `defaultMs`. */
export function latencyFromEnv(defaultMs: number): number {
  const raw = process.env.BENCH_LATENCY_MS;
  if (raw === undefined || raw.trim() === '') return defaultMs;
  const latencyMs = Number(raw);
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new Error(`BENCH_LATENCY_MS must be a number ≥ 0, got "${raw}"`);
  return latencyMs;
}
