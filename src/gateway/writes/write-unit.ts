import { ObjectId } from 'bson';
import { isKeyValue, keyString } from '../documents/key-string';
import { pathsOverlap, readPath, writePath } from '../documents/read-path';
import { InvariantError } from '../errors/internal-errors';
import { badUserInput, forbidden } from '../errors/public-error-code';
import { scopedFilter } from '../request/access/scope-read-command';
import { NO_CLAIM } from '../request/access/stored-claim';
import type { ViewerAccess } from '../request/access/viewer-access';
import { refuseHiddenFilter, type ComparisonRefusal } from '../request/access/comparison-refusal';
import { sortDocument } from '../startup/storage-map/parse-sort';
import { storedPathsOf as fieldStoredPaths } from '../startup/storage-map/stored-paths';
import { boundedArraysOf, collectionsDerivedFromDelete, incomingReferences, planDeleteDerived } from './delete-planner';
import type { FunnelWriter, UpdateStatement } from '../request/mongo/funnel-writer';
import { projectionOf, toFindProjection, type Projection } from '../operation/planning/projection';
import type { StoredDocument } from '../documents/stored-document';
import { hasFanOut, planBoundedCopyUpdates, planSourceUpdate, type SourceUpdatePlan } from './fan-out-planner';
import { wholeSetProblem } from './derived-paths';
import { copiedKeys, fillSnapshot, forwardReferences, keysSetBy, planInsertDerived, soleUpdateOf, uncheckedParents, type ForwardReference } from './insert-planner';
import { existingChildrenReads, existingSumsPipeline, withExistingCopies, withExistingSums, withInitialDerivedValues } from './initial-derived-values';
import { keyedParentLockIds, newParentLockIds } from './keyed-parent-locks';
import { collectionsOfMoves, collectionsOfReferenceChange, pathsBeforeMoves, planChildMoves, planReferenceChange } from './reference-planner';
import { countersMoved, type SourceChangeListener } from './source-changes';
import type { WriteOperation, WritePlan } from './write-plan';
import { lockIds, storedPathsOf, type ReferenceLocks } from './reference-locks';
import { changedSinceRead, InjectedWriteFailure, injectedWriteFailures, derivedValueMistyped, documentTooLarge, notFound, pathNotSettable, refusedByConstraint, totalOverflow } from './write-errors';
import type { BoundedArray, SnapshotLocation, WriteModel } from '../startup/write-model/write-model-types';
import { describeEquals, describeValueType, sameValue, type RowCondition } from '../startup/access-rules/access-rule-types';
import { groupByCollection, type PlannedUpdate, type WriteStep } from './write-steps';
import { floatStepCondition, pathsBeforeUpdate, refuseOversizedFloatMoves, refuseValuesTotalsCannotTake, totalsFedBy, totalsMovedBy } from './total-planner';

/**
 * The commands one attempt may send (its plan's reads and writes, estimate-write-unit.ts): the static
 * estimate relies on it, so the unit fails rather than send more.
 */
export interface CommandBudget {
  /** `Mutation.field`, for the error. */
  readonly coordinate: string;
  readonly commands: number;
}

/** How a source document is picked: by `_id` or by a unique stored field (`{ symbol: "ACME" }`). */
export type SourceSelector = Readonly<Record<string, unknown>>;

/** How `insert` treats its document. */
export interface InsertOptions {
  /**
   * A generated create: docjoin made its `_id` (a `where` on `id` sets it from the claim instead of
   * comparing), and its answer reads the document back, so the role's READ conditions are presets too.
   */
  readonly generated?: boolean;
}

/**
 * One mutation's writes, in a fixed order: checks (reads) first, then the source of truth, then the
 * derived copies (snapshots, bounded arrays, inverse arrays, counters, totals). Every derived write is
 * computed from the source values, so a run cut short leaves drift only in derived data, which
 * reconcile repairs from the sources; a copy's statement is guarded (`$ne` on the pushed id) or
 * idempotent (`$set`), so running the same plan again does not double it. A counter's or a total's
 * `$inc` is neither: a transaction takes a failed attempt back whole; without one, reconcile repairs it.
 *
 * A unit is used once; inside a transaction the driver may run the mutation's work again on a fresh one.
 */
export class WriteUnit {
  #writes = 0;
  #commands = 0;
  #returned: ReturnedDocument[] = [];
  /**
   * Documents this unit read with every field the snapshots copy from them, by what the caller holds of
   * them (only the paths it asked for) and by themselves: an insert fills copies from them as they are.
   */
  readonly #completeSources = new WeakMap<StoredDocument, SourceRead>();
  /** Documents this unit read for a reference that copies nothing (`_id` alone): a snapshot of the same document reads it again. */
  readonly #partialReads = new WeakSet<StoredDocument>();

  /**
   * `returning`: per collection, the paths the mutation's selection will read of documents it loads by
   * `_id` (joinsById). A single-document update of one of them that changes what it matches goes out as
   * findAndModify and returns that document (`returned`), which saves the selection its read.
   */
  constructor(
    private readonly model: WriteModel,
    /** Which references lock their targets, and which writes of those targets bump the locks (reference-locks.ts). */
    private readonly locks: ReferenceLocks,
    private readonly writer: FunnelWriter,
    private readonly budget?: CommandBudget,
    private readonly returning: ReadonlyMap<string, Projection> = new Map(),
    /** The viewer's access rules (undefined without rules): what it reads is filtered, what it writes checked. */
    private readonly access?: ViewerAccess,
    /** The Mutation field whose unit this is, for the rules that allow a write only through some (`via`). */
    private readonly mutationField = '',
    /** Told each source document the unit changed, and which fields (workload capture). */
    private readonly onSourceChange: SourceChangeListener = () => undefined,
    /** Under access rules, what filtering `typeName` documents by `path` would show the viewer that it may not see. */
    private readonly comparisonRefusal?: ComparisonRefusal,
    /** Told when the unit sets a field the viewer may not see (WriteUnitRecord.conceal). */
    private readonly onConcealedWrite: () => void = () => undefined,
    /** The mutation's write plan: a call it does not declare is refused (undefined: any, as in tests of the unit alone). */
    private readonly declared?: WritePlan,
  ) {}

  /** The documents this unit's updates returned, as they left them. */
  get returned(): readonly ReturnedDocument[] {
    return this.#returned;
  }

