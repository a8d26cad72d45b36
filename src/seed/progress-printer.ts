import type { DemoCollectionName } from './demo-documents';
import type { SeedSummary } from './seed-database';

export interface OutputStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Seeding progress for a terminal: on a TTY one line rewritten in place; elsewhere (CI logs,
 * pipes) one plain line per finished collection, since carriage returns would garble them.
 */
export function createProgressPrinter(out: OutputStream): {
  onProgress: (collection: DemoCollectionName, inserted: number, total: number) => void;
  /** Clears the in-place line, if any, so the summary starts on a clean line. */
  finish: () => void;
} {
  let lineOpen = false;
  return {
    onProgress(collection, inserted, total) {
      const line = `seeding ${collection.padEnd(12)} ${formatCount(inserted).padStart(9)} / ${formatCount(total)}`;
      if (out.isTTY) {
        out.write(`\r\x1b[2K${line}`);
        lineOpen = true;
      } else if (inserted === total) {
        out.write(`${line}\n`);
      }
    },
    finish() {
      if (lineOpen) out.write('\r\x1b[2K');
      lineOpen = false;
    },
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
