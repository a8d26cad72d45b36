import { createRedactor } from '../observability/redact-secrets';

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

/**
 * `io` with everything written through redactSecrets: a command's output never shows a URI's
 * credentials or secret options, nor the secrets of `knownUris` (the ones the command was given) where a
 * driver message quotes them alone.
 */
export function redactingIo(io: CliIo, knownUris: readonly (string | undefined)[]): CliIo {
  const redact = createRedactor(knownUris);
  const redacting = (stream: OutputStream): OutputStream => ({
    ...(stream.isTTY !== undefined && { isTTY: stream.isTTY }),
    write: (text: string) => stream.write(redact(text)),
  });
  return { out: redacting(io.out), err: redacting(io.err) };
}
