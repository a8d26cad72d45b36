import type { OutputStream } from '../command-line/cli-io';
import { createProgressLine } from '../command-line/progress-line';
import type { ReconcileProgress, ReconcileReport } from './reconcile-types';

/**
 * Terminal output of `docjoin reconcile`: one progress line, then one line per check and a verdict.
 * What makes the run fail (missing collections, snapshots that dangle everywhere) goes to stderr from cli.ts;
 * the verdict's exit code is the command's.
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
  // The name columns are as wide as their longest entry, so a long Type.field keeps the counts in line.
  const coordinateWidth = Math.max(24, ...report.checks.map((check) => check.coordinate.length));
  const kindWidth = Math.max(13, ...report.checks.map((check) => check.kind.length));
  const lines = report.checks.map((check) => {
    const fixed = report.fix ? ` ${count(check.fixed).padStart(7)} fixed` : '';
    const dangling = check.dangling > 0 ? `, ${count(check.dangling)} dangling` : '';
    const missing = check.missing > 0 ? `, ${count(check.missing)} missing` : '';
    const samples = check.sampleIds.length > 0 ? `  e.g. ${check.sampleIds.join(', ')}` : '';
    return `  ${check.coordinate.padEnd(coordinateWidth)} ${check.kind.padEnd(kindWidth)} ${count(check.scanned).padStart(9)} scanned ${count(check.drifted).padStart(7)} drifted${fixed}${dangling}${missing}${samples}`;
  });
  return `Reconciled ${target} in ${(elapsedMs / 1000).toFixed(1)}s:\n${lines.join('\n')}\n${reconcileVerdict(report).text}\n`;
}

/**
 * The one verdict of a run, its text and its exit code together, so they cannot disagree: 1 when the
 * data does not look like what the schema describes (`mismatches`), 3 when anything is left wrong
 * (drift not fixed, copies pointing at no source, copies missing), else 0.
 */
export function reconcileVerdict(report: ReconcileReport): { text: string; exitCode: 0 | 1 | 3 } {
  if (report.mismatches.length > 0) {
    return { text: `Not reconciled: the data does not look like what the schema describes (${plural(report.mismatches.length, 'reason', 'reasons')} below).`, exitCode: 1 };
  }
  const drifting = report.checks.filter((check) => check.drifted > 0).length;
  const left = report.drifted - report.fixed;
  const drift =
    report.drifted === 0
      ? 'No drift'
      : `Drift in ${plural(report.drifted, 'document', 'documents')} over ${drifting} of ${report.checks.length} checks${report.fix ? `; fixed ${count(report.fixed)}` : '; run with --fix to repair'}`;
  const dangling = report.checks.reduce((sum, check) => sum + check.dangling, 0);
  const missing = report.checks.reduce((sum, check) => sum + check.missing, 0);
  const unfixable = [
    ...(dangling > 0 ? [`${plural(dangling, 'copy points', 'copies point')} at no source document (delete or re-point those parents)`] : []),
    ...(missing > 0 ? [`${plural(missing, 'copy is', 'copies are')} missing (a required one absent, or no document where a copy goes) with no key saying what to copy (write those parents again, or backfill with docjoin migrate)`] : []),
  ];
  const warned = report.warnings.length > 0 ? ` (${plural(report.warnings.length, 'warning', 'warnings')} below)` : '';
  if (unfixable.length === 0) return { text: `${drift}${warned}.`, exitCode: left > 0 ? 3 : 0 };
  return { text: `${drift}; left wrong, which --fix cannot repair: ${unfixable.join('; ')}${warned}.`, exitCode: 3 };
}

function plural(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
