import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../commands/command-error';
import { Collection } from './collection';
import { LiveView, type CollectionView } from './collection-view';
import { CursorStore } from './cursor-store';
import { DEFAULT_TRANSACTION_LIFETIME_MS, SessionRegistry } from './session-registry';
import type { Transaction } from './transaction';
import { VersionClock } from './version-clock';

/**
 * Everything the embedded server stores: databases of collections, open cursors, sessions and their
 * transactions. One Store per server; commands reach data only through it.
 */
export class Store {
  readonly clock = new VersionClock();
  readonly cursors = new CursorStore();
  readonly sessions: SessionRegistry;
  private readonly databases = new Map<string, Map<string, Collection>>();

  constructor(options: StoreOptions = {}) {
    this.sessions = new SessionRegistry(this.clock, () => this.trimHistory(), options.transactionLifetimeLimitMs ?? DEFAULT_TRANSACTION_LIFETIME_MS);
  }

  databaseNames(): string[] {
    return [...this.databases.keys()].sort();
  }

  collections(database: string): Collection[] {
    return [...(this.databases.get(database)?.values() ?? [])];
  }

  collection(database: string, name: string): Collection | undefined {
    return this.databases.get(database)?.get(name);
  }

  /** The collection, created implicitly (as inserts and createIndexes do) when missing. */
  ensureCollection(database: string, name: string): Collection {
    return this.collection(database, name) ?? this.createCollection(database, name, {});
  }

  /** The `create` command: NamespaceExists (48) when the collection is already there. */
  createCollection(database: string, name: string, options: Document): Collection {
    assertCollectionName(name);
    let collections = this.databases.get(database);
    if (collections === undefined) {
      collections = new Map();
      this.databases.set(database, collections);
    }
    if (collections.has(name)) {
      throw new CommandError(ErrorCodes.NamespaceExists, 'NamespaceExists', `Collection ${database}.${name} already exists.`);
    }
    const collection = new Collection(database, name, options, this.clock);
    collections.set(name, collection);
    return collection;
  }

  /** Removes a collection; false when it did not exist. Open transactions keep reading their own handle. */
  dropCollection(database: string, name: string): boolean {
    const collections = this.databases.get(database);
    if (collections?.delete(name) !== true) return false;
    if (collections.size === 0) this.databases.delete(database);
    return true;
  }

  dropDatabase(database: string): void {
    this.databases.delete(database);
  }

  /** The collection as an operation sees it: through its transaction when it runs in one. */
  view(collection: Collection, transaction: Transaction | undefined): CollectionView {
    return transaction === undefined ? new LiveView(collection) : transaction.view(collection);
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

function assertCollectionName(name: string): void {
  if (name.length === 0 || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw new CommandError(73, 'InvalidNamespace', `Invalid collection name: ${name}`);
  }
}
