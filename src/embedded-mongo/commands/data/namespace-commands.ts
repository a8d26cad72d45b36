import { calculateObjectSize, type Document } from 'bson';
import { compileFilter, OUTPUT_STAGES, parseCollation } from '../../query';
import type { Collection } from '../../storage/collection';
import { ID_INDEX, validatorOf } from '../../storage/collection';
import type { Store } from '../../storage/store';
import type { ViewDefinition } from '../../storage/view-catalog';
import { CommandError, ErrorCodes, namedError } from '../../protocol/command-error';
import { isDocument, optionalBoolean, optionalDocument, optionalInteger, targetCollection } from './command-fields';
import { cursorReply } from './read-commands';
import { sameBson } from './same-bson';
import { cursorSession, type DataCommandHandler } from './transaction-scope';

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

/**
 * listCollections: `{ listCollections: 1, filter?, nameOnly? }` → a cursor over `{ name, type, options, info, idIndex }`
 * for collections and `{ name, type: 'view', options: { viewOn, pipeline, collation? }, info: { readOnly: true } }` for views.
 */
export function listCollectionsCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const nameOnly = optionalBoolean(command, 'nameOnly') ?? false;
    const filter = optionalDocument(command, 'filter');
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    const collectionEntries = store.collections(context.db).map((collection) =>
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
    const viewEntries = store.viewCatalog
      .list(context.db)
      .map((view) => (nameOnly ? { name: view.name, type: 'view' } : { name: view.name, type: 'view', options: viewOptions(view), info: { readOnly: true } }));
    let entries: Document[] = [...collectionEntries, ...viewEntries].sort((a, b) => a.name.localeCompare(b.name));
    if (filter !== undefined) entries = entries.filter(compileFilter(filter));
    const batch = store.cursors.open(`${context.db}.$cmd.listCollections`, entries, { batchSize: optionalInteger(cursorOptions, 'batchSize'), session: cursorSession(command) });
    return cursorReply(batch, 'firstBatch');
  };
}

/**
 * create: `{ create: name, ...options }` → `{}`. Creating an existing collection again with the same
 * options succeeds; with different options it fails with 48 NamespaceExists (MongoDB 7 behaviour).
 * A `collation` is validated and stored with every option filled in (as listCollections shows it;
 * `{ locale: "simple" }` stores none). With `viewOn` (and `pipeline`), it creates a read-only view.
 */
export function createCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const name = targetCollection(command, 'create');
    const options: Document = {};
    for (const [field, value] of Object.entries(command)) if (!GENERIC_FIELDS.has(field)) options[field] = value;
    if (options.viewOn !== undefined || options.pipeline !== undefined) {
      createView(store, context.db, name, options);
      return {};
    }
    if (options.collation !== undefined) {
      const collation = parseCollation(options.collation);
      if (collation === undefined) delete options.collation;
      else options.collation = collation.toDocument();
    }
    // A validator this server cannot run is refused here, not ignored (data saved before validators were enforced keeps its own).
    validatorOf(options, options.collation === undefined ? undefined : parseCollation(options.collation));
    const existing = store.collection(context.db, name);
    if (existing === undefined) store.createCollection(context.db, name, options);
    else if (!sameBson(existing.options, options)) {
      throw new CommandError(ErrorCodes.NamespaceExists, 'NamespaceExists', `Collection ${existing.ns} already exists with different options.`);
    }
    return {};
  };
}

/** Options a view may have besides `viewOn` and `pipeline`. */
const VIEW_OPTIONS = new Set(['viewOn', 'pipeline', 'collation']);

/** `create` with `viewOn`: checks the definition as MongoDB does, then adds it (idempotent for the same definition). */
function createView(store: Store, database: string, name: string, options: Document): void {
  const viewOn: unknown = options.viewOn;
  if (viewOn === undefined) throw namedError('BadValue', "'pipeline' requires 'viewOn' to also be specified");
  if (typeof viewOn !== 'string') throw wrongType('create.viewOn', viewOn, 'string');
  if (viewOn === '') throw namedError('InvalidNamespace', `invalid namespace name for a view: ${database}.`);
  const pipeline: unknown = options.pipeline ?? [];
  if (!Array.isArray(pipeline) || !pipeline.every(isDocument)) throw wrongType('create.pipeline', pipeline, 'array');
  for (const stage of pipeline) {
    const stageName = Object.keys(stage)[0] ?? '';
    if (OUTPUT_STAGES.has(stageName)) throw namedError('OptionNotSupportedOnView', `${stageName} cannot be used in a view definition`);
  }
  for (const field of Object.keys(options)) {
    if (!VIEW_OPTIONS.has(field)) throw namedError('InvalidOptions', `'${field}' is not supported for views`);
  }
  const definition: ViewDefinition = { name, viewOn, pipeline, collation: options.collation === undefined ? undefined : parseCollation(options.collation) };
  const existing = store.viewCatalog.get(database, name);
  if (existing !== undefined && sameBson(viewOptions(existing), viewOptions(definition))) return;
  store.createView(database, definition);
}

/** A view's `options` as listCollections reports them. */
function viewOptions(view: ViewDefinition): Document {
  const options: Document = { viewOn: view.viewOn, pipeline: view.pipeline };
  if (view.collation !== undefined) options.collation = view.collation.toDocument();
  return options;
}

function wrongType(path: string, value: unknown, expected: string): CommandError {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'double') : typeof value;
  return namedError('TypeMismatch', `BSON field '${path}' is the wrong type '${type}', expected type '${expected}'`);
}

/**
 * drop: `{ drop: name }` → `{ ns, nIndexesWas }`, or `{}` for a view. Dropping a missing collection
 * succeeds, as in MongoDB 7.0+ (SERVER-43894).
 */
export function dropCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const name = targetCollection(command, 'drop');
    if (store.dropView(context.db, name)) return {};
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

