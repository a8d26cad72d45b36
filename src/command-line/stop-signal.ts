import { startedByNpmExec, watchParent } from './parent-watch';

/**
 * The next SIGINT or SIGTERM, listened for from the call on (before a long start, so a signal during it
 * is not Node's default exit); `cancel` stops listening (a start that failed, or a stop that is done).
 *
 * Once one has arrived, the process is stopping, and the same signal delivered twice must not cut that
 * short: a signal to the process group (a process manager's SIGTERM, Ctrl-C at a terminal) reaches the
 * server directly and again through npm, which forwards it. So a repeat is only reported to `onRepeat`,
 * except a SIGINT more than SAME_SIGNAL_MS after the first: Ctrl-C pressed again, which ends the
 * process at once (exit 130).
 *
 * Under `npx` / `npm exec`, npm's `sh -c` dies without passing a SIGTERM to npm on (`npx docjoin serve`
 * killed by its PID), which leaves the server orphaned; that counts as a SIGTERM, after `onOrphaned` is
 * told which parent went. Started any other way, a parent that exits is left to do so (`nohup … &`).
 */
const SAME_SIGNAL_MS = 1_000;

export function nextStopSignal(options: { onRepeat?: (signal: NodeJS.Signals) => void; onOrphaned?: (parentPid: number) => void } = {}): { signal: Promise<NodeJS.Signals>; cancel(): void } {
  let stop!: (signal: NodeJS.Signals) => void;
  let unwatch = () => undefined as void;
  let firstAt = 0;
  const repeat = (received: NodeJS.Signals) => {
    if (received === 'SIGINT' && Date.now() - firstAt > SAME_SIGNAL_MS) {
      cancel();
      return process.exit(130);
    }
    options.onRepeat?.(received);
  };
  const cancel = () => {
    unwatch();
    for (const listener of [stop, repeat]) {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    }
  };
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    stop = (received) => {
      firstAt = Date.now();
      cancel();
      process.on('SIGINT', repeat);
      process.on('SIGTERM', repeat);
      resolve(received);
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (startedByNpmExec()) {
    unwatch = watchParent((parentPid) => {
      options.onOrphaned?.(parentPid);
      stop('SIGTERM');
    });
  }
  return { signal, cancel };
}
