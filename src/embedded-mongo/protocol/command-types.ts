import type { Document } from 'bson';

/** What a command handler knows about the request besides its body. */
export interface CommandContext {
  /** The `$db` of the request. */
  readonly db: string;
  /** Stable per TCP connection; used for `hello.connectionId` and cursor ownership. */
  readonly connectionId: number;
}

/**
 * One command. `command` is the OP_MSG body with any kind-1 document sequences already merged in
 * as arrays (e.g. `documents` of an insert). Throw `CommandError` for `{ ok: 0 }` replies; the
 * wire layer adds `ok: 1` when the returned document has no `ok`.
 */
export type CommandHandler = (command: Document, context: CommandContext) => Document | Promise<Document>;

/** Command names are matched case-sensitively, except the legacy `ismaster`/`isMaster` pair. */
export type CommandTable = Readonly<Record<string, CommandHandler>>;

/** What command handlers may ask about the server they run in (hello's `me`, whatsmyuri, serverStatus). */
export interface ServerView {
  /** `host:port` the server listens on. */
  readonly address: string;
  readonly startedAt: Date;
  clientAddress(connectionId: number): string | undefined;
  readonly connectionCount: number;
  readonly totalConnections: number;
}
