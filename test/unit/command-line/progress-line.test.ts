import { createProgressLine } from '../../../src/command-line/progress-line';
import { createReconcileProgress } from '../../../src/reconcile/format-report';

function buffer(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (text: string) => chunks.push(text) };
}

describe('createProgressLine', () => {
  it('rewrites one line in place on a terminal, and clears it when finished', () => {
    const out = buffer(true);
    const progress = createProgressLine(out);
    progress.show('step a 1 / 2', false);
    progress.show('step a 2 / 2', true);
    progress.finish();
    expect(out.chunks).toEqual(['\r\x1b[2Kstep a 1 / 2', '\r\x1b[2Kstep a 2 / 2', '\r\x1b[2K']);
  });

  it('prints one plain line per finished step elsewhere (CI logs, pipes), and nothing to clear', () => {
    const out = buffer(false);
    const progress = createProgressLine(out);
    progress.show('step a 1 / 2', false);
    progress.show('step a 2 / 2', true);
    progress.show('step b 0 / 5', false);
    progress.finish();
    expect(out.chunks).toEqual(['step a 2 / 2\n']);
  });
});

describe('createReconcileProgress', () => {
  it('reports each check once it has scanned every document, so CI logs show reconcile advancing', () => {
    const out = buffer(false);
    const progress = createReconcileProgress(out);
    progress.onProgress({ kind: 'snapshot', coordinate: 'Book.authors', scanned: 500, total: 1_000 });
    progress.onProgress({ kind: 'snapshot', coordinate: 'Book.authors', scanned: 1_000, total: 1_000 });
    progress.onProgress({ kind: 'counter', coordinate: 'Author.countOfBooks', scanned: 200, total: 200 });
    progress.finish();
    expect(out.chunks).toEqual(['checking snapshot Book.authors 1,000 / 1,000\n', 'checking counter Author.countOfBooks 200 / 200\n']);
  });
});
