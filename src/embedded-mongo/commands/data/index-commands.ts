import type { Document } from 'bson';
import type { Collection } from '../../storage/collection';
import { ID_INDEX } from '../../storage/collection';
import type { IndexDefinition } from '../../storage/equality-index';
import { assertNotView, type Store } from '../../storage/store';
import { CommandError, ErrorCodes } from '../../protocol/command-error';
import { badValue, documentArray, isDocument, optionalInteger, optionalDocument, targetCollection } from './command-fields';
import { cursorReply } from './read-commands';
import { valuesEqual } from '../../query/value-key';
import { cursorSession, type DataCommandHandler } from './transaction-scope';

/** Index spec fields that are not kept as extra options. */
const SPEC_FIELDS = new Set(['key', 'name', 'unique', 'sparse', 'v', 'ns']);

/**
 * createIndexes: `{ createIndexes, indexes: [{ key, name, unique?, sparse? }] }` →
 * `{ numIndexesBefore, numIndexesAfter, createdCollectionAutomatically }`. All indexes of the command
 * are built or none: a unique index over duplicate data fails with E11000.
 */
export function createIndexesCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const name = targetCollection(command, 'createIndexes');
    const definitions = documentArray(command, 'indexes').map(indexDefinition);
    const existed = store.collection(context.db, name) !== undefined;
    const collection = store.ensureCollection(context.db, name);
    const numIndexesBefore = collection.indexDefinitions().length;
    const created: IndexDefinition[] = [];
    for (const definition of definitions) {
      // an index named twice in one command is created once
      if (!alreadyExists([...collection.indexDefinitions(), ...created], definition)) created.push(definition);
    }
    store.createIndexes(collection, created);
    const reply: Document = {
      numIndexesBefore,
      numIndexesAfter: collection.indexDefinitions().length,
      createdCollectionAutomatically: !existed,
    };
    if (created.length === 0) reply.note = 'all indexes already exist';
    return reply;
  };
}

/** listIndexes: `{ listIndexes: collection }` → a cursor over `{ v: 2, key, name, unique?, sparse?, ... }`; 26 when the collection is missing. */
export function listIndexesCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const collection = existingCollection(store, context.db, targetCollection(command, 'listIndexes'));
    const entries = collection.indexDefinitions().map((definition) => {
      const entry: Document = { v: 2, key: definition.key, name: definition.name };
      if (definition.unique && definition.name !== ID_INDEX.name) entry.unique = true;
      if (definition.sparse) entry.sparse = true;
      return { ...entry, ...definition.options };
    });
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    const batch = store.cursors.open(collection.ns, entries, { batchSize: optionalInteger(cursorOptions, 'batchSize'), session: cursorSession(command) });
    return cursorReply(batch, 'firstBatch');
  };
}

/** dropIndexes: `{ dropIndexes, index: name | keyPattern | [names] | "*" }` → `{ nIndexesWas }`. */
export function dropIndexesCommand(store: Store): DataCommandHandler {
  return (command, context) => {
    const collection = existingCollection(store, context.db, targetCollection(command, 'dropIndexes'));
    const nIndexesWas = collection.indexDefinitions().length;
    const target: unknown = command.index;
    if (target === '*') {
      const names = collection.indexDefinitions().map((definition) => definition.name);
      store.dropIndexes(collection, names.filter((indexName) => indexName !== ID_INDEX.name));
      return { nIndexesWas, msg: 'non-_id indexes dropped for collection' };
    }
    const names = Array.isArray(target) ? target : [target];
    const resolved = names.map((entry) => indexNameOf(collection, entry));
    for (const indexName of resolved) {
      if (indexName === ID_INDEX.name) throw new CommandError(72, 'InvalidOptions', 'cannot drop _id index');
    }
    store.dropIndexes(collection, [...new Set(resolved)]);
    return { nIndexesWas };
  };
}

function indexDefinition(spec: Document): IndexDefinition {
  const key: unknown = spec.key;
  if (!isDocument(key) || Object.keys(key).length === 0) throw new CommandError(67, 'CannotCreateIndex', 'index key pattern must be a non-empty object');
  const name = typeof spec.name === 'string' ? spec.name : defaultIndexName(key);
  const options: Document = {};
  for (const [field, value] of Object.entries(spec)) if (!SPEC_FIELDS.has(field)) options[field] = value;
  return { name, key, unique: spec.unique === true, sparse: spec.sparse === true, options };
}

