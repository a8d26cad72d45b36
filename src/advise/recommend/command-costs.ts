import type { WorkloadSummary } from '../../gateway';

/**
 * What one more command or one more rewritten copy costs, in milliseconds of MongoDB commands as the
 * gateway measured them on the recorded workload (command monitoring: the network and the database).
 * A read costs the mean read; a write command the mean single-document write, plus `documentMs` per
 * document it modifies: what multi-document writes took beyond a single-document write, per further
 * document, and at least a fiftieth of a single-document write (timings too close to tell apart still
 * price a copy). Without a multi-document write recorded, a copy is priced at ASSUMED_COSTS' documentMs.
 *
 * A workload recorded without command times (windows from an older docjoin), or whose reads and writes
 * took too little to register (the driver times whole milliseconds), is priced with ASSUMED_COSTS, its
 * total from its round trips and the documents its mutations modified; one recorded partly without them
 * scales the timed operations' total to all of its operations. `assumed` prices with ASSUMED_COSTS
 * whatever was recorded (`docjoin advise --assumed-costs`): the same workload then gets the same advice
 * on any machine.
 */
export interface CommandCosts {
  readonly readMs: number;
  readonly writeMs: number;
  readonly documentMs: number;
  /** Every command of the workload, summed. */
  readonly totalMs: number;
  /** From the recorded command times, or assumed. */
  readonly source: 'measured' | 'assumed';
}

/**
 * 1 ms a command, 0.2 ms a further document a write modifies: what the embedded server took for the
 * demo's `updateHost` (1,001 documents in about 210 ms) on a 2-core machine. A real MongoDB is faster
 * per document, so this prices copies higher than they cost, never lower. 0.04 ms a document a read
 * returns, beyond its round trip: the embedded server's reads of the demo's deep query (80 reads of
 * 2,560 documents in 137 ms, a 0.45 ms ping) on the same machine, busy; what a lookup's copies cost.
 * 0.02 ms a parent a lookup joins by an indexed equality: a guess, erring high, at an indexed
 * `$lookup`'s work per parent (advise times it against the server unless told to assume costs).
 * 0.5 ms a read command does beyond the network and its documents (parsing, planning, a cursor, the
 * driver's reply): a guess erring low, since it is what a lookup's copies must not outweigh; measured,
 * the embedded server's reads of the demo's peer queries took about 1.6 ms each beyond a ping.
 */
export const ASSUMED_COSTS = { commandMs: 1, documentMs: 0.2, readDocumentMs: 0.04, lookupParentMs: 0.02, commandWorkMs: 0.5 } as const;

export function commandCosts(workload: WorkloadSummary | undefined, { assumed = false }: { readonly assumed?: boolean } = {}): CommandCosts {
  const times = assumed ? undefined : workload?.commands;
  // The driver times commands in whole milliseconds: commands too few and fast to add up to one are not measured.
  const mean = (commands: number, ms: number) => (commands === 0 || ms === 0 ? undefined : ms / commands);
  const readMs = times && mean(times.reads.commands, times.reads.ms);
  const writeMs = (times && mean(times.singleWrites.commands, times.singleWrites.ms)) ?? readMs;
  if (!workload || !times || times.operations === 0 || readMs === undefined || writeMs === undefined) {
    const roundTrips = (workload?.operations.query.roundTrips ?? 0) + (workload?.operations.mutation.roundTrips ?? 0);
    const documents = workload?.mutations.reduce((sum, mutation) => sum + mutation.documentsModified, 0) ?? 0;
    const { commandMs, documentMs } = ASSUMED_COSTS;
    return { readMs: commandMs, writeMs: commandMs, documentMs, totalMs: roundTrips * commandMs + documents * documentMs, source: 'assumed' };
  }
  const multi = times.multiWrites;
  const further = multi.documents - multi.commands;
  const measuredDocumentMs = further > 0 ? (multi.ms - writeMs * multi.commands) / further : ASSUMED_COSTS.documentMs;
  const documentMs = Math.max(measuredDocumentMs, writeMs / 50);
  const operations = workload.operations.query.count + workload.operations.mutation.count;
  const timedMs = times.reads.ms + times.singleWrites.ms + times.multiWrites.ms + times.others.ms;
  return { readMs, writeMs, documentMs, totalMs: (timedMs * operations) / times.operations, source: 'measured' };
}