  /**
   * The first `typeName` document matching `filter` (one read of at most one document, in the unit's
   * transaction), or NOT_FOUND "`typeName` `what` not found": `what` says which, as `with that email`.
   */
  async requireOne(typeName: string, filter: StoredDocument, paths: readonly string[], what: string): Promise<StoredDocument> {
    this.#requireDeclared(`requireOne('${typeName}')`, (operation) => operation.kind === 'requireOne' && operation.typeName === typeName);
    refuseHiddenFilter(this.comparisonRefusal, `Mutation.${this.mutationField}`, typeName, filter);
    this.#spend();
    const collection = this.#collectionOf(typeName);
    const [document] = await this.writer.find(collection, this.#readable(collection, filter), this.#withCopiedPaths(typeName, paths), { limit: 1 });
    if (!document) throw notFound(`${typeName} ${what} not found`, { typeName });
    return this.#handOut(collection, document, paths);
  }

  /**
   * The `typeName` documents whose `_id` is in `ids`, in ONE find (the order of `ids`), or NOT_FOUND
   * naming the first missing one; `paths` are the stored paths the caller needs.
   */
  async requireMany(typeName: string, ids: readonly unknown[], paths: readonly string[]): Promise<StoredDocument[]> {
    this.#requireDeclared(`requireMany('${typeName}') of ${ids.length} ids`, (operation) => operation.kind === 'requireMany' && operation.typeName === typeName && ids.length <= operation.maxKeys);
    this.#spend();
    const collection = this.#collectionOf(typeName);
    const found = await this.writer.find(collection, this.#readable(collection, { _id: { $in: [...ids] } }), this.#withCopiedPaths(typeName, ['_id', ...paths]));
    const byId = new Map(found.map((document) => [keyString(document._id), this.#handOut(collection, document, paths)]));
    const missing = ids.find((id) => !byId.has(keyString(id)));
    if (missing !== undefined) throw notFound(`${typeName} ${describeKey(missing)} not found`, { typeName });
    return ids.map((id) => byId.get(keyString(id))!);
  }

  /**
   * What the caller gets of a document read with the copied fields too: the top-level fields of the
   * paths it asked for (and `_id`), so resolver code sees what it read; the whole read stays with the
   * unit for `insert`.
   */
  #handOut(collection: string, document: StoredDocument, paths: readonly string[]): StoredDocument {
    const asked = new Set(['_id', ...paths.map((path) => path.split('.')[0]!)]);
    const given: StoredDocument = Object.fromEntries(Object.entries(document).filter(([name]) => asked.has(name)));
    const read = { collection, document };
    this.#completeSources.set(given, read);
    this.#completeSources.set(document, read);
    return given;
  }

  /**
   * `paths` and every path a snapshot copies from `typeName` documents: whatever projection a hand-written
   * resolver asks for, the documents it passes to `insert` fill every field the schema copies now (a
   * migration may have widened a snapshot since the resolver was written).
   */
  #withCopiedPaths(typeName: string, paths: readonly string[]): Record<string, 1 | { $slice: number }> {
    return this.#withPathsCopiedFrom((location) => location.sourceType === typeName, paths);
  }

  /** A find projection of `paths` and the paths the matching snapshots copy (`address` covering `address.city`: MongoDB refuses both). */
  #withPathsCopiedFrom(copiesFrom: (location: SnapshotLocation) => boolean, paths: readonly string[]): Record<string, 1 | { $slice: number }> {
    const copied = this.model.snapshots.filter(copiesFrom).flatMap((location) => location.fields.map((field) => field.sourcePath));
    return toFindProjection(projectionOf([...paths, ...copied].map((path) => [path, 1] as const)));
  }

  /**
   * Deletes the `typeName` document `id` and what it contributed to other documents: its parents'
   * counters, the bounded arrays it was in (read again from their source), the inverse arrays of its
   * references, its parents' totals its value, all as the delete found it (one findAndModify when it
   * moves any of them). Refused (BAD_USER_INPUT, nothing
   * written) while other documents still reference it by key: their joins and snapshots would point at
   * nothing. NOT_FOUND when there is no such document, or another write deleted it meanwhile.
   */
  async delete(typeName: string, id: unknown): Promise<void> {
    this.#requireDeclared(`delete('${typeName}')`, (operation) => operation.kind === 'delete' && operation.typeName === typeName);
    const collection = this.#collectionOf(typeName);
    const rows = this.#rowsFor(typeName, 'delete');
    const [document] = await this.#read(collection, withRows({ _id: id }, rows), {}, { limit: 1 });
    if (!document) throw notFound(`${typeName} ${describeKey(id)} not found`, { typeName });
    for (const reference of incomingReferences(this.model, typeName)) {
      const [holder] = await this.#read(reference.collection, { [reference.path]: id }, { _id: 1 }, { limit: 1 });
      if (holder) {
        // The holder may be a row the viewer cannot read, or its reference a field the viewer may not see: its id is told
        // only to a viewer who reads every row and could filter them by that field itself.
        const holderName = this.#readsAll(reference.collection) && !this.#hidesPath(reference.collection, reference.path) ? `${reference.collection} ${describeKey(holder._id)}` : reference.collection;
        throw badUserInput(`${typeName} ${describeKey(id)} is still referenced by ${holderName} at ${reference.path}; delete or re-point those first`, {
          field: reference.coordinate,
        });
      }
    }
    // What was deleted, as it was: the parents it counted then, the value it added (another write may have re-pointed or changed it since the read).
    if (this.locks.locksDelete(typeName)) await this.#lock(lockIds(collection, id, 'changing'));
    const movesOthers = collectionsDerivedFromDelete(this.model, typeName, collection).length > 0;
    const deleted = movesOthers ? await this.#deleteReturning(collection, withRows({ _id: id }, rows)) : await this.#deleteRead(collection, withRows({ _id: id }, rows), document);
    // Deleted meanwhile by another write, which took its contributions away.
    if (!deleted) throw notFound(`${typeName} ${describeKey(id)} not found`, { typeName });
    const refills = new Map<BoundedArray, StoredDocument[]>();
    for (const array of boundedArraysOf(this.model, collection)) {
      const parentKey = readPath(deleted, array.childKey);
      if (parentKey === undefined || parentKey === null) continue;
      refills.set(array, await this.#read(array.childCollection, { [array.childKey]: parentKey }, {}, { sort: sortDocument(array.sort), limit: array.limit }));
    }
    // The refill copies those children, and the snapshots they hold: an update of one of them, or of a source they copy, must
    // not go unseen (reference-locks.ts). The deleted document's own slot makes the command go out even when no child is left,
    // so its round trip tells no one whether any is.
    if (this.locks.locksRefill(typeName)) {
      const children = [...refills.values()].flat();
      const copiedSources = this.locks.refilledSnapshots(typeName).flatMap((location) => children.flatMap((child) => copiedKeys(child, location).flatMap((key) => lockIds(location.sourceCollection, key, 'pointing'))));
      await this.#lock([...[id, ...children.map((child) => child._id)].flatMap((key) => lockIds(collection, key, 'pointing')), ...copiedSources]);
    }
    await this.#applyDerived(planDeleteDerived(this.model, typeName, collection, deleted, refills));
  }

  /** ONE delete command: `read` when it deleted it, null when another write had. */
  async #deleteRead(collection: string, filter: StoredDocument, read: StoredDocument): Promise<StoredDocument | null> {
    const { matched } = await this.#apply({ kind: 'delete', collection, filter });
    return matched > 0 ? read : null;
  }

  /** ONE findAndModify deleting the document: as it was, or null when another write had deleted it. */
  async #deleteReturning(collection: string, filter: StoredDocument): Promise<StoredDocument | null> {
    this.#spend();
    this.#returned = this.#returned.filter((returned) => returned.collection !== collection);
    const document = await this.writer.deleteOneReturning(collection, filter);
    this.#countWrite();
    return document;
  }

  /**
   * Sets `changes` (GraphQL field name → value) on the source document (with the copies that live inside
   * it, in the same statement), then on every other snapshot copy of those fields. NOT_FOUND, with
   * nothing written, when the selector matches no document.
   */
  async updateSource(typeName: string, selector: SourceSelector, changes: Readonly<Record<string, unknown>>): Promise<void> {
    const names = Object.keys(changes);
    this.#requireDeclared(`updateSource('${typeName}') of ${names.join(', ')}`, (operation) => operation.kind === 'updateSource' && operation.typeName === typeName && names.every((name) => operation.fields.includes(name)));
    refuseHiddenFilter(this.comparisonRefusal, `Mutation.${this.mutationField}`, typeName, selector);
    const storage = this.model.storageMap.types.get(typeName);
    const $set: StoredDocument = {};
    const setting: Array<{ name: string; path: string }> = [];
    for (const [name, value] of Object.entries(changes)) {
      const field = storage?.fields.get(name);
      if (field?.kind !== 'stored' || field.isId) throw new InvariantError(`updateSource: ${typeName}.${name} is not a stored field`);
      const wholeSet = wholeSetProblem(this.model, typeName, name, field.path);
      if (wholeSet) throw new InvariantError(`updateSource: ${wholeSet}`);
      $set[field.path] = value;
      setting.push({ name, path: field.path });
    }
    refuseValuesTotalsCannotTake(totalsMovedBy(this.model, typeName, Object.keys($set)), (path) => $set[path]);
    const rows = this.#rowsFor(typeName, 'update', setting);
    this.#concealIfHidden(typeName, Object.keys($set), () => collectionsOfMoves(this.model, typeName, Object.keys($set)).length > 0);
    await this.#requireReadableKeys(typeName, $set);
    let id = selector._id;
    const described = describe(selector);
    if (id === undefined && hasFanOut(this.model, typeName, Object.keys(changes))) {
      const [found] = await this.#read(this.#collectionOf(typeName), withRows({ ...selector }, rows), { _id: 1 }, { limit: 1 });
      if (!found) throw notFound(`${typeName} ${described} not found`, { typeName });
      id = found._id;
    }
    // The whole selector, with the _id it was read at: a guard beside the _id (`status: 'OPEN'`) holds when the update runs.
    const filter = withRows(id === undefined ? { ...selector } : { ...selector, _id: id }, rows);
    const plan = planSourceUpdate(this.model, typeName, { collection: this.#collectionOf(typeName), filter, sourceId: id }, $set, changes);
    const paths = Object.keys($set);
    if (this.locks.locksUpdate(typeName, paths)) {
      // A locked snapshot copies a field it sets: hasFanOut, so the source was picked by its `_id` above.
      if (id === undefined) throw new InvariantError(`updateSource: ${typeName} ${described} changes copied fields but was not picked by _id`);
      await this.#lock(lockIds(plan.source.collection, id, 'changing'));
    }
    const { source, moves } = await this.#setting(typeName, setting, async () => {
      if (collectionsOfMoves(this.model, typeName, paths).length === 0) return { source: await this.#apply({ kind: 'update', collection: plan.source.collection, statements: plan.source.statements }), moves: [] };
      // Counters and totals move by what the document held before this very update, so concurrent updates each move them by their own change.
      const before = await this.#updateMovingTotals(typeName, $set, plan.source, filter, [...paths, ...pathsBeforeMoves(this.model, typeName, paths)]);
      const modified = before !== null && paths.some((path) => keyString(readPath(before, path) ?? null) !== keyString($set[path] ?? null));
      return { source: { matched: before ? 1 : 0, modified: modified ? 1 : 0 }, moves: before ? planChildMoves(this.model, typeName, before, $set) : [] };
    });
    if (source.matched === 0) throw notFound(`${typeName} ${described} not found`, { typeName });
    // A document left as it was (every field set to the value it held) changed nothing, and neither do its copies.
    if (source.modified > 0) this.onSourceChange({ typeName, fields: Object.keys(changes).sort(), id });
    await this.#applyDerived([...plan.fanOut, ...moves]);
  }

  /**
   * Runs `update`, a write of a `typeName` document's own fields (`setting`): MongoDB refusing a path
   * inside a value that is no document there is BAD_USER_INPUT naming those fields (the nested ones).
   */
  async #setting<T>(typeName: string, setting: ReadonlyArray<{ readonly name: string; readonly path: string }>, update: () => Promise<T>): Promise<T> {
    try {
      return await update();
    } catch (error) {
      const nested = setting.filter((field) => field.path.includes('.'));
      const fields = (nested.length > 0 ? nested : setting).map((field) => `${typeName}.${field.name} (at ${field.path})`);
      throw pathNotSettable(`Mutation.${this.mutationField}`, fields, error, this.writer.inTransaction) ?? error;
    }
  }

  /**
   * A key an update sets (a reference's, or the one a parent picks its children by) must name a row
   * the viewer reads where it reads that collection in part, as a create's must (NOT_FOUND otherwise,
   * nothing written): re-pointed to another tenant's row, the document would join its lists and counts.
   * A list of such keys, or one inside an embedded list, is refused there: a create checks those.
   */
  async #requireReadableKeys(typeName: string, $set: StoredDocument): Promise<void> {
    const keys = keysSetBy(this.model, typeName, Object.keys($set));
    if (keys.length === 0) return;
    const written: StoredDocument = {};
    for (const [path, value] of Object.entries($set)) writePath(written, path, value);
    const known = new KnownSources((collection) => this.#readsAll(collection));
    for (const key of keys) {
      const value = readPath(written, key.keyPath);
      // A key cleared points at no row.
      if (value === null || value === undefined || (Array.isArray(value) && value.length === 0) || this.#readsAll(key.collection)) continue;
      if (key.many) throw forbidden(`Mutation.${this.mutationField} sets ${key.coordinate}, keys of rows the role reads only in part, which an update does not check; set them when the document is created`);
      await this.#requireSources({ coordinate: key.coordinate, collection: key.collection, keys: [value], provable: false }, known);
    }
  }

  /**
   * Inserts a new `typeName` document: its references must exist (NOT_FOUND otherwise, nothing
   * written), its snapshots are filled from their sources (`preloaded` sources save the read), its
   * derived values start true, and every bounded array, counter and inverse it feeds is updated.
   * Inside a transaction, a reference whose target the derived update alone picks by `_id`
   * (provedByDerivedUpdate) is not read: that update matching nothing is the NOT_FOUND, and the
   * transaction takes the insert back. Returns the document as inserted.
   */
  async insert(typeName: string, document: StoredDocument, preloaded: readonly StoredDocument[] = [], options: InsertOptions = {}): Promise<StoredDocument> {
    this.#requireDeclared(`insert('${typeName}')`, (operation) => operation.kind === 'insert' && operation.typeName === typeName);
    const collection = this.#collectionOf(typeName);
    const presets = this.#presetConditions(typeName, options.generated === true);
    let complete = this.#withPresets(typeName, document, presets, options.generated === true);
    const known = new KnownSources((collection) => this.#readsAll(collection));
    for (const given of preloaded) {
      const read = this.#completeSources.get(given);
      // A document the resolver read itself: the caller says which reference it is for by its id.
      known.add(read?.collection, read?.document ?? given);
    }
    const proofs = new Map<string, ForwardReference>();
    // From the document with its presets: a reference a create rule sets from a claim is checked and copied as a given one is.
    for (const reference of forwardReferences(this.model, typeName, complete)) {
      // A target the viewer reads only in part is read through its filter, never proved by the update.
      if (reference.provable && this.writer.inTransaction && !known.has(reference.collection, reference.keys[0]) && this.#readsAll(reference.collection)) {
        const proof = proofs.get(reference.collection);
        // Two relations on one local field point at one target: the same statement proves both.
        if (!proof) proofs.set(reference.collection, reference);
        if (!proof || keyString(proof.keys[0]) === keyString(reference.keys[0])) continue;
      }
      this.#refuseIncompleteSources(typeName, reference, known);
      await this.#requireSources(reference, known);
      complete = fillSnapshot(complete, reference, known.in(reference.collection));
    }
    // A parent the viewer reads in part must be one it reads: the new document would join its lists and counts.
    for (const parent of uncheckedParents(this.model, typeName, complete)) if (!this.#readsAll(parent.collection)) await this.#requireSources(parent, known);
    complete = withInitialDerivedValues(this.model, typeName, collection, complete);
    complete = await this.#withExistingChildren(collection, complete);
    this.#requirePresetsHeld(typeName, complete, presets);
    refuseValuesTotalsCannotTake(totalsFedBy(this.model, typeName), (path) => readPath(complete, path));
    const planned = planInsertDerived(this.model, typeName, complete);
    const derived = groupByCollection(planned);
    for (const [target, reference] of proofs) {
      if (soleUpdateOf(derived.find((step) => step.collection === target), reference.keys[0])) continue;
      proofs.delete(target);
      await this.#requireSources(reference, known);
    }
    await this.#lock([
      ...forwardReferences(this.model, typeName, complete)
        .filter((reference) => this.locks.locksReference(reference.coordinate, 'insert'))
        .flatMap((reference) => reference.keys.flatMap((key) => lockIds(reference.collection, key, 'pointing'))),
      ...this.#movedCounterLocks(planned),
      ...newParentLockIds(this.model, collection, complete),
    ]);
    await this.#apply({ kind: 'insert', collection, documents: [complete] });
    for (const step of derived) {
      const { matched } = await this.#apply(step, 'derived');
      const reference = proofs.get(step.collection);
      if (reference && matched === 0) throw referenceNotFound(reference, reference.keys[0]);
    }
    for (const change of countersMoved(this.model, planned)) this.onSourceChange(change);
    return complete;
  }

  /**
   * A source the caller passed without a non-null field `reference`'s snapshot copies (read elsewhere
   * with a narrower projection, perhaps before a migration widened the snapshot) would store the copy
   * without it: refused before anything is written, naming the mutation, the source and the field. (A
   * nullable field may be absent from the data itself, so its absence proves nothing.) In a transaction,
   * one the reference locks (reference-locks.ts) is refused whatever it holds: it may predate the lock.
   */
  #refuseIncompleteSources(typeName: string, reference: ForwardReference, known: KnownSources): void {
    const sourceType = this.model.snapshots.find((location) => location.coordinate === reference.coordinate)?.sourceType;
    const sourceFields = sourceType === undefined ? undefined : this.model.storageMap.types.get(sourceType)?.fields;
    const required = (reference.snapshot?.fields ?? []).filter((field) => {
      const stored = sourceFields?.get(field.name);
      return stored?.kind === 'stored' && stored.valueType.nonNull;
    });
    for (const key of reference.keys) {
      const source = known.in(reference.collection).get(keyString(key));
      if (!source || this.#completeSources.has(source) || this.#partialReads.has(source)) continue;
      // The lock proves nothing changed since the transaction began; a document read before it may be older.
      if (this.writer.inTransaction && this.locks.locksReference(reference.coordinate, 'insert')) {
        throw new InvariantError(
          `${this.mutationField || 'a write unit'}: the ${reference.collection} document ${describeKey(key)} given to insert ${typeName} was read outside the write unit, and ${reference.coordinate} copies or points at it while other mutations change it; pass what requireOne or requireMany returned inside the unit`,
        );
      }
      const lacking = required.find((field) => readPath(source, field.sourcePath) === undefined);
      if (!lacking) continue;
      throw new InvariantError(
        `${this.mutationField || 'a write unit'}: the ${reference.collection} document ${describeKey(key)} given to insert ${typeName} has no "${lacking.sourcePath}", which ${reference.coordinate} copies; pass what requireOne or requireMany returned (they read every field the snapshots copy), or read "${lacking.sourcePath}" too`,
      );
    }
  }

  /** Reads the targets of `reference` not `known` yet, in ONE find, into `known`; NOT_FOUND naming the first missing one. */
  async #requireSources(reference: ForwardReference, known: KnownSources): Promise<void> {
    const held = known.in(reference.collection);
    const missing = reference.keys.filter((key) => {
      const source = held.get(keyString(key));
      return !source || (reference.snapshot !== undefined && this.#partialReads.has(source));
    });
    if (missing.length === 0) return;
    const projection = reference.snapshot ? this.#withPathsCopiedFrom((location) => location.sourceCollection === reference.collection, ['_id']) : { _id: 1 as const };
    this.#spend();
    const found = await this.writer.find(reference.collection, this.#readable(reference.collection, { _id: { $in: missing } }), projection);
    for (const source of found) {
      known.add(reference.collection, source);
      if (reference.snapshot) this.#completeSources.set(source, { collection: reference.collection, document: source });
      else this.#partialReads.add(source);
    }
    const absent = missing.find((key) => !known.has(reference.collection, key));
    if (absent !== undefined) throw referenceNotFound(reference, absent);
  }

  /**
   * Points the by-key relation `coordinate` (`Task.owner`) of document `id` at `newKey`, and moves the
   * document between the inverse arrays (and their counters), and between the parents whose counters
   * and totals of a reverse join keyed there count it. NOT_FOUND for an unknown document or target.
   */
  async changeReference(coordinate: string, id: unknown, newKey: unknown): Promise<void> {
    this.#requireDeclared(`changeReference('${coordinate}')`, (operation) => operation.kind === 'changeReference' && operation.coordinate === coordinate);
    const field = this.model.storageMap.relations.get(coordinate);
    const join = field?.shapes.join;
    if (!field || !join || join.direction !== 'byKey' || field.isList) throw new InvariantError(`changeReference: ${coordinate} is not a single by-key join`);
    const rows = this.#rowsFor(field.typeName, 'update', [{ name: field.fieldName, path: join.localField }]);
    this.#concealIfHidden(field.typeName, [join.localField], () => collectionsOfMoves(this.model, field.typeName, [join.localField]).length > 0 || collectionsOfReferenceChange(this.model, coordinate).length > 0);
    const collection = this.#collectionOf(field.typeName);
    const [document] = await this.#read(collection, withRows({ _id: id }, rows), { [join.localField]: 1 }, { limit: 1 });
    if (!document) throw notFound(`${field.typeName} ${describeKey(id)} not found`, { typeName: field.typeName });
    this.#spend();
    const [target] = await this.writer.find(join.collection, this.#readable(join.collection, { _id: newKey }), { _id: 1 }, { limit: 1 });
    if (!target) throw notFound(`${coordinate}: ${describeKey(newKey)} not found`, { field: coordinate });
    // One command for both: the new target, pointed at; the document itself when a delete's refill may copy it meanwhile.
    const locks = [
      ...(this.locks.locksReference(coordinate, 'repoint') ? lockIds(join.collection, newKey, 'pointing') : []),
      ...(this.locks.locksUpdate(field.typeName, [join.localField]) ? lockIds(collection, id, 'changing') : []),
    ];
    if (locks.length > 0) await this.#lock(locks);
    const $set = { [join.localField]: newKey };
    const statement = { filter: { _id: id }, update: { $set }, multi: false };
    const { oldKey, moves } = await this.#setting(field.typeName, [{ name: field.fieldName, path: join.localField }], async () => {
      if (collectionsOfMoves(this.model, field.typeName, [join.localField]).length === 0) {
        await this.#apply({ kind: 'update', collection, statements: [statement] });
        return { oldKey: readPath(document, join.localField), moves: [] };
      }
      // Moved by what the document held as this very update found it (a total moves by its value then).
      const before = await this.#updateMovingTotals(field.typeName, $set, { collection, statements: [statement] }, statement.filter, [join.localField, ...pathsBeforeMoves(this.model, field.typeName, [join.localField])]);
      if (!before) throw notFound(`${field.typeName} ${describeKey(id)} not found`, { typeName: field.typeName });
      return { oldKey: readPath(before, join.localField), moves: planChildMoves(this.model, field.typeName, before, $set) };
    });
    const oldKeys = oldKey === undefined || oldKey === null ? [] : [oldKey];
    // Whole copies of the document in bounded arrays hold the key too.
    await this.#applyDerived([...planReferenceChange(this.model, coordinate, id, oldKeys, [newKey]), ...moves, ...planBoundedCopyUpdates(this.model, field.typeName, id, $set)]);
  }

  /** `filter` and the viewer's row filter on `collection` (FORBIDDEN when it may not read it). */
  #readable(collection: string, filter: StoredDocument): StoredDocument {
    return this.access ? scopedFilter(this.access, collection, filter) : filter;
  }

  #readsAll(collection: string): boolean {
    return !this.access || this.access.filterFor(collection) === undefined;
  }

