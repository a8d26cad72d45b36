import type { Document } from 'bson';
import { Store } from '../storage/store';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { withinTimeLimit } from '../protocol/command-time-limit';
import type { CommandContext, CommandHandler, CommandTable, ServerView } from '../protocol/command-types';
import { dataCommands } from './data';
import { handshakeCommands } from './handshake';

/**
 * Every command the embedded server answers: connection-level ones first, data commands over `store`.
 * `standalone`: as a `mongod` outside a replica set, which refuses every command of a transaction or a
 * retryable write (a `txnNumber`).
 */
export function buildCommandTable(store: Store, server: ServerView, standalone = false): CommandTable {
  const data = dataCommands(store);
  return { ...handshakeCommands(server, standalone), ...(standalone ? withoutTransactionNumbers(data) : data) };
}

function withoutTransactionNumbers(table: CommandTable): CommandTable {
  return Object.fromEntries(
    Object.entries(table).map(([name, handler]): [string, CommandHandler] => [
      name,
      (command, context) => {
        if (command.txnNumber !== undefined) throw new CommandError(ErrorCodes.IllegalOperation, 'IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
        return handler(command, context);
      },
    ]),
  );
}

/** The command's name is its first key, as in MongoDB. */
export function commandName(command: Document): string {
  for (const key in command) return key;
  return '';
}

/** Runs `command` through its handler; an unknown name fails with 59 CommandNotFound. */
export async function runCommand(table: CommandTable, command: Document, context: CommandContext): Promise<Document> {
  const name = commandName(command);
  const handler = findHandler(table, name);
  return withinTimeLimit(command, () => handler(command, context));
}

function findHandler(table: CommandTable, name: string): CommandHandler {
  // Own properties only: `constructor` or `toString` must not resolve to Object.prototype.
  const handler = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
  if (handler === undefined) {
    throw new CommandError(ErrorCodes.CommandNotFound, 'CommandNotFound', `no such command: '${name}'`);
  }
  return handler;
}
