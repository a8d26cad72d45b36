import { describeEstimateViolation } from 'docjoin';
import type { EstimateViolationLog } from './estimate-violation-log';

/** Throws (and empties the log) when anything was recorded, listing each operation and its numbers. */
export function assertNoEstimateViolations(log: EstimateViolationLog, where: string): void {
  const violations = log.take();
  if (violations.length === 0) return;
  throw new Error(
    `The static cost estimate was below the measured cost in ${where} (${violations.length} violation${violations.length === 1 ? '' : 's'}):\n` +
      violations.map((violation) => `  - ${describeEstimateViolation(violation)}`).join('\n'),
  );
}