  /**
   * A write setting `paths` of `typeName` documents, one of which the viewer may not see, has its counts
   * withheld. One that also `moves` other documents (counts, totals, inverse arrays) is refused: those
   * commands are sent only when the value changes, so their number would show the old value.
   */
  #concealIfHidden(typeName: string, paths: readonly string[], moves: () => boolean): void {
    for (const path of paths) {
      const hidden = this.#hiddenAround(typeName, path);
      if (hidden === undefined) continue;
      throw forbidden(
        `Mutation.${this.mutationField} sets "${path}", inside ${hidden}, which is hidden from role "${this.access!.role}": whether it can be set would tell what that value holds; set it in a mutation run by a role that reads ${hidden}`,
      );
    }
    const hidden = this.comparisonRefusal ? paths.map((path) => this.comparisonRefusal!(typeName, path)).find((shown) => shown !== undefined) : undefined;
    if (hidden === undefined) return;
    if (moves()) {
      throw forbidden(`Mutation.${this.mutationField} sets ${hidden}, and what it moves elsewhere (counts, totals, references) would show the value it held; set it in a mutation run by a role that reads it`);
    }
    this.onConcealedWrite();
  }

  /**
   * The field (`Type.field`) the viewer's role hides whose value holds the stored `path` of a `typeName`
   * document (inside it, not at it), on that type or on an embedded type along the path: MongoDB sets
   * the path only where that value is a document.
   */
  #hiddenAround(typeName: string, path: string): string | undefined {
    const { types } = this.model.storageMap;
    const storage = types.get(typeName);
    if (!this.access || !storage) return undefined;
    for (const fieldName of this.access.hidden(typeName)) {
      if (fieldStoredPaths(storage, fieldName).some((stored) => path.startsWith(`${stored}.`))) return `${typeName}.${fieldName}`;
    }
    for (const field of storage.fields.values()) {
      if (field.kind !== 'relation') continue;
      const embedded = field.shapes.embedded?.path;
      if (embedded === undefined || !path.startsWith(`${embedded}.`) || types.get(field.targetType)?.collection !== undefined) continue;
      const hidden = this.#hiddenAround(field.targetType, path.slice(embedded.length + 1));
      if (hidden !== undefined) return hidden;
    }
    return undefined;
  }

  /** Whether filtering `collection`'s documents by `path` would show the viewer what it may not see (a hidden field, a copy it reads in part). */
  #hidesPath(collection: string, path: string): boolean {
    if (!this.comparisonRefusal) return false;
    return [...this.model.storageMap.types.values()].some((type) => type.collection === collection && this.comparisonRefusal!(type.typeName, path) !== undefined);
  }

  /**
   * The rows of `typeName` the viewer's `action` rule covers, as a filter (undefined: all, or no rules);
   * FORBIDDEN when it has no such rule, or when it sets a field the rule keeps read-only.
   */
  #rowsFor(typeName: string, action: 'update' | 'delete', setting: ReadonlyArray<{ readonly name: string; readonly path: string }> = []): StoredDocument | undefined {
    if (!this.access) return undefined;
    let rule;
    if (action === 'update') {
      rule = this.access.writeRule(typeName, action, this.mutationField);
      const kept = rule.readOnlyPaths;
      // By stored path: another field kept at (or inside, or around) a read-only one would set it too.
      const readOnly = setting.find(({ path }) => kept.some((protectedPath) => pathsOverlap(path, protectedPath)));
      if (readOnly !== undefined) throw forbidden(`role "${this.access.role}" may not set ${typeName}.${readOnly.name}`);
    } else rule = this.access.writeRule(typeName, action, this.mutationField);
    return rule.where.length === 0 ? undefined : this.access.whereFilter(rule.where);
  }

  /**
   * The document to insert with the viewer's `create` conditions set from its claims (presets); an input
   * that gives one of those fields another value is FORBIDDEN, and so is a role without a create rule.
   */
  #withPresets(typeName: string, document: StoredDocument, conditions: readonly RowCondition[], generated: boolean): StoredDocument {
    const access = this.access;
    if (!access || conditions.length === 0) return document;
    const preset = copyPlainObjects(document);
    for (const condition of conditions) {
      const expected = access.claimValue(condition);
      if (expected === NO_CLAIM) {
        const ofType = condition.valueType === undefined ? '' : ` that is ${describeValueType(condition.valueType)}`;
        throw forbidden(`role "${access.role}" may create ${typeName} only with a "${'claim' in condition.equals ? condition.equals.claim : condition.fieldName}" claim${ofType}, which the token lacks`);
      }
      const given = asStoredKey(condition, readPath(preset, condition.path));
      // An id docjoin made for a generated create is no value the client gave: `id` = claim sets it.
      if (given === undefined || given === null || (generated && condition.path === '_id')) writePath(preset, condition.path, expected);
      else if (keyString(given) === keyString(expected)) writePath(preset, condition.path, expected);
      else throw forbidden(`role "${access.role}" may not create ${typeName} with another ${condition.fieldName} than ${'claim' in condition.equals ? 'its own' : describeEquals(condition)}`);
    }
    return preset;
  }

  /** The conditions a create presets: the create rule's, and for a generated create (its answer is read back) the READ rule's. */
  #presetConditions(typeName: string, generated: boolean): readonly RowCondition[] {
    if (!this.access) return [];
    const own = this.access.writeRule(typeName, 'create', this.mutationField).where;
    const read = generated ? this.access.readConditions(typeName).filter((condition) => !own.some((mine) => mine.path === condition.path && sameValue(mine, condition))) : [];
    return [...own, ...read];
  }

  /**
   * The presets still hold once the document is complete: a preset stored inside a snapshot copy (or
   * another value docjoin fills) was overwritten by what the copy's source holds, and a document the
   * role may not create would be written.
   */
  #requirePresetsHeld(typeName: string, complete: StoredDocument, conditions: readonly RowCondition[]): void {
    for (const condition of conditions) {
      const stored = asStoredKey(condition, readPath(complete, condition.path));
      if (keyString(stored ?? null) === keyString(this.access!.claimValue(condition) ?? null)) continue;
      throw forbidden(`role "${this.access!.role}" may not create ${typeName} with another ${condition.fieldName} than ${'claim' in condition.equals ? 'its own' : describeEquals(condition)}: the document it refers to sets it`);
    }
  }

  /** `document` with the derived values keyed by another field than `_id` taken from the children already holding its key (existingChildrenReads). */
  async #withExistingChildren(collection: string, document: StoredDocument): Promise<StoredDocument> {
    let complete = document;
    for (const read of existingChildrenReads(this.model, collection)) {
      const key = readPath(complete, read.kind === 'sums' ? read.parentKey : read.array.parentKey);
      if (!isKeyValue(key)) continue;
      if (read.kind === 'sums') {
        this.#spend();
        const [found] = await this.writer.aggregate(read.childCollection, existingSumsPipeline(read, key));
        complete = withExistingSums(complete, read, found);
      } else {
        const { array } = read;
        complete = withExistingCopies(complete, array, await this.#read(array.childCollection, { [array.childKey]: { $eq: key } }, {}, { sort: sortDocument(array.sort), limit: array.limit }));
      }
    }
    return complete;
  }

  async #read(collection: string, filter: StoredDocument, projection: Record<string, unknown>, options: { limit?: number; sort?: Record<string, 1 | -1> }): Promise<StoredDocument[]> {
    this.#spend();
    return this.writer.find(collection, filter, projection, options);
  }

  /**
   * The locks of the documents whose counters or totals `planned` moves, where a locked snapshot copies
   * them (reference-locks.ts), and of the parents it finds by another key than `_id` (keyedParentLockIds).
   */
  #movedCounterLocks(planned: readonly PlannedUpdate[]): string[] {
    const copied = countersMoved(this.model, planned).flatMap((change) => {
      if (change.id === undefined || !this.locks.locksCounterMove(change.typeName, storedPathsOf(this.model, change.typeName, change.fields))) return [];
      return lockIds(this.#collectionOf(change.typeName), change.id, 'changing');
    });
    return [...copied, ...keyedParentLockIds(this.model, planned)];
  }

  /** In a transaction, ONE command bumping the lock documents `ids` (none: nothing sent); see reference-locks.ts. */
  async #lock(ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || !this.writer.inTransaction) return;
    this.#spend();
    await this.writer.lock([...new Set(ids)]);
    this.#countWrite();
  }

  /** Derived updates, one command per collection; the counters they move are source changes. */
  async #applyDerived(planned: readonly PlannedUpdate[]): Promise<void> {
    await this.#lock(this.#movedCounterLocks(planned));
    await this.#applyAll(groupByCollection(planned));
    for (const change of countersMoved(this.model, planned)) this.onSourceChange(change);
  }

  async #applyAll(steps: readonly WriteStep[]): Promise<void> {
    for (const step of steps) await this.#apply(step, 'derived');
  }

  /**
   * updateReturningBefore for an update setting `$set` of a `typeName` child that moves counters or totals,
   * each of `source`'s statements in turn until one matches (they differ only in the arrays inside the
   * document they expect: planSourceUpdate): it matches only where no Float total would move by a step
   * that could make it Infinity (floatStepCondition). A child that is there (by `filter`) but failed that
   * is read (in the slot of the totals' update it never sends) and refused: BAD_USER_INPUT when the
   * step is too large, else WRITE_CONFLICT, the child having changed since (only without a transaction);
   * nothing is written either way. null: no such document.
   */
  async #updateMovingTotals(typeName: string, $set: StoredDocument, source: SourceUpdatePlan['source'], filter: StoredDocument, paths: readonly string[]): Promise<StoredDocument | null> {
    const totals = totalsMovedBy(this.model, typeName, Object.keys($set));
    const condition = floatStepCondition(totals, $set);
    for (const statement of source.statements) {
      const before = await this.#updateReturningBefore(source.collection, condition ? { ...statement, filter: { $and: [statement.filter, condition] } } : statement, paths);
      if (before) return before;
    }
    if (!condition) return null;
    const [found] = await this.#read(source.collection, filter, Object.fromEntries(pathsBeforeUpdate(totals).map((path) => [path, 1])), { limit: 1 });
    if (!found) return null;
    refuseOversizedFloatMoves(totals, found, $set);
    // Without a transaction another write changed the child between the two commands: nothing was written.
    throw changedSinceRead(typeName);
  }

  /** ONE findAndModify of the single-document `statement`: the document as it was before (the `paths` of it), or null when nothing matched. */
  async #updateReturningBefore(collection: string, statement: UpdateStatement, paths: readonly string[]): Promise<StoredDocument | null> {
    this.#spend();
    this.#returned = this.#returned.filter((returned) => returned.collection !== collection);
    const { document } = await this.writer.updateOneReturning(collection, statement, toFindProjection(projectionOf(paths.map((path) => [path, 1] as const))), 'before').catch((error: unknown) => {
      throw refusedByConstraint(`Mutation.${this.mutationField}`, collection, error, { inTransaction: this.writer.inTransaction, nothingBefore: this.#writes === 0, derived: false }) ?? error;
    });
    this.#countWrite();
    return document;
  }

  /**
   * Sends `step`: the documents it matched, and those it changed (an insert or delete changes what it
   * matched). `derived`: a write keeping copies, counters or arrays in step, not a document's own.
   */
  async #apply(step: WriteStep, role: 'own' | 'derived' = 'own'): Promise<{ matched: number; modified: number }> {
    this.#spend();
    // A document returned earlier may not be what this write leaves.
    this.#returned = this.#returned.filter((returned) => returned.collection !== step.collection);
    let result: { matched: number; modified: number };
    try {
      result = await this.#send(step);
    } catch (error) {
      const mutation = `Mutation.${this.mutationField}`;
      const { inTransaction } = this.writer;
      throw totalOverflow(mutation, error, inTransaction) ?? documentTooLarge(mutation, error, inTransaction) ?? (role === 'derived' ? derivedValueMistyped(mutation, error, inTransaction) : undefined) ?? refusedByConstraint(mutation, step.collection, error, { inTransaction, nothingBefore: this.#nothingWritten(step), derived: role === 'derived' }) ?? error;
    }
    this.#countWrite();
    return result;
  }

  /** Whether `step` refused leaves nothing written: the unit's first command, of one statement (an ordered batch keeps those before the refused one). */
  #nothingWritten(step: WriteStep): boolean {
    const statements = step.kind === 'update' ? step.statements.length : step.kind === 'insert' ? step.documents.length : 1;
    return this.#writes === 0 && statements === 1;
  }

  async #send(step: WriteStep): Promise<{ matched: number; modified: number }> {
    switch (step.kind) {
      case 'update':
        return this.#update(step.collection, step.statements);
      case 'insert': {
        const inserted = await this.writer.insert(step.collection, step.documents);
        return { matched: inserted, modified: inserted };
      }
      case 'delete': {
        const deleted = await this.writer.deleteOne(step.collection, step.filter);
        return { matched: deleted, modified: deleted };
      }
      default: {
        const never: never = step;
        throw new InvariantError(`unknown write step ${JSON.stringify(never)}`);
      }
    }
  }

  /** Counts a write sent; the fault suite's injected failure comes after its chosen one. */
  #countWrite(): void {
    this.#writes += 1;
    const failAfter = injectedWriteFailures.get(this.model.storageMap);
    if (failAfter !== undefined && this.#writes >= failAfter) throw new InjectedWriteFailure(this.#writes);
  }

  /**
   * One update command; a statement whose document the selection will read returns it (see `returning`):
   * such a statement changes every document it matches.
   */
  async #update(collection: string, statements: readonly UpdateStatement[]): Promise<{ matched: number; modified: number }> {
    const projection = this.returning.get(collection);
    const statement = statements.length === 1 ? statements[0]! : undefined;
    if (!projection || !statement || !changesWhatItMatches(statement)) return this.writer.update(collection, statements);
    const { matched, document } = await this.writer.updateOneReturning(collection, statement, toFindProjection(projection));
    if (document) this.#returned.push({ collection, document, projection });
    return { matched, modified: matched };
  }

  /**
   * Refuses, before it sends anything, a call the mutation's write plan does not declare: startup checked
   * what the plan declares (a snapshot reference is never re-pointed, a shared collection never written
   * past another type's copies…), and priced it; a call past the plan would skip both.
   */
  #requireDeclared(call: string, declares: (operation: WriteOperation) => boolean): void {
    if (this.declared === undefined || this.declared.some(declares)) return;
    throw new InvariantError(`Mutation.${this.mutationField}: its write unit calls ${call}, which its write plan does not declare; add it to the plan (writePlans), where startup checks what it may write`);
  }

  /** Counts a command about to be sent; over the plan's budget, fails before sending it. */
  #spend(): void {
    if (this.budget && this.#commands >= this.budget.commands) {
      throw new InvariantError(
        `${this.budget.coordinate}: its write unit would send more than the ${this.budget.commands} command(s) its write plan allows; declare what it does in its plan, next to its resolver (writePlans in the project config), so the estimate stays an upper bound`,
      );
    }
    this.#commands += 1;
  }

  #collectionOf(typeName: string): string {
    const collection = this.model.storageMap.types.get(typeName)?.collection;
    if (collection === undefined) throw new InvariantError(`${typeName} has no @collection`);
    return collection;
  }
}

