import type { Document } from 'bson';

const HELLO_NAMES = new Set(['hello', 'isMaster', 'ismaster']);

/**
 * The driver's server monitor streams heartbeats: it sends hello with `topologyVersion` and
 * `maxAwaitTimeMS` and the exhaustAllowed flag, and then treats any reply without `moreToCome` as
 * an error ("Server ended moreToCome unexpectedly") that resets the connection pool. Such a hello
 * must be answered with a stream of replies, one every `maxAwaitTimeMS`. Returns that interval, or
 * undefined when the command is not an awaitable hello.
 */
export function awaitableHelloIntervalMs(command: Document): number | undefined {
  const name = Object.keys(command)[0];
  if (name === undefined || !HELLO_NAMES.has(name) || command.topologyVersion === undefined) return undefined;
  const maxAwait = Number(command.maxAwaitTimeMS);
  return Number.isFinite(maxAwait) && maxAwait >= 0 ? maxAwait : undefined;
}
