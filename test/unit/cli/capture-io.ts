import type { CliIo } from '../../../src/command-line/cli-io';

/** Buffers standing in for stdout and stderr (not a TTY, so progress prints plain lines). */
export function captureIo(): { io: CliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: { write: (text: string) => out.push(text) }, err: { write: (text: string) => err.push(text) } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
