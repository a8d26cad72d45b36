import { createProgressPrinter, formatSummary } from '../../../src/cli/seed/progress-printer';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, write: (text: string) => written.push(text) } };
}

test('on a TTY every report rewrites one line in place, and finish clears it', () => {
  const { written, out } = stream(true);
  const printer = createProgressPrinter(out);
  printer.onProgress('logMessages', 0, 100_000);
  printer.onProgress('logMessages', 5_000, 100_000);
  printer.finish();
  expect(written).toEqual([
    '\r\x1b[2Kseeding logMessages          0 / 100,000',
    '\r\x1b[2Kseeding logMessages      5,000 / 100,000',
    '\r\x1b[2K',
  ]);
});

test('elsewhere one plain line per finished collection, and finish writes nothing', () => {
  const { written, out } = stream(false);
  const printer = createProgressPrinter(out);
  printer.onProgress('people', 0, 500);
  printer.onProgress('people', 500, 500);
  printer.onProgress('comments', 5_000, 10_000);
  printer.onProgress('comments', 10_000, 10_000);
  printer.finish();
  expect(written).toEqual([
    'seeding people             500 / 500\n',
    'seeding comments        10,000 / 10,000\n',
  ]);
});

test('the summary gives the total, the elapsed time, the indexes and each count', () => {
  const text = formatSummary(
    { counts: new Map([['people', 500], ['comments', 10_000]]), documents: 10_500, indexes: 2 },
    'docjoin on mongodb://localhost',
    1,
    3_456,
  );
  expect(text).toBe(
    'Seeded docjoin on mongodb://localhost at scale 1 in 3.5s: 10,500 documents in 2 collections, 2 indexes.\n' +
      '  people             500\n' +
      '  comments        10,000\n',
  );
});
