import { calculateObjectSize, type Document } from 'bson';
import { compileFilter } from '../../query';
import type { Collection } from '../../storage/collection';
import { ID_INDEX } from '../../storage/collection';
import type { Store } from '../../storage/store';
import { CommandError, ErrorCodes } from '../command-error';
import { optionalBoolean, optionalDocument, optionalInteger, targetCollection } from './command-fields';
import { cursorReply } from './read-commands';
import { sameBson } from './same-bson';
import type { DataCommandHandler } from './transaction-scope';

/** Fields every command may carry that are not collection options of `create`. */
const GENERIC_FIELDS = new Set([
  'create', '$db', 'lsid', 'txnNumber', 'autocommit', 'startTransaction', '$clusterTime', 'writeConcern',
  'readConcern', '$readPreference', 'comment', 'maxTimeMS', 'apiVersion', 'apiStrict', 'apiDeprecationErrors',
]);

/** listDatabases: `{ listDatabases: 1, nameOnly?, filter? }` → `{ databases: [{ name, sizeOnDisk, empty }], totalSize, totalSizeMb }`. */
export function listDatabasesCommand(store: Store): DataCommandHandler {
  return (command) => {
    const nameOnly = optionalBoolean(command, 'nameOnly') ?? false;
    const filter = optionalDocument(command, 'filter');
    let databases: Document[] = store.databaseNames().map((name) => {
      if (nameOnly) return { name };
      const sizeOnDisk = store.collections(name).reduce((sum, collection) => sum + dataSize(collection), 0);
      return { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    });
    if (filter !== undefined) databases = databases.filter(compileFilter(filter));
    if (nameOnly) return { databases };
    const totalSize = databases.reduce((sum, db) => sum + (db.sizeOnDisk as number), 0);
    return { databases, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)) };
  };
}

/** listCollections: `{ listCollections: 1, filter?, nameOnly? }` → a cursor over `{ name, type, options, info, idIndex }`. */
export function listCollectionsCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const nameOnly = optionalBoolean(command, 'nameOnly') ?? false;
    const filter = optionalDocument(command, 'filter');
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    let entries: Document[] = store
      .collections(context.db)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((collection) =>
        nameOnly
          ? { name: collection.name, type: 'collection' }
          : {
              name: collection.name,
              type: 'collection',
              options: collection.options,
              info: { readOnly: false, uuid: collection.uuid },
              idIndex: { v: 2, key: ID_INDEX.key, name: ID_INDEX.name },
            },
      );
    if (filter !== undefined) entries = entries.filter(compileFilter(filter));
    const batch = store.cursors.open(`${context.db}.$cmd.listCollections`, entries, { batchSize: optionalInteger(cursorOptions, 'batchSize') });
    return cursorReply(batch, 'firstBatch');
  };
}

/**
 * create: `{ create: name, ...options }` → `{}`. Creating an existing collection again with the same
 * options succeeds; with different options it fails with 48 NamespaceExists (MongoDB 7 behaviour).
 */
export function createCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const name = targetCollection(command, 'create');
    const options: Document = {};
    for (const [field, value] of Object.entries(command)) if (!GENERIC_FIELDS.has(field)) options[field] = value;
    const existing = store.collection(context.db, name);
    if (existing === undefined) store.createCollection(context.db, name, options);
    else if (!sameBson(existing.options, options)) {
      throw new CommandError(ErrorCodes.NamespaceExists, 'NamespaceExists', `Collection ${existing.ns} already exists with different options.`);
    }
    return {};
  };
}

/**
 * drop: `{ drop: name }` → `{ ns, nIndexesWas }`. Dropping a missing collection succeeds, as in
 * MongoDB 7.0+ (SERVER-43894).
 */
export function dropCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const name = targetCollection(command, 'drop');
    const collection = store.collection(context.db, name);
    if (collection === undefined) return {};
    const nIndexesWas = collection.indexDefinitions().length;
    store.dropCollection(context.db, name);
    return { ns: collection.ns, nIndexesWas };
  };
}

/** dropDatabase: `{ dropDatabase: 1 }` → `{ dropped }` (succeeds for a missing database too). */
export function dropDatabaseCommand(store: Store): DataCommandHandler {
  return (_command, context) => {
    store.dropDatabase(context.db);
    return { dropped: context.db };
  };
}

function dataSize(collection: Collection): number {
  let size = 0;
  for (const doc of collection.currentDocuments()) size += calculateObjectSize(doc);
  return size;
}

