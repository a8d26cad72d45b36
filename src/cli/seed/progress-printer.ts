import type { DatabaseSummary } from '../../server/describe-database';
import type { OutputStream } from '../../command-line/cli-io';
import { createProgressLine } from '../../command-line/progress-line';

/** Seeding progress: one step per collection (see createProgressLine). */
export function createProgressPrinter(out: OutputStream): {
  onProgress: (collection: string, inserted: number, total: number) => void;
  finish: () => void;
} {
  const progress = createProgressLine(out);
  return {
    onProgress(collection, inserted, total) {
      progress.show(`seeding ${collection.padEnd(12)} ${formatCount(inserted).padStart(9)} / ${formatCount(total)}`, inserted === total);
    },
    finish: () => progress.finish(),
  };
}

export function formatSummary(summary: DatabaseSummary, target: string, scale: number, elapsedMs: number): string {
  const lines = [
    `Seeded ${target} at scale ${scale} in ${(elapsedMs / 1000).toFixed(1)}s: ` +
      `${formatCount(summary.documents)} documents in ${summary.counts.size} collections, ${summary.indexes} indexes.`,
    ...[...summary.counts].map(([collection, count]) => `  ${collection.padEnd(12)} ${formatCount(count).padStart(9)}`),
  ];
  return `${lines.join('\n')}\n`;
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