/** A document a unit read, with the collection it came from. */
interface SourceRead {
  readonly collection: string;
  readonly document: StoredDocument;
}

/**
 * The sources an insert knows, by collection and then by id: a document the unit read counts only for
 * its own collection (the same id in two collections is two documents); one a resolver read itself and
 * passed in (`preloaded`), of no known collection, for any reference naming its id where
 * `trustsGiven(collection)`: where the viewer reads that collection in part, a document read outside the
 * unit may be a row it may not see, so the unit reads the target through the viewer's filter.
 */
class KnownSources {
  readonly #byCollection = new Map<string | undefined, Map<string, StoredDocument>>();

  constructor(private readonly trustsGiven: (collection: string) => boolean) {}

  add(collection: string | undefined, document: StoredDocument): void {
    let documents = this.#byCollection.get(collection);
    if (!documents) this.#byCollection.set(collection, (documents = new Map()));
    documents.set(keyString(document._id), document);
  }

  has(collection: string, id: unknown): boolean {
    return this.in(collection).has(keyString(id));
  }

  /** The documents a reference into `collection` may copy, by keyString of their `_id`. */
  in(collection: string): ReadonlyMap<string, StoredDocument> {
    const given = this.trustsGiven(collection) ? this.#byCollection.get(undefined) : undefined;
    const read = this.#byCollection.get(collection);
    if (!given) return read ?? new Map();
    return read ? new Map([...given, ...read]) : given;
  }
}

