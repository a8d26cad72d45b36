import { readFileSync } from 'node:fs';

/** Resident memory of a process from /proc, sampled every `intervalMs` until `stop()`. */
export function sampleMemory(pid: number, intervalMs = 1000): { stop(): Array<{ atMs: number; rssBytes: number }> } {
  const samples: Array<{ atMs: number; rssBytes: number }> = [];
  const start = Date.now();
  const take = () => {
    try {
      const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kib) samples.push({ atMs: Date.now() - start, rssBytes: Number(kib) * 1024 });
    } catch {
      // The process is gone.
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/**
 * Growth of resident memory from the first `windowMs` to the last, each window judged by its lowest
 * sample: memory right after a collection, which a leak raises and garbage between collections does
 * not. A fraction (0.1 is 10% more).
 */
export function memoryGrowth(samples: ReadonlyArray<{ atMs: number; rssBytes: number }>, windowMs: number): { firstBytes: number; lastBytes: number; growth: number } {
  const end = samples[samples.length - 1]?.atMs ?? 0;
  const lowest = (values: number[]) => (values.length === 0 ? 0 : Math.min(...values));
  const firstBytes = lowest(samples.filter((sample) => sample.atMs <= windowMs).map((sample) => sample.rssBytes));
  const lastBytes = lowest(samples.filter((sample) => sample.atMs >= end - windowMs).map((sample) => sample.rssBytes));
  return { firstBytes, lastBytes, growth: firstBytes === 0 ? 0 : lastBytes / firstBytes - 1 };
}
