import { UUID, type Document } from 'bson';
import { compileFilter, parseCollation, type Collation } from '../query';
import { withoutTimeLimit } from '../protocol/command-time-limit';
import { namedError } from '../protocol/command-error';
import { documentKey } from './document-key';
import { duplicateKeyError } from './duplicate-key-error';
import { EqualityIndex, type IndexDefinition, type UniqueKey } from './equality-index';
import { IdOrder } from './id-order';
import { planQuery, type QueryPlan } from './query-planner';
import type { VersionClock } from './version-clock';

/** One committed change: the document stored under `id` becomes `doc` (null deletes it). */
export interface DocumentWrite {
  readonly id: string;
  readonly doc: Document | null;
}

/** Writes to one collection; the batches of one commit are applied at one version. */
export interface WriteBatch {
  readonly collection: Collection;
  readonly writes: readonly DocumentWrite[];
}

/**
 * The transaction a commit completes: journaled with its writes, so that a commitTransaction the driver
 * retries after a restart is answered as committed instead of being run again (MongoDB keeps this in
 * config.transactions). `at` is when it committed (ms since the epoch).
 */
export interface CommittedTransaction {
  readonly session: string;
  readonly txnNumber: bigint;
  readonly at: number;
}

/** Commits write batches (Store.commitWrites): unique indexes checked, journaled when durable, applied. */
export type CommitWrites = (batches: readonly WriteBatch[], committing?: CommittedTransaction) => void;

/** The value a document had until a commit at version `supersededAt` replaced it (null: did not exist). */
interface HistoryRecord {
  readonly doc: Document | null;
  readonly supersededAt: number;
}

/** An open transaction as the holder of write claims; `ended` settles when it commits or aborts. */
export interface ClaimHolder {
  readonly id: number;
  readonly ended: Promise<void>;
}

/** What one document write does to the unique indexes: keys it adds (to check) and every key it adds or removes (to claim). */
export interface UniqueKeyChanges {
  readonly added: readonly { readonly index: EqualityIndex; readonly unique: UniqueKey }[];
  readonly claimKeys: readonly string[];
}

export const ID_INDEX: IndexDefinition = { name: '_id_', key: { _id: 1 }, unique: true, sparse: false, options: {} };

/**
 * The committed state of one collection: documents by `_id` key (insertion order is natural order),
 * secondary equality indexes, and the undo history that open transactions' snapshots read.
 * Stored documents are never mutated: a write replaces the whole object, so an old object stays a
 * valid snapshot of that document for whoever still holds it.
 */
export class Collection {
  readonly uuid = new UUID();
  /** Documents run through a filter, so tests can tell an index lookup from a scan. */
  docsExamined = 0;
  private readonly documents = new Map<string, Document>();
  private readonly indexes = new Map<string, EqualityIndex>();
  /** What the planner needs of the indexes, built on first use after they change (plan runs several times a query). */
  private indexesAsPlanned: PlannedIndexes | undefined;
  private readonly history = new Map<string, HistoryRecord[]>();
  /** Document id → the open transaction that has a pending write to it. */
  private readonly pendingWriters = new Map<string, ClaimHolder>();
  /** Unique index entry (`claimKey`) → the open transaction whose pending write adds or removes it. */
  private readonly pendingKeys = new Map<string, ClaimHolder>();
  /** The documents in `_id` order, built by the first sort on `_id` and kept up to date from then on. */
  private idOrder: IdOrder | undefined;
  /** The collation of operations that give none (`create`'s `collation` option); undefined: binary. */
  readonly defaultCollation: Collation | undefined;

  constructor(
    readonly database: string,
    readonly name: string,
    readonly options: Document,
    private readonly clock: VersionClock,
  ) {
    this.defaultCollation = options.collation === undefined ? undefined : parseCollation(options.collation);
    this.validator = enforcedValidator(options, this.defaultCollation);
  }

  /**
   * The `validator` option's query (`create` with `validationLevel` and `validationAction` as MongoDB
   * takes them): `refuses` a document that fails it. Undefined without one, at level `off` or with action `warn`.
   */
  readonly validator: { readonly refuses: (next: Document) => boolean } | undefined;

  get ns(): string {
    return `${this.database}.${this.name}`;
  }