function referenceNotFound(reference: ForwardReference, key: unknown): Error {
  return notFound(`${reference.coordinate}: ${describeKey(key)} not found`, { field: reference.coordinate });
}

function describe(selector: SourceSelector): string {
  return Object.entries(selector)
    .map(([path, value]) => (path === '_id' ? describeKey(value) : `with ${path} ${JSON.stringify(value)}`))
    .join(' ');
}

function describeKey(key: unknown): string {
  const hex = (key as { toHexString?: () => string } | null)?.toHexString?.();
  return hex ?? JSON.stringify(key);
}

/**
 * `filter` restricted to `rows` too (both must hold): merged when they compare different paths, or the
 * same path with the same value (an update by `_id` then keeps its plain `_id` filter), else `$and`.
 */
function withRows(filter: StoredDocument, rows: StoredDocument | undefined): StoredDocument {
  if (!rows) return filter;
  const merges = Object.entries(rows).every(([path, value]) => !path.startsWith('$') && (filter[path] === undefined || isPlainValue(value) && isPlainValue(filter[path]) && keyString(filter[path]) === keyString(value)));
  return merges ? { ...filter, ...rows } : { $and: [filter, rows] };
}

function isPlainValue(value: unknown): boolean {
  return value !== null && (typeof value !== 'object' || isObjectIdLike(value));
}

