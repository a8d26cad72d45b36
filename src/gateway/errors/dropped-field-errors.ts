import { GraphQLError } from 'graphql';
import type { DocjoinLogger } from '../../observability/logger';

/**
 * graphql-js 16 can leave a field error unhandled. A list of non-null items completes its items one by
 * one. When one item fails synchronously, graphql-js drops the promises of the items before it. When one
 * of those rejects later, its rejection has no handler (graphql/graphql-js#3528; the fix, #4643, is in
 * 17). Node's default for an unhandled rejection is to end the process, so one malformed operation that
 * runs on graphql-js would stop the server.
 *
 * The response is not affected: the list is already null, with the synchronous failure as its error,
 * and graphql-js reports one error per null. So a rejection with a located GraphQLError (one with a
 * path) is logged and dropped. Any other unhandled rejection keeps Node's default when nothing else
 * listens for it: it ends the process.
 */

/** Whether an unhandled rejection is a field error graphql-js dropped. */
export function isDroppedFieldError(reason: unknown): reason is GraphQLError {
  return reason instanceof GraphQLError && reason.path !== undefined;
}

/** One per running gateway; the first one logs (a rejection does not say whose operation it came from). */
const holders = new Set<{ readonly logger: DocjoinLogger }>();

function onUnhandledRejection(reason: unknown): void {
  if (isDroppedFieldError(reason)) {
    const [first] = holders;
    first?.logger.warn({ path: reason.path, code: reason.extensions.code }, `graphql-js left a field error unhandled under a null it had already answered: ${reason.message}`);
    return;
  }
  // Another listener (the application's) decides; alone, this one does what Node would have done.
  if (process.listenerCount('unhandledRejection') === 1) throw reason;
}

/**
 * Keeps the process serving through dropped field errors while the returned function has not been
 * called. Every running gateway holds one; the listener goes when the last one is released.
 */
export function guardDroppedFieldErrors(logger: DocjoinLogger): () => void {
  if (holders.size === 0) process.on('unhandledRejection', onUnhandledRejection);
  const holder = { logger };
  holders.add(holder);
  return () => {
    holders.delete(holder);
    if (holders.size === 0) process.off('unhandledRejection', onUnhandledRejection);
  };
}
