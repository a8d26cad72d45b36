import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { Collection, ID_INDEX, type CommitWrites, type CommittedTransaction, type DocumentWrite, type WriteBatch } from './collection';
import { LiveView, type CollectionView } from './collection-view';
import { CursorStore } from './cursor-store';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import type { IndexDefinition } from './equality-index';
import { DEFAULT_TRANSACTION_LIFETIME_MS, SessionRegistry } from './session-registry';
import type { ChangeJournal, JournaledBatch, JournaledWrite } from './store-change';
import type { Transaction } from './transaction';
import { VersionClock } from './version-clock';
import { ViewCatalog, type ViewDefinition } from './view-catalog';

/**
 * Everything the embedded server stores: databases of collections, open cursors, sessions and their
 * transactions. One Store per server; commands reach data only through it.
 *
 * Every change to committed state goes through a method here (collections and views created and
 * dropped, indexes built and dropped, document writes committed, `$out` swaps): each checks the
 * change, appends it to the journal when the store has one, and only then applies it, so a change
 * the journal refused is not applied either.
 */
export class Store {
  readonly clock = new VersionClock();
  readonly cursors = new CursorStore();
  readonly sessions: SessionRegistry;
  /** Read-only views; their names share each database's namespace with its collections. Change them through the Store. */
  readonly viewCatalog = new ViewCatalog();
  private readonly databases = new Map<string, Map<string, Collection>>();
  private journal: ChangeJournal | undefined;
  /** `commitWrites` for live views and transactions, bound once. */
  private readonly commit: CommitWrites = (batches, committing) => this.commitWrites(batches, committing);

  constructor(options: StoreOptions = {}) {
    this.sessions = new SessionRegistry(
      this.clock,
      this.commit,
      () => this.trimHistory(),
      options.transactionLifetimeLimitMs ?? DEFAULT_TRANSACTION_LIFETIME_MS,
    );
  }

  /**
   * From now on every change is appended to `journal` before it is applied. A durable store calls
   * this once, after replaying its saved state into the store, so replayed changes are not journaled again.
   */
  journalChanges(journal: ChangeJournal): void {
    if (this.journal !== undefined) throw new Error('Store.journalChanges: the store already has a journal');
    this.journal = journal;
  }

  get durable(): boolean {
    return this.journal !== undefined;
  }

  /** Makes the journaled changes survive a machine crash when the journal is set to fsync (a command's changes, before its reply). */
  syncJournal(): void {
    this.journal?.sync();
  }

  databaseNames(): string[] {
    return [...new Set([...this.databases.keys(), ...this.viewCatalog.databaseNames()])].sort();
  }

  collections(database: string): Collection[] {
    return [...(this.databases.get(database)?.values() ?? [])];
  }

  collection(database: string, name: string): Collection | undefined {
    return this.databases.get(database)?.get(name);
  }

  /**
   * The collection, created implicitly (as inserts and createIndexes do) when missing;
   * 166 CommandNotSupportedOnView when the name is a view's. One created for a write of `transaction`
   * is dropped again if the transaction aborts while the collection holds nothing committed.
   */
  ensureCollection(database: string, name: string, transaction?: Transaction): Collection {
    const existing = this.collection(database, name);
    if (existing !== undefined) return existing;
    assertNotView(this.viewCatalog, database, name);
    const created = this.createCollection(database, name, {});
    transaction?.whenAborted(() => {
      if (this.collection(database, name) === created && created.size === 0) this.dropCollection(database, name);
    });
    return created;
  }

  /** The `create` command: NamespaceExists (48) when a collection or view has the name. */
  createCollection(database: string, name: string, options: Document): Collection {
    assertCollectionName(name);
    if (this.collection(database, name) !== undefined || this.viewCatalog.get(database, name) !== undefined) {
      throw new CommandError(ErrorCodes.NamespaceExists, 'NamespaceExists', `Collection ${database}.${name} already exists.`);
    }
    const collection = new Collection(database, name, options, this.clock);
    this.journal?.append({ kind: 'createCollection', database, name, options });
    this.collectionsOf(database).set(name, collection);
    return collection;
  }

  /** `create` with `viewOn`: NamespaceExists (48) when a collection or view has the name, 5 on a view cycle. */
  createView(database: string, definition: ViewDefinition): void {
    assertCollectionName(definition.name);
    if (this.collection(database, definition.name) !== undefined || this.viewCatalog.get(database, definition.name) !== undefined) {
      throw new CommandError(ErrorCodes.NamespaceExists, 'NamespaceExists', `Namespace ${database}.${definition.name} already exists`);
    }
    this.viewCatalog.assertAcyclic(database, definition);
    this.journal?.append({ kind: 'createView', database, view: definition });
    this.viewCatalog.add(database, definition);
  }

  /** Removes a view; false when there was none. */
  dropView(database: string, name: string): boolean {
    if (this.viewCatalog.get(database, name) === undefined) return false;
    this.journal?.append({ kind: 'dropView', database, name });
    return this.viewCatalog.drop(database, name);
  }

  /**
   * `$out`: a new collection with the old one's options and indexes holding exactly `documents`
   * (stored copies), put in its place in one step (MongoDB writes a temporary collection and renames
   * it over the target). On a duplicate key (11000) the target is left as it was. Open transactions
   * keep their old handle.
   */
  replaceCollection(database: string, name: string, documents: readonly Document[]): Collection {
    assertCollectionName(name);
    assertNotView(this.viewCatalog, database, name);
    const old = this.collection(database, name);
    const fresh = new Collection(database, name, old?.options ?? {}, this.clock);
    for (const definition of old?.indexDefinitions() ?? []) {
      if (definition.name !== ID_INDEX.name) fresh.addIndex(fresh.buildIndex(definition));
    }
    const writes = documentWrites(fresh, documents);
    fresh.validate(writes);
    this.journal?.append({ kind: 'replaceCollection', database, name, documents });
    fresh.apply(writes, this.clock.advance());
    this.collectionsOf(database).set(name, fresh);
    return fresh;
  }

