import { appendFile, readFile } from 'node:fs/promises';
import { parseWorkloadWindow, WorkloadFormatError } from './parse-workload-window';
import type { WorkloadSink } from './workload-capture';
import type { WorkloadWindow } from './workload-types';

/** Flushes as JSON lines: one window per line, appended (dates as ISO strings). */
export class WorkloadFile implements WorkloadSink {
  constructor(readonly path: string) {}

  get target(): string {
    return `file ${this.path}`;
  }

  /** Creates the file when missing; fails when its folder does not exist or it cannot be written. */
  async check(): Promise<void> {
    await appendFile(this.path, '');
  }

  async write(window: WorkloadWindow): Promise<void> {
    // One write of one line: appends of several gateways to one file do not interleave.
    await appendFile(this.path, `${JSON.stringify(window)}\n`);
  }
}

/** Every window of a workload file, in the order written; blank lines are skipped. */
export async function readWorkloadFile(path: string): Promise<WorkloadWindow[]> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const windows: WorkloadWindow[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${path}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new WorkloadFormatError(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    windows.push(parseWorkloadWindow(value, where));
  }
  return windows;
}
