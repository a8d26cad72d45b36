/** A stream a command writes to: process.stdout / stderr, or a buffer in tests. */
export interface OutputStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Where a command writes: stdout and stderr, or buffers in tests. */
export interface CliIo {
  readonly out: OutputStream;
  readonly err: OutputStream;
}

export type CliEnv = Readonly<Record<string, string | undefined>>;
