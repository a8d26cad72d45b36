import type { OutputStream } from '../command-line/cli-io';
import { createProgressLine } from '../command-line/progress-line';
import type { ReconcileProgress, ReconcileReport } from './reconcile-types';

/**
 * Terminal output of `docjoin reconcile`: one progress line, then one line per check and a verdict.
 * What makes the run fail (missing collections, snapshots that dangle everywhere) goes to stderr from cli.ts.
 */

/** Reconcile progress: one step per check (see createProgressLine). */
export function createReconcileProgress(out: OutputStream): { onProgress: (progress: ReconcileProgress) => void; finish: () => void } {
  const progress = createProgressLine(out);
  return {
    onProgress({ kind, coordinate, scanned, total }) {
      progress.show(`checking ${kind} ${coordinate} ${count(scanned)} / ${count(total)}`, scanned === total);
    },
    finish: () => progress.finish(),
  };
}

export function formatReport(report: ReconcileReport, target: string, elapsedMs: number): string {
  const lines = report.checks.map((check) => {
    const fixed = report.fix ? ` ${count(check.fixed).padStart(7)} fixed` : '';
    const dangling = check.dangling > 0 ? `, ${count(check.dangling)} dangling` : '';
    const samples = check.sampleIds.length > 0 ? `  e.g. ${check.sampleIds.join(', ')}` : '';
    return `  ${check.coordinate.padEnd(24)} ${check.kind.padEnd(13)} ${count(check.scanned).padStart(9)} scanned ${count(check.drifted).padStart(7)} drifted${fixed}${dangling}${samples}`;
  });
  const drifting = report.checks.filter((check) => check.drifted > 0).length;
  const verdict =
    report.drifted === 0
      ? 'No drift.'
      : `Drift in ${count(report.drifted)} documents over ${drifting} of ${report.checks.length} checks${report.fix ? `; fixed ${count(report.fixed)}.` : '; run with --fix to repair.'}`;
  return `Reconciled ${target} in ${(elapsedMs / 1000).toFixed(1)}s:\n${lines.join('\n')}\n${verdict}\n`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