  /** Builds the indexes (all or none: 11000 when a unique one meets duplicates), then adds them. */
  createIndexes(collection: Collection, definitions: readonly IndexDefinition[]): void {
    const built = definitions.map((definition) => collection.buildIndex(definition));
    if (this.journal !== undefined && this.holds(collection)) {
      this.journal.append({ kind: 'createIndexes', database: collection.database, collection: collection.name, indexes: definitions });
    }
    for (const index of built) collection.addIndex(index);
  }

  /** Drops indexes by name (names the collection has; never `_id_`). */
  dropIndexes(collection: Collection, names: readonly string[]): void {
    if (names.length === 0) return;
    if (this.journal !== undefined && this.holds(collection)) {
      this.journal.append({ kind: 'dropIndexes', database: collection.database, collection: collection.name, names });
    }
    for (const name of names) collection.dropIndex(name);
  }

  /**
   * Commits document writes, to one collection or (a transaction) several, as one version: throws
   * E11000 and changes nothing when a unique index would break; journals the writes as one record;
   * applies them.
   */
  commitWrites(batches: readonly WriteBatch[], committing?: CommittedTransaction): void {
    for (const { collection, writes } of batches) collection.validate(writes);
    if (this.journal !== undefined) this.journalWrites(this.journal, batches, committing);
    const version = this.clock.advance();
    for (const { collection, writes } of batches) collection.apply(writes, version);
  }

  /**
   * Writes to a collection that was dropped or replaced meanwhile (a transaction or a waiting write
   * still held its handle) change nothing that lasts, so they are left out.
   */
  private journalWrites(journal: ChangeJournal, batches: readonly WriteBatch[], committing: CommittedTransaction | undefined): void {
    const journaled: JournaledBatch[] = [];
    for (const { collection, writes } of batches) {
      if (!this.holds(collection)) continue;
      const changes: JournaledWrite[] = [];
      for (const write of writes) {
        if (write.doc !== null) changes.push({ doc: write.doc });
        else {
          // a batch writes each document once, so the current version is the one deleted
          const deleted = collection.current(write.id);
          if (deleted !== undefined) changes.push({ deletedId: deleted._id });
        }
      }
      if (changes.length > 0) journaled.push({ database: collection.database, collection: collection.name, writes: changes });
    }
    if (journaled.length > 0) journal.append({ kind: 'writeDocuments', batches: journaled, ...(committing && { committed: committing }) });
  }

  /** Whether `collection` is the one its namespace names now (not a dropped or replaced handle). */
  private holds(collection: Collection): boolean {
    return this.collection(collection.database, collection.name) === collection;
  }

  private collectionsOf(database: string): Map<string, Collection> {
    let collections = this.databases.get(database);
    if (collections === undefined) {
      collections = new Map();
      this.databases.set(database, collections);
    }
    return collections;
  }

  /** Removes a collection; false when it did not exist. Open transactions keep reading their own handle. */
  dropCollection(database: string, name: string): boolean {
    const collections = this.databases.get(database);
    if (collections?.has(name) !== true) return false;
    this.journal?.append({ kind: 'dropCollection', database, name });
    collections.delete(name);
    if (collections.size === 0) this.databases.delete(database);
    return true;
  }

  dropDatabase(database: string): void {
    if (!this.databases.has(database) && !this.viewCatalog.hasDatabase(database)) return;
    this.journal?.append({ kind: 'dropDatabase', database });
    this.databases.delete(database);
    this.viewCatalog.dropDatabase(database);
  }

  /** The collection as an operation sees it: through its transaction when it runs in one. */
  view(collection: Collection, transaction: Transaction | undefined): CollectionView {
    return transaction === undefined ? new LiveView(collection, this.commit) : transaction.view(collection);
  }

  private trimHistory(): void {
    const oldest = this.clock.oldestOpenSnapshot();
    for (const collections of this.databases.values()) for (const collection of collections.values()) collection.trimHistory(oldest);
  }
}

export interface StoreOptions {
  /** How long a transaction may stay open before the store aborts it (MongoDB: transactionLifetimeLimitSeconds, 60). */
  readonly transactionLifetimeLimitMs?: number;
}

/** `documents` as writes to a fresh collection; 11000 on `_id_` when two share an `_id`. */
function documentWrites(fresh: Collection, documents: readonly Document[]): DocumentWrite[] {
  const ids = new Set<string>();
  return documents.map((doc) => {
    const id = documentKey(doc._id);
    if (ids.has(id)) throw duplicateKeyError(fresh.ns, ID_INDEX.name, ID_INDEX.key, { _id: doc._id });
    ids.add(id);
    return { id, doc };
  });
}

/** Writes name collections; a view's name fails with MongoDB's 166 CommandNotSupportedOnView. */
export function assertNotView(views: ViewCatalog, database: string, name: string): void {
  if (views.get(database, name) !== undefined) throw viewIsNotACollection(database, name);
}

/** 166 CommandNotSupportedOnView: what writes, index commands and `$out`/`$merge` get on a view. */
export function viewIsNotACollection(database: string, name: string): CommandError {
  return new CommandError(ErrorCodes.CommandNotSupportedOnView, 'CommandNotSupportedOnView', `Namespace ${database}.${name} is a view, not a collection`);
}

function assertCollectionName(name: string): void {
  if (name.length === 0 || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw new CommandError(73, 'InvalidNamespace', `Invalid collection name: ${name}`);
  }
}