/** MongoDB's default name: `field_direction` pairs joined by `_`, e.g. `postId_1_createdAt_-1`. */
function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(direction)}`)
    .join('_');
}

/** True when an identical index is among `existing`; 85/86 when one clashes by key or by name. */
function alreadyExists(indexes: readonly IndexDefinition[], definition: IndexDefinition): boolean {
  for (const existing of indexes) {
    const sameKey = sameKeyPattern(existing.key, definition.key);
    const sameName = existing.name === definition.name;
    if (sameKey && sameName) {
      if (existing.name === ID_INDEX.name) return true;
      if (!sameIdentity(existing, definition)) {
        throw new CommandError(86, 'IndexKeySpecsConflict', `An existing index has the same name as the requested index but different options: ${definition.name}`);
      }
      if (!sameOtherOptions(existing, definition)) {
        throw new CommandError(85, 'IndexOptionsConflict', `An equivalent index already exists with the same name but different options. Requested index: ${definition.name}, existing index: ${existing.name}`);
      }
      return true;
    }
    if (sameName) {
      throw new CommandError(86, 'IndexKeySpecsConflict', `An existing index has the same name as the requested index but a different key: ${definition.name}`);
    }
    if (sameKey && sameIdentity(existing, definition)) {
      throw new CommandError(85, 'IndexOptionsConflict', `Index already exists with a different name: ${existing.name}`);
    }
  }
  return false;
}

/**
 * The options that make two indexes of one key different indexes (IndexDescriptor::compareIndexOptions'
 * kDifferent): one of another name may stand beside it, one of the same name is refused with 86.
 */
const IDENTIFYING_OPTIONS = ['partialFilterExpression', 'collation'];
/** Options that neither identify an index nor change it. */
const IGNORED_OPTIONS = new Set(['background', 'hidden']);

function sameIdentity(a: IndexDefinition, b: IndexDefinition): boolean {
  return a.unique === b.unique && a.sparse === b.sparse && IDENTIFYING_OPTIONS.every((option) => valuesEqual(a.options[option], b.options[option]));
}

/** The rest of the options (`expireAfterSeconds`, say): an index differing only by them is equivalent, and refused with 85 under the same name. */
function sameOtherOptions(a: IndexDefinition, b: IndexDefinition): boolean {
  const others = new Set([...Object.keys(a.options), ...Object.keys(b.options)].filter((option) => !IDENTIFYING_OPTIONS.includes(option) && !IGNORED_OPTIONS.has(option)));
  return [...others].every((option) => valuesEqual(a.options[option], b.options[option]));
}

function sameKeyPattern(a: Document, b: Document): boolean {
  const aEntries = Object.entries(a);
  const bEntries = Object.entries(b);
  return (
    aEntries.length === bEntries.length &&
    aEntries.every(([field, direction], i) => field === bEntries[i]![0] && String(direction) === String(bEntries[i]![1]))
  );
}

function indexNameOf(collection: Collection, target: unknown): string {
  if (typeof target === 'string') {
    if (!collection.hasIndex(target)) throw new CommandError(27, 'IndexNotFound', `index not found with name [${target}]`);
    return target;
  }
  if (isDocument(target)) {
    const found = collection.indexDefinitions().find((definition) => sameKeyPattern(definition.key, target));
    if (found === undefined) throw new CommandError(27, 'IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    return found.name;
  }
  throw badValue(`'index' must be an index name, a key pattern or an array of names`);
}

/** The collection an index command names: 166 on a view, 26 NamespaceNotFound when missing. */
function existingCollection(store: Store, database: string, name: string): Collection {
  const collection = store.collection(database, name);
  if (collection === undefined) assertNotView(store.viewCatalog, database, name);
  if (collection === undefined) throw new CommandError(ErrorCodes.NamespaceNotFound, 'NamespaceNotFound', `ns does not exist: ${database}.${name}`);
  return collection;
}