function isObjectIdLike(value: object): boolean {
  return typeof (value as { toHexString?: unknown }).toHexString === 'function';
}

/** A copy of a document's plain objects and arrays (BSON values such as ObjectId kept as they are), to set presets in. */
function copyPlainObjects<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyPlainObjects) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, copyPlainObjects(entry)])) as T;
  }
  return value;
}

/** A document an update of the unit returned, with the paths it was read with. */
export interface ReturnedDocument {
  readonly collection: string;
  readonly document: StoredDocument;
  readonly projection: Projection;
}

/**
 * Whether `statement` changes every document it matches: one document by `_id`, some counter
 * incremented by a non-zero amount. findAndModify reports what it matched, not what it changed; for
 * such a statement they are the same, so the cost report's modified count stays exact.
 */
function changesWhatItMatches(statement: UpdateStatement): boolean {
  if (statement.multi || statement.filter._id === undefined) return false;
  const increments = statement.update.$inc;
  return typeof increments === 'object' && increments !== null && Object.values(increments).some((amount) => typeof amount === 'number' && amount !== 0);
}

/** A value given for a condition as the condition compares it: an id as a string (a generated input's `ID`) as its ObjectId. */
function asStoredKey(condition: RowCondition, value: unknown): unknown {
  return condition.objectId && typeof value === 'string' && /^[0-9a-fA-F]{24}$/.test(value) ? new ObjectId(value.toLowerCase()) : value;
}
