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
 * Growth of resident memory from the first `windowMs` to the last: the median of each window, so one
 * garbage collection's peak does not decide it. A fraction (0.1 is 10% more).
 */
export function memoryGrowth(samples: ReadonlyArray<{ atMs: number; rssBytes: number }>, windowMs: number): { firstBytes: number; lastBytes: number; growth: number } {
  const end = samples[samples.length - 1]?.atMs ?? 0;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const firstBytes = median(samples.filter((sample) => sample.atMs <= windowMs).map((sample) => sample.rssBytes));
  const lastBytes = median(samples.filter((sample) => sample.atMs >= end - windowMs).map((sample) => sample.rssBytes));
  return { firstBytes, lastBytes, growth: firstBytes === 0 ? 0 : lastBytes / firstBytes - 1 };
}
