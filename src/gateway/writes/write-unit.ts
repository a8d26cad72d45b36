import { keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import { InvariantError } from '../errors/internal-errors';
import { badUserInput } from '../errors/public-error-code';
import { sortDocument } from '../startup/storage-map/parse-sort';
import { boundedArraysOf, incomingReferences, planDeleteDerived } from './delete-planner';
import type { FunnelWriter, UpdateStatement } from '../request/mongo/funnel-writer';
import { toFindProjection, type Projection } from '../operation/planning/projection';
import type { StoredDocument } from '../documents/stored-document';
import { hasFanOut, planSourceUpdate } from './fan-out-planner';
import { fillSnapshot, forwardReferences, planInsertDerived, soleUpdateOf, withInitialDerivedValues, type ForwardReference } from './insert-planner';
import { planReferenceChange } from './reference-planner';
import { InjectedWriteFailure, injectedWriteFailures, notFound } from './write-errors';
import type { BoundedArray, WriteModel } from '../startup/write-model/write-model-types';
import { groupByCollection, type WriteStep } from './write-steps';

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

/**
 * One mutation's writes, in a fixed order: checks (reads) first, then the source of truth, then the
 * derived copies (snapshots, bounded arrays, inverse arrays, counters). Every derived write is
 * computed from the source values, so a run cut short leaves drift only in derived data, which
 * reconcile repairs from the sources; and each derived statement is guarded (`$ne` on the pushed id)
 * or idempotent (`$set`), so running the same plan again does not double it.
 *
 * A unit is used once; inside a transaction the driver may run the mutation's work again on a fresh one.
 */
export class WriteUnit {
  #writes = 0;
  #commands = 0;
  #returned: ReturnedDocument[] = [];

  /**
   * `returning`: per collection, the paths the mutation's selection will read of documents it loads by
   * `_id` (joinsById). A single-document update of one of them that changes what it matches goes out as
   * findAndModify and returns that document (`returned`), which saves the selection its read.
   */
  constructor(
    private readonly model: WriteModel,
    private readonly writer: FunnelWriter,
    private readonly budget?: CommandBudget,
    private readonly returning: ReadonlyMap<string, Projection> = new Map(),
  ) {}

  /** The documents this unit's updates returned, as they left them. */
  get returned(): readonly ReturnedDocument[] {
    return this.#returned;
  }

  /** The first `typeName` document matching `filter` (one read of at most one document, in the unit's transaction), or NOT_FOUND naming `what`. */
  async requireOne(typeName: string, filter: StoredDocument, paths: readonly string[], what: string): Promise<StoredDocument> {
    this.#spend();
    const [document] = await this.writer.find(this.#collectionOf(typeName), filter, Object.fromEntries(paths.map((path) => [path, 1])), { limit: 1 });
    if (!document) throw notFound(`${typeName} ${what} not found`, { typeName });
    return document;
  }

  /**
   * The `typeName` documents whose `_id` is in `ids`, in ONE find (the order of `ids`), or NOT_FOUND
   * naming the first missing one; `paths` are the stored paths the caller needs.
   */
  async requireMany(typeName: string, ids: readonly unknown[], paths: readonly string[]): Promise<StoredDocument[]> {
    this.#spend();
    const found = await this.writer.find(this.#collectionOf(typeName), { _id: { $in: [...ids] } }, Object.fromEntries(['_id', ...paths].map((path) => [path, 1])));
    const byId = new Map(found.map((document) => [keyString(document._id), document]));
    const missing = ids.find((id) => !byId.has(keyString(id)));
    if (missing !== undefined) throw notFound(`${typeName} ${describeKey(missing)} not found`, { typeName });
    return ids.map((id) => byId.get(keyString(id))!);
  }

  /**
   * Deletes the `typeName` document `id` and what it contributed to other documents: its parents'
   * counters, the bounded arrays it was in (read again from their source), the inverse arrays of its
   * references. Refused (BAD_USER_INPUT, nothing written) while other documents still reference it by
   * key: their joins and snapshots would point at nothing. NOT_FOUND when there is no such document.
   */
  async delete(typeName: string, id: unknown): Promise<void> {
    const collection = this.#collectionOf(typeName);
    const [document] = await this.#read(collection, { _id: id }, {}, { limit: 1 });
    if (!document) throw notFound(`${typeName} ${describeKey(id)} not found`, { typeName });
    for (const reference of incomingReferences(this.model, typeName)) {
      const [holder] = await this.#read(reference.collection, { [reference.path]: id }, { _id: 1 }, { limit: 1 });
      if (holder) {
        throw badUserInput(`${typeName} ${describeKey(id)} is still referenced by ${reference.collection} ${describeKey(holder._id)} at ${reference.path}; delete or re-point those first`, {
          field: reference.coordinate,
        });
      }
    }
    await this.#apply({ kind: 'delete', collection, filter: { _id: id } });
    const refills = new Map<BoundedArray, StoredDocument[]>();
    for (const array of boundedArraysOf(this.model, collection)) {
      const parentKey = readPath(document, array.childKey);
      if (parentKey === undefined || parentKey === null) continue;
      refills.set(array, await this.#read(array.childCollection, { [array.childKey]: parentKey }, {}, { sort: sortDocument(array.sort), limit: array.limit }));
    }
    await this.#applyAll(groupByCollection(planDeleteDerived(this.model, typeName, collection, document, refills)));
  }

  /**
   * Sets `changes` (GraphQL field name → value) on the source document (with the copies that live inside
   * it, in the same statement), then on every other snapshot copy of those fields. NOT_FOUND, with
   * nothing written, when the selector matches no document.
   */
  async updateSource(typeName: string, selector: SourceSelector, changes: Readonly<Record<string, unknown>>): Promise<void> {
    const storage = this.model.storageMap.types.get(typeName);
    const $set: StoredDocument = {};
    for (const [name, value] of Object.entries(changes)) {
      const field = storage?.fields.get(name);
      if (field?.kind !== 'stored' || field.isId) throw new InvariantError(`updateSource: ${typeName}.${name} is not a stored field`);
      $set[field.path] = value;
    }
    let id = selector._id;
    const described = describe(selector);
    if (id === undefined && hasFanOut(this.model, typeName, Object.keys(changes))) {
      id = (await this.requireOne(typeName, { ...selector }, ['_id'], described))._id;
    }
    const plan = planSourceUpdate(this.model, typeName, { collection: this.#collectionOf(typeName), filter: id === undefined ? { ...selector } : { _id: id }, sourceId: id }, $set, changes);
    const source = await this.#apply({ kind: 'update', collection: plan.source.collection, statements: [plan.source.statement] });
    if (source.matched === 0) throw notFound(`${typeName} ${described} not found`, { typeName });
    await this.#applyAll(groupByCollection(plan.fanOut));
  }

  /**
   * Inserts a new `typeName` document: its references must exist (NOT_FOUND otherwise, nothing
   * written), its snapshots are filled from their sources (`preloaded` sources save the read), its
   * derived values start true, and every bounded array, counter and inverse it feeds is updated.
   * Inside a transaction, a reference whose target the derived update alone picks by `_id`
   * (provedByDerivedUpdate) is not read: that update matching nothing is the NOT_FOUND, and the
   * transaction takes the insert back. Returns the document as inserted.
   */
  async insert(typeName: string, document: StoredDocument, preloaded: readonly StoredDocument[] = []): Promise<StoredDocument> {
    const collection = this.#collectionOf(typeName);
    let complete = document;
    const known = new Map(preloaded.map((source) => [keyString(source._id), source]));
    const proofs = new Map<string, ForwardReference>();
    for (const reference of forwardReferences(this.model, typeName, document)) {
      if (reference.provable && this.writer.inTransaction && !known.has(keyString(reference.keys[0]))) {
        const proof = proofs.get(reference.collection);
        // Two relations on one local field point at one target: the same statement proves both.
        if (!proof) proofs.set(reference.collection, reference);
        if (!proof || keyString(proof.keys[0]) === keyString(reference.keys[0])) continue;
      }
      await this.#requireSources(reference, known);
      complete = fillSnapshot(complete, reference, known);
    }
    complete = withInitialDerivedValues(this.model, collection, complete);
    const derived = groupByCollection(planInsertDerived(this.model, typeName, complete));
    for (const [target, reference] of proofs) {
      if (soleUpdateOf(derived.find((step) => step.collection === target), reference.keys[0])) continue;
      proofs.delete(target);
      await this.#requireSources(reference, known);
    }
    await this.#apply({ kind: 'insert', collection, documents: [complete] });
    for (const step of derived) {
      const { matched } = await this.#apply(step);
      const reference = proofs.get(step.collection);
      if (reference && matched === 0) throw referenceNotFound(reference, reference.keys[0]);
    }
    return complete;
  }

  /** Reads the targets of `reference` not `known` yet, in ONE find, into `known`; NOT_FOUND naming the first missing one. */
  async #requireSources(reference: ForwardReference, known: Map<string, StoredDocument>): Promise<void> {
    const missing = reference.keys.filter((key) => !known.has(keyString(key)));
    if (missing.length === 0) return;
    const paths = ['_id', ...(reference.snapshot?.fields.map((field) => field.sourcePath) ?? [])];
    this.#spend();
    const found = await this.writer.find(reference.collection, { _id: { $in: missing } }, Object.fromEntries(paths.map((path) => [path, 1])));
    for (const source of found) known.set(keyString(source._id), source);
    const absent = missing.find((key) => !known.has(keyString(key)));
    if (absent !== undefined) throw referenceNotFound(reference, absent);
  }

  /**
   * Points the by-key relation `coordinate` (`Task.owner`) of document `id` at `newKey`, and moves the
   * document between the inverse arrays (and their counters). NOT_FOUND for an unknown document or target.
   */
  async changeReference(coordinate: string, id: unknown, newKey: unknown): Promise<void> {
    const field = this.model.storageMap.relations.get(coordinate);
    const join = field?.shapes.join;
    if (!field || !join || join.direction !== 'byKey' || field.isList) throw new InvariantError(`changeReference: ${coordinate} is not a single by-key join`);
    const document = await this.requireOne(field.typeName, { _id: id }, [join.localField], describeKey(id));
    this.#spend();
    const [target] = await this.writer.find(join.collection, { _id: newKey }, { _id: 1 }, { limit: 1 });
    if (!target) throw notFound(`${coordinate}: ${describeKey(newKey)} not found`, { field: coordinate });
    const oldKey = readPath(document, join.localField);
    await this.#apply({ kind: 'update', collection: this.#collectionOf(field.typeName), statements: [{ filter: { _id: id }, update: { $set: { [join.localField]: newKey } }, multi: false }] });
    const oldKeys = oldKey === undefined || oldKey === null ? [] : [oldKey];
    await this.#applyAll(groupByCollection(planReferenceChange(this.model, coordinate, id, oldKeys, [newKey])));
  }

  async #read(collection: string, filter: StoredDocument, projection: Record<string, unknown>, options: { limit?: number; sort?: Record<string, 1 | -1> }): Promise<StoredDocument[]> {
    this.#spend();
    return this.writer.find(collection, filter, projection, options);
  }

  async #applyAll(steps: readonly WriteStep[]): Promise<void> {
    for (const step of steps) await this.#apply(step);
  }

  async #apply(step: WriteStep): Promise<{ matched: number }> {
    this.#spend();
    // A document returned earlier may not be what this write leaves.
    this.#returned = this.#returned.filter((returned) => returned.collection !== step.collection);
    let matched: number;
    switch (step.kind) {
      case 'update':
        matched = await this.#update(step.collection, step.statements);
        break;
      case 'insert':
        matched = await this.writer.insert(step.collection, step.documents);
        break;
      case 'delete':
        matched = await this.writer.deleteOne(step.collection, step.filter);
        break;
      default: {
        const never: never = step;
        throw new InvariantError(`unknown write step ${JSON.stringify(never)}`);
      }
    }
    this.#writes += 1;
    const failAfter = injectedWriteFailures.get(this.model.storageMap);
    if (failAfter !== undefined && this.#writes >= failAfter) throw new InjectedWriteFailure(this.#writes);
    return { matched };
  }

  /** One update command; a statement whose document the selection will read returns it (see `returning`). */
  async #update(collection: string, statements: readonly UpdateStatement[]): Promise<number> {
    const projection = this.returning.get(collection);
    const statement = statements.length === 1 ? statements[0]! : undefined;
    if (!projection || !statement || !changesWhatItMatches(statement)) return (await this.writer.update(collection, statements)).matched;
    const { matched, document } = await this.writer.updateOneReturning(collection, statement, toFindProjection(projection));
    if (document) this.#returned.push({ collection, document, projection });
    return matched;
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
