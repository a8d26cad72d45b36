import type { Document } from 'bson';
import { CommandError, namedError } from './command-error';

/**
 * A command's `maxTimeMS`. The embedded server runs a read synchronously, so no other connection is
 * served until it ends: the loops that can run long (a scan's candidates, a sort's comparisons, every
 * document a pipeline stage passes on) call `checkTimeLimit`, which stops the command with MongoDB's
 * 50 MaxTimeMSExpired once its time is up. One command runs at a time, so the limit in force is held
 * here, for the synchronous part of the command (a write waiting on a transaction has no limit after
 * its first wait).
 */
let expiresAt: number | undefined;
/**
 * Checks left before the clock is read again. Reading it costs more than a cheap loop's work, so the
 * stride doubles while the reads come less than CLOCK_GRAIN_MS apart and drops back to 1 when they do
 * not (each item is slow: a heavy expression), so a command overshoots its limit by a few ms at most.
 */
let countdown = 1;
let stride = 1;
let lastClockRead = 0;
const CLOCK_GRAIN_MS = 2;
const MAX_STRIDE = 16;

/** Runs `run` with the command's `maxTimeMS` in force (none when absent or 0). */
export function withinTimeLimit<T>(command: Document, run: () => T): T {
  const limitMs = maxTimeMSOf(command);
  if (limitMs === 0) return run();
  const outer = expiresAt;
  lastClockRead = Date.now();
  expiresAt = lastClockRead + limitMs;
  countdown = stride = 1;
  try {
    return run();
  } finally {
    expiresAt = outer;
  }
}

/**
 * Runs `run` with no limit: building a cache the collection keeps (an `_id` order, an index's sorted
 * postings) is not the command's work alone, and stopping it half-way would leave every later command
 * to build it again under its own limit.
 */
export function withoutTimeLimit<T>(run: () => T): T {
  const outer = expiresAt;
  expiresAt = undefined;
  try {
    return run();
  } finally {
    expiresAt = outer;
  }
}

/** Throws 50 MaxTimeMSExpired once the running command's time is up. */
export function checkTimeLimit(): void {
  if (expiresAt === undefined || --countdown > 0) return;
  const now = Date.now();
  if (now >= expiresAt) throw namedError('MaxTimeMSExpired', 'operation exceeded time limit');
  stride = now - lastClockRead < CLOCK_GRAIN_MS ? Math.min(stride * 2, MAX_STRIDE) : 1;
  countdown = stride;
  lastClockRead = now;
}

/** MongoDB's rule: a non-negative 32-bit integer, 0 meaning no limit. */
function maxTimeMSOf(command: Document): number {
  const value: unknown = command.maxTimeMS;
  if (value === undefined || value === null) return 0;
  const number = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : Number((value as { valueOf(): unknown }).valueOf());
  if (!Number.isInteger(number) || number < 0 || number > 2 ** 31 - 1) throw new CommandError(2, 'BadValue', `maxTimeMS must be a non-negative integer below 2^31, got ${String(value)}`);
  return number;
}
