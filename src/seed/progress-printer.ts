import type { DemoCollectionName } from './demo-documents';
import type { SeedSummary } from './seed-database';
import type { OutputStream } from '../cli/cli-io';
import { createProgressLine } from '../cli/progress-line';

/** Seeding progress: one step per collection (see createProgressLine). */
export function createProgressPrinter(out: OutputStream): {
  onProgress: (collection: DemoCollectionName, inserted: number, total: number) => void;
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

export function formatSummary(summary: SeedSummary, target: string, elapsedMs: number): string {
  const entries = Object.entries(summary.counts) as [DemoCollectionName, number][];
  const totalDocuments = entries.reduce((sum, [, count]) => sum + count, 0);
  const indexCount = Object.values(summary.indexes).reduce((sum, names) => sum + (names?.length ?? 0), 0);
  const lines = [
    `Seeded ${target} at scale ${summary.scale} in ${(elapsedMs / 1000).toFixed(1)}s: ` +
      `${formatCount(totalDocuments)} documents in ${entries.length} collections, ${indexCount} indexes.`,
    ...entries.map(([collection, count]) => `  ${collection.padEnd(12)} ${formatCount(count).padStart(9)}`),
  ];
  return `${lines.join('\n')}\n`;
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
