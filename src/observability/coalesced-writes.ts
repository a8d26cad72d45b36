/** Where log text goes: anything with a `write` (process.stdout, a file's stream). */
export interface TextDestination {
  write(text: string): unknown;
}

/** Destinations holding lines not yet written, flushed by the one `exit` listener if the process ends first. */
const holding = new Set<() => void>();
let listeningForExit = false;

/**
 * `destination` with the lines written during one turn of the event loop sent to it in one write, at the
 * end of that turn (setImmediate). Under load many requests end in the same turn, and every write to
 * stdout is a system call. Lines still held when the process exits (process.exit, an uncaught error)
 * are written synchronously on its `exit` event; a process killed outright loses at most that turn's.
 */
export function coalescedWrites(destination: TextDestination): { write(line: string): void; flush(done?: () => void): void } {
  let held: string[] = [];
  const writeHeld = (): void => {
    holding.delete(writeHeld);
    if (held.length === 0) return;
    const text = held.length === 1 ? held[0]! : held.join('');
    held = [];
    destination.write(text);
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
    // pino's logger.flush(done).
    flush(done) {
      writeHeld();
      done?.();
    },
  };
}
