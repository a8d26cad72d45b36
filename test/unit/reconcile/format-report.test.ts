import { formatReport } from '../../../src/reconcile/format-report';
import type { DriftReport, ReconcileReport } from '../../../src/reconcile/reconcile-types';

function check(coordinate: string, kind: DriftReport['kind'], scanned: number, drifted: number): DriftReport {
  return { coordinate, kind, collection: 'c', scanned, drifted, fixed: 0, dangling: 0, missing: 0, entries: scanned, sampleIds: [] };
}

function report(checks: DriftReport[]): ReconcileReport {
  return { fix: false, checks, drifted: checks.reduce((sum, one) => sum + one.drifted, 0), fixed: 0, mismatches: [], warnings: [] };
}

/** Where each line's "scanned" starts: the counts line up when every line has it at one column. */
function scannedColumns(text: string): number[] {
  return text.split('\n').filter((line) => line.includes(' scanned ')).map((line) => line.indexOf(' scanned '));
}

describe('formatReport', () => {
  it('lines the counts up under names of the usual length', () => {
    const text = formatReport(report([check('Book.authors', 'snapshot', 5, 0), check('Author.countOfBooks', 'counter', 12_000, 3)]), 'shop', 1200);
    expect(text).toBe(
      'Reconciled shop in 1.2s:\n' +
        '  Book.authors             snapshot              5 scanned       0 drifted\n' +
        '  Author.countOfBooks      counter          12,000 scanned       3 drifted\n' +
        'Drift in 3 documents over 1 of 2 checks; run with --fix to repair.\n',
    );
  });

  it('widens the name column to the longest Type.field, so the counts stay in one column', () => {
    const long = 'WarehouseShipment.destinationWarehouseSnapshot.address';
    const columns = scannedColumns(formatReport(report([check('Book.authors', 'snapshot', 5, 0), check(long, 'bounded-array', 7, 0)]), 'shop', 10));
    expect(columns).toHaveLength(2);
    expect(new Set(columns).size).toBe(1);
    expect(columns[0]).toBeGreaterThan(long.length);
  });
});
