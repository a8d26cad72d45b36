import type { OutputStream } from './cli-io';

export interface ProgressLine {
  /** Shows the state of the current step; `stepDone` when that step has just finished. */
  show(line: string, stepDone: boolean): void;
  /** Clears the in-place line, if any, so what follows starts on a clean line. */
  finish(): void;
}

/**
 * Progress of a long run: on a TTY one line rewritten in place; elsewhere (CI logs, pipes) one plain
 * line per finished step, since carriage returns would garble them.
 */
export function createProgressLine(out: OutputStream): ProgressLine {
  let open = false;
  return {
    show(line, stepDone) {
      if (out.isTTY) {
        out.write(`\r\x1b[2K${line}`);
        open = true;
      } else if (stepDone) {
        out.write(`${line}\n`);
      }
    },
    finish() {
      if (open) out.write('\r\x1b[2K');
      open = false;
    },
  };
}