  get size(): number {
    return this.documents.size;
  }

  current(id: string): Document | undefined {
    return this.documents.get(id);
  }

  currentIds(): IterableIterator<string> {
    return this.documents.keys();
  }

  currentDocuments(): IterableIterator<Document> {
    return this.documents.values();
  }

  /** The document as a snapshot taken at `snapshot` sees it. */
  visibleAt(id: string, snapshot: number): Document | undefined {
    const records = this.history.get(id);
    if (records !== undefined) {
      // records are in commit order; the first one replaced after the snapshot holds the value it saw
      for (const record of records) if (record.supersededAt > snapshot) return record.doc ?? undefined;
    }
    return this.documents.get(id);
  }

  /** Whether a commit after `snapshot` wrote the document (the write-conflict test). */
  writtenSince(id: string, snapshot: number): boolean {
    const records = this.history.get(id);
    return records !== undefined && records[records.length - 1]!.supersededAt > snapshot;
  }

  /** Ids of documents written after `snapshot`; a snapshot must look at these besides index candidates. */
  changedSince(snapshot: number): string[] {
    const ids: string[] = [];
    for (const [id, records] of this.history) if (records[records.length - 1]!.supersededAt > snapshot) ids.push(id);
    return ids;
  }

  /** How to find `filter`'s candidates; `collated`: the operation compares strings under a collation. */
  plan(filter: Document, collated = false): QueryPlan {
    this.indexesAsPlanned ??= plannedIndexes(this.indexes.values());
    return planQuery(filter, this.indexesAsPlanned.fields, collated, this.indexesAsPlanned.sparseFields);
  }

  /** Committed documents that may match an id or index plan, each once, in the order of the plan's values. */
  *candidates(plan: Exclude<QueryPlan, { kind: 'scan' }>): Iterable<Document> {
    if (plan.kind === 'index') {
      yield* this.indexes.get(plan.indexName)!.lookup(plan.values);
      return;
    }
    if (plan.values.length === 1) {
      const doc = this.documents.get(documentKey(plan.values[0]));
      if (doc !== undefined) yield doc;
      return;
    }
    const seen = new Set<string>();
    for (const value of plan.values) {
      const id = documentKey(value);
      if (seen.has(id)) continue;
      seen.add(id);
      const doc = this.documents.get(id);
      if (doc !== undefined) yield doc;
    }
  }

  /** `_id` keys of committed documents that may match an id or index plan. */
  candidateIds(plan: Exclude<QueryPlan, { kind: 'scan' }>): Set<string> {
    const ids = new Set<string>();
    if (plan.kind === 'id') {
      for (const value of plan.values) {
        const id = documentKey(value);
        if (this.documents.has(id)) ids.add(id);
      }
    } else {
      for (const doc of this.indexes.get(plan.indexName)!.lookup(plan.values)) ids.add(documentKey(doc._id));
    }
    return ids;
  }

  /**
   * The committed documents whose `field` equals `value`, in `sort` order, when an index led by
   * `field` keeps that order (`EqualityIndex.orderSignature`); undefined when none does.
   */
  inIndexOrder(field: string, value: unknown, sort: Document): readonly Document[] | undefined {
    if (Array.isArray(value)) return undefined; // an array also finds documents holding it whole
    for (const index of this.indexes.values()) {
      if (index.firstField !== field) continue;
      const signature = index.orderSignature(sort);
      if (signature !== undefined) return index.ordered(value, sort, signature);
    }
    return undefined;
  }

  /** Committed documents by ascending (1) or descending (-1) `_id`; the first call builds the order. */
  inIdOrder(direction: 1 | -1): Iterable<Document> {
    this.idOrder ??= withoutTimeLimit(() => new IdOrder(this.documents.values()));
    return this.idOrder.documents(direction);
  }

