import type { CostLedger } from '../request/cost/cost-ledger';
import { WorkloadTotals, type RecordedOperation } from './workload-totals';
import { WORKLOAD_FORMAT, type WorkloadWindow } from './workload-types';

/** Distinct sets of missing fields kept per field and strategy in one window; later ones count as `missingOther`. */
export const MAX_MISSING_SETS = 64;

/**
 * The workload since the last flush, in counters (WorkloadTotals): one operation at a time is folded
 * in (`record`), and `take` hands the counts over as a window and starts the next. Memory is bounded by
 * the schema, never by the traffic.
 */
export class WorkloadRecorder {
  readonly #maxMissingSets: number;
  #totals: WorkloadTotals;
  #start = new Date();

  constructor(options: { readonly maxMissingSets?: number } = {}) {
    const max = options.maxMissingSets ?? MAX_MISSING_SETS;
    if (!Number.isSafeInteger(max) || max < 0) throw new TypeError(`WorkloadRecorder: maxMissingSets must be a whole number, got ${String(max)}`);
    this.#maxMissingSets = max;
    this.#totals = new WorkloadTotals(max);
  }

  /** Folds one executed operation's ledger in: its totals, its relation fields, its write units. */
  record(type: RecordedOperation, ledger: CostLedger): void {
    this.#totals.addOperation(type, ledger);
  }

  get isEmpty(): boolean {
    return this.#totals.isEmpty;
  }

  /**
   * The counts since the previous take, as a window ending now, and fresh counters for the next one.
   * Undefined when no operation was recorded: the current window then goes on.
   */
  take(): WorkloadWindow | undefined {
    if (this.#totals.isEmpty) return undefined;
    const end = new Date();
    const window: WorkloadWindow = { docjoinWorkload: WORKLOAD_FORMAT, start: this.#start, end, ...this.#totals.counts() };
    this.#totals = new WorkloadTotals(this.#maxMissingSets);
    this.#start = end;
    return window;
  }

  /** Puts back a window that could not be written, so the next flush carries its counts (and its start). */
  restore(window: WorkloadWindow): void {
    this.#totals.addCounts(window);
    if (window.start < this.#start) this.#start = window.start;
  }
}
