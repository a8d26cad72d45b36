import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../commands/command-error';
import type { Collection, DocumentWrite } from './collection';
import { CollectionView, inKeyOrder } from './collection-view';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import type { VersionClock } from './version-clock';

export type TransactionState = 'active' | 'committed' | 'aborted';

/**
 * One multi-document transaction: reads see the commit clock's version at its first operation plus
 * its own pending writes; writes are buffered and claimed (first writer wins) until commit applies
 * them to every collection at one new version, or abort drops them.
 */
export class Transaction {
  readonly snapshot: number;
  private currentState: TransactionState = 'active';
  private readonly pending = new Map<Collection, Map<string, Document | null>>();

  constructor(
    /** Unique among transactions of the store; marks this transaction's claims on documents. */
    readonly id: number,
    readonly txnNumber: bigint,
    private readonly clock: VersionClock,
  ) {
    this.snapshot = clock.openSnapshot();
  }

  get state(): TransactionState {
    return this.currentState;
  }

  view(collection: Collection): CollectionView {
    return new TransactionView(collection, this);
  }

  pendingWrites(collection: Collection): ReadonlyMap<string, Document | null> | undefined {
    return this.pending.get(collection);
  }

  /** Buffers a write, failing with WriteConflict if the document changed since the snapshot or another open transaction is writing it. */
  stage(collection: Collection, id: string, doc: Document | null): void {
    this.assertActive();
    if (collection.writtenSince(id, this.snapshot) || !collection.claim(id, this.id)) throw writeConflict();
    let writes = this.pending.get(collection);
    if (writes === undefined) {
      writes = new Map();
      this.pending.set(collection, writes);
    }
    writes.set(id, doc);
  }

  /** Applies every buffered write at one new version, or changes nothing and aborts. */
  commit(): void {
    this.assertActive();
    const batches: [Collection, DocumentWrite[]][] = [];
    try {
      for (const [collection, writes] of this.pending) {
        // a write outside any transaction may have committed to a document this one claimed
        for (const id of writes.keys()) if (collection.writtenSince(id, this.snapshot)) throw writeConflict();
        const batch = [...writes].map(([id, doc]) => ({ id, doc }));
        collection.validate(batch);
        batches.push([collection, batch]);
      }
    } catch (error) {
      this.abort();
      throw error;
    }
    this.finish('committed');
    const version = this.clock.advance();
    for (const [collection, batch] of batches) collection.apply(batch, version);
  }

  abort(): void {
    if (this.currentState === 'active') this.finish('aborted');
  }

  private finish(state: TransactionState): void {
    this.currentState = state;
    for (const [collection, writes] of this.pending) for (const id of writes.keys()) collection.release(id, this.id);
    this.clock.releaseSnapshot(this.snapshot);
  }

  private assertActive(): void {
    if (this.currentState !== 'active') throw noSuchTransaction(this.txnNumber, this.currentState);
  }
}

/** A collection through a transaction: snapshot reads overlaid with the transaction's own writes. */
class TransactionView extends CollectionView {
  constructor(
    collection: Collection,
    private readonly transaction: Transaction,
  ) {
    super(collection);
  }

  get(id: string): Document | undefined {
    const pending = this.transaction.pendingWrites(this.collection);
    if (pending?.has(id)) return pending.get(id) ?? undefined;
    return this.collection.visibleAt(id, this.transaction.snapshot);
  }

  count(): number {
    let count = 0;
    for (const _ of this.candidates({})) count += 1;
    return count;
  }

  protected *candidates(filter: Document): Iterable<Document> {
    const plan = this.collection.plan(filter);
    const seen = new Set<string>();
    if (plan.kind === 'scan') {
      for (const id of this.collection.currentIds()) {
        seen.add(id);
        const doc = this.get(id);
        if (doc !== undefined) yield doc;
      }
    } else {
      for (const id of this.collection.candidateIds(inKeyOrder(plan))) {
        seen.add(id);
        const doc = this.get(id);
        if (doc !== undefined) yield doc;
      }
    }
    // documents changed since the snapshot or by this transaction may match without being in the committed index
    yield* this.unseen(seen);
  }

  /** Snapshot reads add documents changed since the snapshot, which the filter must check. */
  protected candidatesAreExact(): boolean {
    return false;
  }

  /** The committed `_id` order does not show this transaction's snapshot: sorts on `_id` sort the matches. */
  protected inIdOrder(): undefined {
    return undefined;
  }

  insert(doc: Document): void {
    const id = documentKey(doc._id);
    if (this.get(id) !== undefined) throw this.duplicateIdError(doc);
    this.assertUnique(id, doc);
    this.transaction.stage(this.collection, id, doc);
  }

  replace(id: string, doc: Document): void {
    this.assertUnique(id, doc);
    this.transaction.stage(this.collection, id, doc);
  }

  remove(id: string): void {
    this.transaction.stage(this.collection, id, null);
  }

  private *unseen(seen: Set<string>): Iterable<Document> {
    const extra = [...this.collection.changedSince(this.transaction.snapshot), ...(this.transaction.pendingWrites(this.collection)?.keys() ?? [])];
    for (const id of extra) {
      if (seen.has(id)) continue;
      seen.add(id);
      const doc = this.get(id);
      if (doc !== undefined) yield doc;
    }
  }

  /** Unique indexes as this transaction sees the collection (the committed index may be stale for it). */
  private assertUnique(id: string, doc: Document): void {
    for (const index of this.collection.uniqueIndexes()) {
      for (const unique of index.uniqueKeys(doc)) {
        const suspects = new Set([
          ...index.holders(unique.key),
          ...this.collection.changedSince(this.transaction.snapshot),
          ...(this.transaction.pendingWrites(this.collection)?.keys() ?? []),
        ]);
        for (const other of suspects) {
          if (other === id) continue;
          const visible = this.get(other);
          if (visible !== undefined && index.uniqueKeys(visible).some((key) => key.key === unique.key)) {
            throw duplicateKeyError(this.collection.ns, index.definition.name, index.definition.key, unique.keyValue);
          }
        }
      }
    }
  }
}

export function writeConflict(): CommandError {
  return new CommandError(
    ErrorCodes.WriteConflict,
    'WriteConflict',
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    {},
    ['TransientTransactionError'],
  );
}

export function noSuchTransaction(txnNumber: bigint, state?: TransactionState): CommandError {
  const message =
    state === 'aborted'
      ? `Transaction with { txnNumber: ${txnNumber} } has been aborted.`
      : `Given transaction number ${txnNumber} does not match any in-progress transactions.`;
  return new CommandError(ErrorCodes.NoSuchTransaction, 'NoSuchTransaction', message, {}, ['TransientTransactionError']);
}