  indexDefinitions(): IndexDefinition[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((index) => index.definition)];
  }

  uniqueIndexes(): EqualityIndex[] {
    return [...this.indexes.values()].filter((index) => index.definition.unique);
  }

  hasIndex(name: string): boolean {
    return name === ID_INDEX.name || this.indexes.has(name);
  }

  /**
   * An index over the committed documents, not yet in use (`addIndex`); fails with E11000 when a
   * unique index meets duplicates. Store.createIndexes builds, journals, then adds.
   */
  buildIndex(definition: IndexDefinition): EqualityIndex {
    const index = new EqualityIndex(definition);
    for (const [id, doc] of this.documents) {
      for (const unique of index.uniqueKeys(doc)) {
        if (index.holders(unique.key).some((holder) => holder !== id)) {
          throw duplicateKeyError(this.ns, definition.name, definition.key, unique.keyValue);
        }
      }
      index.add(doc);
    }
    return index;
  }

  /** Puts an index from `buildIndex` in use; no write may come between the two. */
  addIndex(index: EqualityIndex): void {
    this.indexes.set(index.definition.name, index);
    this.indexesAsPlanned = undefined;
  }

  dropIndex(name: string): boolean {
    this.indexesAsPlanned = undefined;
    return this.indexes.delete(name);
  }

  /** Throws E11000 if applying `writes` would break a unique index. Changes nothing. */
  validate(writes: readonly DocumentWrite[]): void {
    const rewritten = new Set(writes.map((write) => write.id));
    for (const index of this.indexes.values()) {
      if (!index.definition.unique) continue;
      const claimed = new Map<string, string>();
      for (const write of writes) {
        if (write.doc === null) continue;
        for (const unique of index.uniqueKeys(write.doc)) {
          const inBatch = claimed.get(unique.key);
          const clash =
            (inBatch !== undefined && inBatch !== write.id) ||
            index.holders(unique.key).some((holder) => holder !== write.id && !rewritten.has(holder));
          if (clash) throw duplicateKeyError(this.ns, index.definition.name, index.definition.key, unique.keyValue);
          claimed.set(unique.key, write.id);
        }
      }
    }
  }

  /** Applies validated writes at `version`, keeping undo history while any transaction snapshot is open. */
  apply(writes: readonly DocumentWrite[], version: number): void {
    const keepHistory = this.clock.oldestOpenSnapshot() !== undefined;
    for (const write of writes) {
      const previous = this.documents.get(write.id);
      if (keepHistory) {
        const records = this.history.get(write.id);
        const record = { doc: previous ?? null, supersededAt: version };
        if (records === undefined) this.history.set(write.id, [record]);
        else records.push(record);
      }
      if (previous !== undefined) for (const index of this.indexes.values()) index.remove(previous);
      if (write.doc === null) {
        if (previous !== undefined) this.idOrder?.remove(previous._id);
        this.documents.delete(write.id);
        continue;
      }
      this.documents.set(write.id, write.doc);
      for (const index of this.indexes.values()) index.add(write.doc);
      if (previous === undefined) this.idOrder?.insert(write.doc);
      else this.idOrder?.replace(write.doc);
    }
  }

  /** Drops undo records no open snapshot can need (all of them when none is open). */
  trimHistory(oldestOpenSnapshot: number | undefined): void {
    if (this.history.size === 0) return;
    if (oldestOpenSnapshot === undefined) {
      this.history.clear();
      return;
    }
    for (const [id, records] of this.history) {
      const kept = records.filter((record) => record.supersededAt > oldestOpenSnapshot);
      if (kept.length === 0) this.history.delete(id);
      else if (kept.length !== records.length) this.history.set(id, kept);
    }
  }

  /** Marks a document as having a pending write of `holder`; false if another transaction holds it. */
  claim(id: string, holder: ClaimHolder): boolean {
    const current = this.pendingWriters.get(id);
    if (current !== undefined && current !== holder) return false;
    this.pendingWriters.set(id, holder);
    return true;
  }

  /** The open transaction with a pending write to the document, if any. */
  claimHolderOf(id: string): ClaimHolder | undefined {
    return this.pendingWriters.get(id);
  }

  release(id: string, holder: ClaimHolder): void {
    if (this.pendingWriters.get(id) === holder) this.pendingWriters.delete(id);
  }

  /** The transaction holding a unique index entry, if any. */
  keyHolder(claimKey: string): ClaimHolder | undefined {
    return this.pendingKeys.get(claimKey);
  }

  /** Claims unique index entries for `holder`; call only after checking no other transaction holds them. */
  claimKeys(claimKeys: readonly string[], holder: ClaimHolder): void {
    for (const key of claimKeys) this.pendingKeys.set(key, holder);
  }

  releaseKeys(claimKeys: Iterable<string>, holder: ClaimHolder): void {
    for (const key of claimKeys) if (this.pendingKeys.get(key) === holder) this.pendingKeys.delete(key);
  }

  /**
   * The unique index entries a write from `before` to `after` adds or removes. Entries it leaves
   * as they are are not written, so (as in MongoDB) they conflict with nobody.
   */
  uniqueKeyChanges(before: Document | null, after: Document | null): UniqueKeyChanges {
    const added: { index: EqualityIndex; unique: UniqueKey }[] = [];
    const claimKeys: string[] = [];
    for (const index of this.indexes.values()) {
      if (!index.definition.unique) continue;
      const old = before === null ? [] : index.uniqueKeys(before);
      const next = after === null ? [] : index.uniqueKeys(after);
      const oldKeys = new Set(old.map((unique) => unique.key));
      const nextKeys = new Set(next.map((unique) => unique.key));
      for (const unique of next) {
        if (oldKeys.has(unique.key)) continue;
        added.push({ index, unique });
        claimKeys.push(claimKeyOf(index, unique.key));
      }
      for (const unique of old) if (!nextKeys.has(unique.key)) claimKeys.push(claimKeyOf(index, unique.key));
    }
    return { added, claimKeys };
  }

  /**
   * What a write outside any transaction must wait for: the open transaction that holds the
   * document or one of the unique index entries the write changes (MongoDB: "the write waits
   * until the transaction ends"). Undefined when nothing is held.
   */
  writeBlocker(id: string, after: Document | null): Promise<void> | undefined {
    if (this.pendingWriters.size === 0 && this.pendingKeys.size === 0) return undefined;
    const holder = this.pendingWriters.get(id);
    if (holder !== undefined) return holder.ended;
    if (this.pendingKeys.size === 0) return undefined;
    for (const key of this.uniqueKeyChanges(this.documents.get(id) ?? null, after).claimKeys) {
      const keyHolder = this.pendingKeys.get(key);
      if (keyHolder !== undefined) return keyHolder.ended;
    }
    return undefined;
  }
}

