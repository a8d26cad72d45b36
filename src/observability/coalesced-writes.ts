/** Where log text goes: anything with a `write` (process.stdout, a file's stream), and a `flush` if it buffers. */
export interface TextDestination {
  write(text: string): unknown;
  flush?(done: (error?: Error) => void): void;
}

/** Destinations holding lines not yet written, flushed by the one `exit` listener if the process ends first. */
const holding = new Set<() => void>();
let listeningForExit = false;

/**
 * `destination` with the lines written during one turn of the event loop sent to it in one write, at the
 * end of that turn (setImmediate). Under load many requests end in the same turn, and every write to
 * stdout is a system call. Lines still held when the process exits (process.exit, an uncaught error)
 * are written synchronously on its `exit` event; a process killed outright loses at most that turn's.
 * A write that fails is reported once as a process warning and its lines dropped, as a failed log
 * write must not end the process. One writer per destination: another writing to the same one in the
 * same turn (a second logger) comes out before this one's held lines.
 */
export function coalescedWrites(destination: TextDestination): { write(line: string): void; flush(done?: (error?: Error) => void): void } {
  let held: string[] = [];
  let warned = false;
  const writeHeld = (): void => {
    holding.delete(writeHeld);
    if (held.length === 0) return;
    const text = held.length === 1 ? held[0]! : held.join('');
    held = [];
    try {
      destination.write(text);
    } catch (error) {
      if (warned) return;
      warned = true;
      process.emitWarning(`log lines could not be written: ${error instanceof Error ? error.message : String(error)}`, { code: 'DOCJOIN_LOG_WRITE' });
    }
  };
  if (!listeningForExit) {
    listeningForExit = true;
    process.on('exit', () => {
      for (const pending of [...holding]) pending();
    });
  }
  return {
    write(line) {
      if (held.push(line) > 1) return;
      holding.add(writeHeld);
      setImmediate(writeHeld);
    },
    // pino's logger.flush(done): what is held, then what the destination buffers.
    flush(done) {
      writeHeld();
      if (destination.flush) destination.flush(done ?? (() => undefined));
      else done?.();
    },
  };
}
