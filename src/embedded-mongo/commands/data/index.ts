import type { Store } from '../../storage/store';
import type { CommandHandler, CommandTable } from '../../protocol/command-types';
import { findAndModifyCommand } from './find-and-modify';
import { createIndexesCommand, dropIndexesCommand, listIndexesCommand } from './index-commands';
import { createCommand, dropCommand, dropDatabaseCommand, listCollectionsCommand, listDatabasesCommand } from './namespace-commands';
import { aggregateCommand, countCommand, distinctCommand, findCommand, getMoreCommand, killCursorsCommand } from './read-commands';
import { abortTransactionCommand, commitTransactionCommand, endSessionsCommand } from './transaction-commands';
import { inTransactionScope, type DataCommandHandler } from './transaction-scope';
import { deleteCommand, insertCommand, updateCommand } from './write-commands';

/**
 * The data commands over one Store. Every command but the transaction-control ones runs in the
 * transaction its session fields name (or none).
 */
export function dataCommands(store: Store): CommandTable {
  const synced = (handler: CommandHandler): CommandHandler => (store.durable ? syncJournalAfter(store, handler) : handler);
  const scoped = (build: (store: Store) => DataCommandHandler): CommandHandler => synced(inTransactionScope(store, build(store)));
  const unscoped = (build: (store: Store) => DataCommandHandler): CommandHandler => {
    const handler = build(store);
    return synced((command, context) => handler(command, context, undefined));
  };
  const findAndModify = scoped(findAndModifyCommand);
  return {
    listDatabases: scoped(listDatabasesCommand),
    listCollections: scoped(listCollectionsCommand),
    create: scoped(createCommand),
    drop: scoped(dropCommand),
    dropDatabase: scoped(dropDatabaseCommand),
    insert: scoped(insertCommand),
    update: scoped(updateCommand),
    delete: scoped(deleteCommand),
    findAndModify,
    findandmodify: findAndModify,
    find: scoped(findCommand),
    getMore: scoped(getMoreCommand),
    killCursors: scoped(killCursorsCommand),
    aggregate: scoped(aggregateCommand),
    count: scoped(countCommand),
    distinct: scoped(distinctCommand),
    createIndexes: scoped(createIndexesCommand),
    listIndexes: scoped(listIndexesCommand),
    dropIndexes: scoped(dropIndexesCommand),
    commitTransaction: unscoped(commitTransactionCommand),
    abortTransaction: unscoped(abortTransactionCommand),
    endSessions: unscoped(endSessionsCommand),
  };
}

/**
 * A durable store's journal is synced (when set to fsync) once a command is done and before its
 * reply, failed or not: one disk flush per command rather than one per document it wrote.
 */
function syncJournalAfter(store: Store, handler: CommandHandler): CommandHandler {
  return (command, context) => {
    let reply: ReturnType<CommandHandler>;
    try {
      reply = handler(command, context);
    } catch (error) {
      store.syncJournal();
      throw error;
    }
    if (reply instanceof Promise) return reply.finally(() => store.syncJournal());
    store.syncJournal();
    return reply;
  };
}
