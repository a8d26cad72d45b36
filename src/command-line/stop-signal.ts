/**
 * The next SIGINT or SIGTERM, listened for from the call on (before a long start, so a signal during it
 * is not Node's default exit); `cancel` stops listening (a start that failed).
 *
 * Once one has arrived, the process is stopping, and a repeat must not cut that short: a process
 * manager that signals the whole process group reaches the server twice (directly, and through npm,
 * which forwards it). So a repeated SIGTERM is only reported to `onRepeat`; a second SIGINT (Ctrl-C
 * pressed again) ends the process at once, as a person who presses it twice means.
 */
export function nextStopSignal(options: { onRepeat?: (signal: NodeJS.Signals) => void } = {}): { signal: Promise<NodeJS.Signals>; cancel(): void } {
  let stop!: (signal: NodeJS.Signals) => void;
  const repeat = (received: NodeJS.Signals) => {
    if (received === 'SIGTERM') return options.onRepeat?.(received);
    cancel();
    process.kill(process.pid, received);
  };
  const cancel = () => {
    for (const listener of [stop, repeat]) {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    }
  };
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    stop = (received) => {
      cancel();
      process.on('SIGINT', repeat);
      process.on('SIGTERM', repeat);
      resolve(received);
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal, cancel };
}