/** A unique index entry as a claim map key: the index name and the entry's key. */
export function claimKeyOf(index: EqualityIndex, key: string): string {
  return `${index.definition.name}\u0000${key}`;
}

/**
 * The collection's validator (see Collection.validator); a query it cannot run fails `create` (BadValue),
 * and so does level `moderate`, which needs a document's validity before collMod (not served here).
 */
export function validatorOf(options: Document, collation: Collation | undefined): Collection['validator'] {
  const query: unknown = options.validator;
  if (options.validationLevel === 'moderate') throw namedError('InvalidOptions', 'validationLevel "moderate" is not supported by the embedded server; use "strict" or "off"');
  if (query === undefined || options.validationLevel === 'off' || options.validationAction === 'warn') return undefined;
  const passes = compileFilter(query as Document, collation === undefined ? undefined : { collation });
  return { refuses: (next) => !passes(next) };
}

/**
 * validatorOf for a collection being made or brought back: a data directory saved before validators
 * were enforced here may hold one this server cannot run (`$jsonSchema`); it is kept in the options,
 * as listed, and not enforced, rather than leave the data unopenable. `create` checks with validatorOf first.
 */
function enforcedValidator(options: Document, collation: Collation | undefined): Collection['validator'] {
  try {
    return validatorOf(options, collation);
  } catch {
    return undefined;
  }
}

interface PlannedIndexes {
  /** Each first field an index leads with → the first such index's name. */
  readonly fields: ReadonlyMap<string, string>;
  /** Those of them whose index is sparse. */
  readonly sparseFields: ReadonlySet<string>;
}

function plannedIndexes(indexes: Iterable<EqualityIndex>): PlannedIndexes {
  const fields = new Map<string, string>();
  const sparseFields = new Set<string>();
  for (const index of indexes) {
    if (fields.has(index.firstField)) continue;
    fields.set(index.firstField, index.definition.name);
    if (index.definition.sparse) sparseFields.add(index.firstField);
  }
  return { fields, sparseFields };
}
