/**
 * The next SIGINT or SIGTERM, listened for from the call on (before a long start, so a signal during it
 * is not Node's default exit); `cancel` stops listening (a start that failed). Both listeners go once
 * either arrives.
 */
export function nextStopSignal(): { signal: Promise<NodeJS.Signals>; cancel(): void } {
  let stop!: (signal: NodeJS.Signals) => void;
  const cancel = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    stop = (received) => {
      cancel();
      resolve(received);
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal, cancel };
}
