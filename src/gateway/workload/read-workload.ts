import type { Db } from '../request/mongo/mongo-funnel';
import { WorkloadCollection } from './workload-collection';
import { readWorkloadFile } from './workload-file';
import { WorkloadTotals } from './workload-totals';
import type { WorkloadSummary, WorkloadWindow } from './workload-types';

/** Where a gateway recorded its workload: its `workload` option's file, or its collection in `db`. */
export type WorkloadSource = { readonly file: string } | { readonly collection: string; readonly db: Db };

/** Every flush of a workload file or collection, summed into one summary. */
export async function readWorkload(source: WorkloadSource): Promise<WorkloadSummary> {
  const windows = 'file' in source ? await readWorkloadFile(source.file) : await new WorkloadCollection(source.db, source.collection).read();
  return sumWorkload(windows);
}

/**
 * Windows summed: every count added up, per field and strategy and per Mutation field; each field's
 * sets of missing fields are merged by their names (with no cap: the windows already bounded them).
 */
export function sumWorkload(windows: readonly WorkloadWindow[]): WorkloadSummary {
  const totals = new WorkloadTotals(Number.POSITIVE_INFINITY);
  let start: Date | undefined;
  let end: Date | undefined;
  for (const window of windows) {
    totals.addCounts(window);
    if (start === undefined || window.start < start) start = window.start;
    if (end === undefined || window.end > end) end = window.end;
  }
  return { windows: windows.length, start, end, ...totals.counts() };
}
