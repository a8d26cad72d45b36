import { WorkloadRecorder } from './workload-recorder';
import type { WorkloadWindow } from './workload-types';

/** Where flushes go: a JSON-lines file (workload-file.ts) or a collection (request/mongo/workload-collection.ts). */
export interface WorkloadSink {
  /** `file /abs/path.jsonl` or `collection docjoin_workload`, for messages. */
  readonly target: string;
  /** At startup: fails when the target cannot be written (a file in a missing folder). */
  check(): Promise<void>;
  write(window: WorkloadWindow): Promise<void>;
}

/**
 * A running workload capture: the recorder the plugin feeds, and the flushes of its windows to `sink`
 * every `flushIntervalMs` and on stop. Each flush writes the counts since the previous one (the
 * recorder then starts from zero); nothing is written while no operation ran. A window that cannot be
 * written is put back into the recorder, so the next flush carries it; a failure never stops the gateway.
 */
export class WorkloadCapture {
  readonly recorder: WorkloadRecorder;
  #timer: NodeJS.Timeout | undefined;
  /** The flush in progress: flushes run one after another, never two windows at once. */
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly sink: WorkloadSink,
    readonly flushIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    recorder: WorkloadRecorder = new WorkloadRecorder(),
  ) {
    this.recorder = recorder;
  }

  /** Checks the sink, then flushes every flushIntervalMs (the timer does not keep the process alive). */
  async start(): Promise<void> {
    await this.sink.check();
    this.#timer = setInterval(() => void this.flush().catch(this.onError), this.flushIntervalMs);
    this.#timer.unref();
  }

  /** Writes the counts since the last flush now (after any flush in progress); rejects when the write fails. */
  flush(): Promise<void> {
    const flush = this.#flushing.then(() => this.#writeWindow());
    this.#flushing = flush.catch(() => undefined);
    return flush;
  }

  /** Stops the timer and writes the last window; a failure goes to onError. */
  async stop(): Promise<void> {
    this.cancel();
    await this.flush().catch(this.onError);
  }

  /** Stops the timer without a last flush: what was recorded since the previous one is not written. */
  cancel(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #writeWindow(): Promise<void> {
    const window = this.recorder.take();
    if (!window) return;
    try {
      await this.sink.write(window);
    } catch (error) {
      this.recorder.restore(window);
      throw new Error(`could not write the workload to ${this.sink.target}: ${messageOf(error)}`, { cause: error });
    }
  }
}

/** An error's message (Node's fs errors may come from another realm, so not by instanceof). */
export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}
