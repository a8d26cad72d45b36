import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { claimKeyOf, type ClaimHolder, type Collection, type CommitWrites, type UniqueKeyChanges, type WriteBatch } from './collection';
import { CollectionView, inKeyOrder } from './collection-view';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import type { EqualityIndex, UniqueKey } from './equality-index';
import type { VersionClock } from './version-clock';

export type TransactionState = 'active' | 'committed' | 'aborted';

/**
 * One multi-document transaction: reads see the commit clock's version at its first operation plus
 * its own pending writes; writes are buffered and claimed (first writer wins) until commit applies
 * them to every collection at one new version, or abort drops them.
 */
export class Transaction implements ClaimHolder {
  readonly snapshot: number;
  /** Settles when the transaction commits or aborts; writes outside any transaction wait on it. */
  readonly ended: Promise<void>;
  private currentState: TransactionState = 'active';
  private readonly pending = new Map<Collection, Map<string, Document | null>>();
  /** Unique index entries this transaction's writes add or remove, per collection (released at the end). */
  private readonly claimedKeys = new Map<Collection, Set<string>>();
  private markEnded: () => void = () => undefined;
  private readonly abortUndos: Array<() => void> = [];

  constructor(
    /** Unique among transactions of the store; marks this transaction's claims on documents. */
    readonly id: number,
    readonly txnNumber: bigint,
    private readonly clock: VersionClock,
    private readonly commitWrites: CommitWrites,
  ) {
    this.snapshot = clock.openSnapshot();
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
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

  /**
   * First step of a write: fails with 251 when the transaction is over, and with 112 WriteConflict
   * when the document changed since the snapshot or another open transaction is writing it
   * (first writer wins), or when another open transaction adds or removes one of the unique index
   * entries this write changes.
   */
  assertWritable(collection: Collection, id: string, changes: UniqueKeyChanges): void {
    this.assertActive();
    const holder = collection.claimHolderOf(id);
    if (collection.writtenSince(id, this.snapshot) || (holder !== undefined && holder !== this)) throw writeConflict();
    for (const key of changes.claimKeys) {
      const keyHolder = collection.keyHolder(key);
      if (keyHolder !== undefined && keyHolder !== this) throw writeConflict();
    }
  }

  /** Whether this transaction's own writes add or remove the unique index entry. */
  holdsKey(collection: Collection, claimKey: string): boolean {
    return this.claimedKeys.get(collection)?.has(claimKey) ?? false;
  }

  /** Buffers a checked write (`assertWritable`, unique indexes) and claims its document and index entries. */
  stage(collection: Collection, id: string, doc: Document | null, changes: UniqueKeyChanges): void {
    collection.claim(id, this);
    collection.claimKeys(changes.claimKeys, this);
    let keys = this.claimedKeys.get(collection);
    if (keys === undefined) {
      keys = new Set();
      this.claimedKeys.set(collection, keys);
    }
    for (const key of changes.claimKeys) keys.add(key);
    let writes = this.pending.get(collection);
    if (writes === undefined) {
      writes = new Map();
      this.pending.set(collection, writes);
    }
    writes.set(id, doc);
  }

  /**
   * Commits every buffered write as one commit (one version, one journal record), or changes
   * nothing and aborts.
   */
  commit(): void {
    this.assertActive();
    const batches: WriteBatch[] = [];
    try {
      for (const [collection, writes] of this.pending) {
        // a write outside any transaction may have committed to a document this one claimed
        for (const id of writes.keys()) if (collection.writtenSince(id, this.snapshot)) throw writeConflict();
        batches.push({ collection, writes: [...writes].map(([id, doc]) => ({ id, doc })) });
      }
      this.commitWrites(batches);
    } catch (error) {
      this.abort();
      throw error;
    }
    this.finish('committed');
  }

  abort(): void {
    if (this.currentState === 'active') this.finish('aborted');
  }

  /** Runs `undo` if the transaction aborts (a collection its first write created goes with it). */
  whenAborted(undo: () => void): void {
    this.abortUndos.push(undo);
  }

  private finish(state: TransactionState): void {
    this.currentState = state;
    if (state === 'aborted') for (const undo of this.abortUndos.splice(0)) undo();
    for (const [collection, writes] of this.pending) for (const id of writes.keys()) collection.release(id, this);
    for (const [collection, keys] of this.claimedKeys) collection.releaseKeys(keys, this);
    this.clock.releaseSnapshot(this.snapshot);
    this.markEnded();
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

  protected *candidates(filter: Document, collated = false): Iterable<Document> {
    const plan = this.collection.plan(filter, collated);
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

  /** Nor does the committed index order: sorts sort the matches. */
  protected inIndexOrder(): undefined {
    return undefined;
  }

  insert(doc: Document): void {
    const id = documentKey(doc._id);
    if (this.get(id) !== undefined) throw this.duplicateIdError(doc);
    this.validate(doc);
    this.write(id, doc);
  }

  replace(id: string, doc: Document): void {
    this.validate(doc);
    this.write(id, doc);
  }

  remove(id: string): void {
    this.write(id, null);
  }

  /** Transactions never wait: a held document or index entry is a WriteConflict instead. */
  writeBlocker(): undefined {
    return undefined;
  }

  /** A write in MongoDB's order: the document (conflicts), then its index entries (conflicts, then duplicates). */
  private write(id: string, doc: Document | null): void {
    const changes = this.collection.uniqueKeyChanges(this.get(id) ?? null, doc);
    this.transaction.assertWritable(this.collection, id, changes);
    for (const { index, unique } of changes.added) this.assertUnique(id, index, unique);
    this.transaction.stage(this.collection, id, doc, changes);
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

  /**
   * A unique index entry this write adds, checked as this transaction sees the collection: 11000 when
   * a document it sees holds the key; 112 when a document committed after its snapshot holds the
   * key or held it at the snapshot (the entry changed under it, as WiredTiger reports).
   */
  private assertUnique(id: string, index: EqualityIndex, unique: UniqueKey): void {
    const pending = this.transaction.pendingWrites(this.collection);
    const duplicate = () => duplicateKeyError(this.collection.ns, index.definition.name, index.definition.key, unique.keyValue);
    const holdsKey = (doc: Document | null | undefined) => doc != null && index.uniqueKeys(doc).some((key) => key.key === unique.key);
    for (const other of index.holders(unique.key)) {
      if (other === id || pending?.has(other)) continue;
      if (this.collection.writtenSince(other, this.transaction.snapshot)) throw writeConflict();
      throw duplicate();
    }
    // own writes: only a document whose write added this entry can hold it beyond the committed holders
    if (pending !== undefined && this.transaction.holdsKey(this.collection, claimKeyOf(index, unique.key))) {
      for (const [other, doc] of pending) if (other !== id && holdsKey(doc)) throw duplicate();
    }
    if (pending !== undefined) {
      for (const other of index.holders(unique.key)) if (other !== id && pending.has(other) && holdsKey(pending.get(other))) throw duplicate();
    }
    for (const other of this.collection.changedSince(this.transaction.snapshot)) {
      if (other === id || pending?.has(other)) continue;
      if (holdsKey(this.collection.visibleAt(other, this.transaction.snapshot))) throw writeConflict();
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
