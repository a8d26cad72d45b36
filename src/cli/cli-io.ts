import type { OutputStream } from '../seed/progress-printer';

/** Where a command writes: stdout and stderr, or buffers in tests. */
export interface CliIo {
  readonly out: OutputStream;
  readonly err: OutputStream;
}

export type CliEnv = Readonly<Record<string, string | undefined>>;
