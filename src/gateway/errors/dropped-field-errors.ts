import { inspect } from 'node:util';
import type { DocjoinLogger } from '../../observability/logger';

/**
 * graphql-js 16 can leave a field error unhandled. A list of non-null items completes its items one by
 * one. When one item fails synchronously, graphql-js drops the promises of the items before it. When one
 * of those rejects later, its rejection has no handler (graphql/graphql-js#3528; the fix, #4643, is in
 * 17). Node's default for an unhandled rejection (`--unhandled-rejections=throw`) is to end the process,
 * so one malformed operation that runs on graphql-js would stop the server.
 *
 * The response is not affected: the list is already null, with the synchronous failure as its error,
 * and graphql-js reports one error per null. So a rejection with a located GraphQLError (one with a
 * path) is counted and dropped. Any other unhandled rejection keeps Node's default when nothing else
 * listens for it: it ends the process. Under another `--unhandled-rejections` mode the guard stands
 * aside: `warn` and `none` do not end the process, and `strict` ends it before any listener is asked.
 */

/** Whether an unhandled rejection is a field error graphql-js dropped: a GraphQLError (of any copy of graphql) located at a path. */
export function isDroppedFieldError(reason: unknown): boolean {
  return reason instanceof Error && Object.prototype.toString.call(reason) === '[object GraphQLError]' && Array.isArray((reason as { path?: unknown }).path);
}

/** At most one log line per this long; the next one says how many were dropped meanwhile. */
const DROPPED_LOG_INTERVAL_MS = 60_000;

interface Holder {
  readonly logger: DocjoinLogger;
  readonly onDropped: (() => void) | undefined;
}

/** Shared by every copy of docjoin loaded in the process, so that two copies install one listener. */
interface Guard {
  readonly holders: Set<Holder>;
  readonly listener: (reason: unknown) => void;
  dropped: number;
  loggedAt: number | undefined;
}

const GUARD = Symbol.for('docjoin.droppedFieldErrors');
type GuardedProcess = NodeJS.Process & { [GUARD]?: Guard };

/**
 * Keeps the process serving through dropped field errors. Every running gateway holds the guard, and
 * the first holder counts and logs what it drops. The listener stays when the last holder releases it:
 * a list's dropped items settle when their loads do, after the response and so possibly after the
 * gateway stopped, and such an error is as harmless then (it is dropped unlogged). Other rejections
 * still end the process as Node would. In another `--unhandled-rejections` mode (see above) it installs
 * nothing, and its release does nothing.
 */
export function guardDroppedFieldErrors(logger: DocjoinLogger, options: { readonly onDropped?: () => void } = {}): () => void {
  if (unhandledRejectionsMode() !== 'throw') return () => undefined;
  const host = process as GuardedProcess;
  let guard = host[GUARD];
  if (!guard) {
    const created: Guard = { holders: new Set(), listener: (reason) => onUnhandledRejection(created, reason), dropped: 0, loggedAt: undefined };
    host[GUARD] = guard = created;
    process.on('unhandledRejection', created.listener);
  }
  const holder: Holder = { logger, onDropped: options.onDropped };
  guard.holders.add(holder);
  const held = guard;
  return () => void held.holders.delete(holder);
}

/** The `--unhandled-rejections` mode this process runs in (the last flag given wins; default `throw`). */
export function unhandledRejectionsMode(): string {
  const flags = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv];
  let mode = 'throw';
  for (const flag of flags) {
    const match = /^--unhandled-rejections=(\S+)$/.exec(flag);
    if (match) mode = match[1]!;
  }
  return mode;
}

function onUnhandledRejection(guard: Guard, reason: unknown): void {
  if (isDroppedFieldError(reason)) {
    // A rejection does not say whose operation it came from: the first holder counts and logs it.
    const [first] = guard.holders;
    if (first === undefined) return;
    guard.dropped++;
    const now = Date.now();
    try {
      first.onDropped?.();
      if (guard.loggedAt !== undefined && now - guard.loggedAt < DROPPED_LOG_INTERVAL_MS) return;
      guard.loggedAt = now;
      const { path, extensions } = reason as { path: unknown; extensions?: { code?: unknown } };
      // No message: it may quote the client's arguments or stored values.
      first.logger.warn({ dropped: guard.dropped, path, code: extensions?.code }, `graphql-js left ${guard.dropped} field error(s) unhandled under nulls it had already answered (graphql/graphql-js#3528)`);
      guard.dropped = 0;
    } catch {
      // A logger or a metric that fails must not turn a dropped error into a crash.
    }
    return;
  }
  // Another listener (the application's) decides; alone, this one does what Node would have done.
  if (process.listeners('unhandledRejection').some((listener) => listener !== guard.listener)) return;
  process.nextTick(() => {
    throw reason instanceof Error ? reason : unhandledRejectionError(reason);
  });
}

/** The error Node's default throws for a rejection whose reason is not an Error. */
function unhandledRejectionError(reason: unknown): Error {
  const error = new Error(
    `This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${inspect(reason)}".`,
  );
  (error as Error & { code: string }).code = 'ERR_UNHANDLED_REJECTION';
  return error;
}
