import type { WorkloadSummary } from '../../gateway';

/**
 * What one more command or one more rewritten copy costs, in milliseconds of MongoDB commands as the
 * gateway measured them on the recorded workload (command monitoring: the network and the database).
 * A write command costs what a single-document write took on average, plus, per further document it
 * modifies, what the multi-document writes took beyond that, per document. Without a multi-document
 * write recorded, a rewritten copy is priced at ASSUMED_COSTS' documentMs.
 *
 * A workload recorded without command times is priced with ASSUMED_COSTS, and its total from its
 * round trips and the documents its mutations modified.
 */
export interface CommandCosts {
  readonly readMs: number;
  readonly writeMs: number;
  readonly documentMs: number;
  /** Every command of the workload, summed. */
  readonly totalMs: number;
  /** From the recorded command times, or assumed (a workload recorded before they were). */
  readonly source: 'measured' | 'assumed';
}

/**
 * 1 ms a command, 0.2 ms a further document a write modifies: what the embedded server took for the
 * demo's `updateHost` (1,001 documents in about 210 ms) on a 2-core machine. A real MongoDB is faster
 * per document, so this prices copies higher than they cost, never lower.
 */
export const ASSUMED_COSTS = { commandMs: 1, documentMs: 0.2 } as const;

export function commandCosts(workload: WorkloadSummary): CommandCosts {
  const times = workload.commands;
  const mean = (commands: number, ms: number) => (commands === 0 ? undefined : ms / commands);
  const readMs = mean(times.reads.commands, times.reads.ms);
  const writeMs = mean(times.singleWrites.commands, times.singleWrites.ms) ?? readMs;
  if (readMs === undefined || writeMs === undefined) {
    const roundTrips = workload.operations.query.roundTrips + workload.operations.mutation.roundTrips;
    const documents = workload.mutations.reduce((sum, mutation) => sum + mutation.documentsModified, 0);
    const { commandMs, documentMs } = ASSUMED_COSTS;
    return { readMs: commandMs, writeMs: commandMs, documentMs, totalMs: roundTrips * commandMs + documents * documentMs, source: 'assumed' };
  }
  const multi = times.multiWrites;
  const further = multi.documents - multi.commands;
  const documentMs = further > 0 ? Math.max(0, (multi.ms - writeMs * multi.commands) / further) : ASSUMED_COSTS.documentMs;
  const totalMs = times.reads.ms + times.singleWrites.ms + times.multiWrites.ms + times.others.ms;
  return { readMs, writeMs, documentMs, totalMs, source: 'measured' };
}
