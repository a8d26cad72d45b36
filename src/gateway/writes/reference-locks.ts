import { keyString } from '../documents/key-string';
import { InvariantError } from '../errors/internal-errors';
import { byKeyReferenceFields, nestedReferences, nestedSnapshotLocations } from './insert-planner';
import { joinsInto } from './delete-planner';
import type { RelationField } from '../startup/storage-map/storage-map-types';
import type { SnapshotLocation, WriteModel } from '../startup/write-model/write-model-types';
import type { MutationWritePlans, WriteOperation } from './write-plan';

/** How a write unit points a document at others: a new document holding the reference, or `changeReference`. */
export type ReferenceWrite = 'insert' | 'repoint';

/**
 * Whether pointing `relation` at documents always writes each of them in the same unit, keyed by the
 * relation's own key: its inverse array (`Author.bookIds` for `Book.authors`), a counter of the
 * children (`Post.commentCount` for `Comment.post`) or, for a new document, a bounded array of them
 * (`Host.recentLogs` for `LogMessage.host`; a re-point does not move those). Those writes conflict in
 * MongoDB with any concurrent write of the targets, so the targets need no lock.
 */
function referenceWritesItsTargets(model: WriteModel, relation: RelationField, write: ReferenceWrite): boolean {
  const join = relation.shapes.join;
  if (join?.direction !== 'byKey' || join.foreignField !== '_id') return false;
  if (model.inverses.some((inverse) => inverse.of === relation.coordinate && inverse.collection === join.collection)) return true;
  const collection = model.storageMap.types.get(relation.typeName)?.collection;
  if (relation.isList || collection === undefined) return false;
  const keyedByRelation = (rule: { readonly parentKey: string; readonly childKey: string }) => rule.parentKey === '_id' && rule.childKey === join.localField;
  const counted = model.counters.some(({ collection: parent, source }) => parent === join.collection && source.kind === 'children' && source.childCollection === collection && keyedByRelation(source));
  const listed = write === 'insert' && model.boundedArrays.some((array) => array.collection === join.collection && array.childCollection === collection && keyedByRelation(array));
  return counted || listed;
}

/**
 * Whether a unit pointing the reference `coordinate` (a relation, or a snapshot location inside
 * embedded copies: `Order.lines.product`) at documents by `write` must lock them. An inverse side
 * (`Person.tasks`) never does: the writes of its truth side keep it.
 */
function referenceNeedsLock(model: WriteModel, coordinate: string, write: ReferenceWrite): boolean {
  if (model.inverses.some((inverse) => inverse.coordinate === coordinate)) return false;
  const relation = model.storageMap.relations.get(relationOf(model, coordinate));
  return relation === undefined || !referenceWritesItsTargets(model, relation, write);
}

/** The relation field a reference coordinate names: itself, or the field declaring a snapshot location (`OrderLine.product` for `Order.lines.product`). */
function relationOf(model: WriteModel, coordinate: string): string {
  return model.snapshots.find((location) => location.coordinate === coordinate)?.field ?? coordinate;
}

/** The coordinates of every reference a new `typeName` document may hold (forwardReferences' three kinds). */
function referencesOfInsert(model: WriteModel, typeName: string): string[] {
  return [
    ...byKeyReferenceFields(model, typeName).map((field) => field.coordinate),
    ...nestedSnapshotLocations(model, typeName).map((location) => location.coordinate),
    ...nestedReferences(model, typeName).map((nested) => nested.coordinate),
  ];
}

/** The references an operation of a write plan points at documents without writing them, which it locks. */
export function lockedReferencesOf(model: WriteModel, operation: WriteOperation): string[] {
  switch (operation.kind) {
    case 'insert':
      return referencesOfInsert(model, operation.typeName).filter((coordinate) => referenceNeedsLock(model, coordinate, 'insert'));
    case 'changeReference':
      return referenceNeedsLock(model, operation.coordinate, 'repoint') ? [operation.coordinate] : [];
    default:
      return [];
  }
}

/**
 * Each locked document has LOCK_SLOTS lock documents: a unit pointing at it bumps one, at random, and
 * a unit changing or deleting it bumps them all. Two orders of one product then conflict only when
 * they pick the same slot (1 in 8), while a price change conflicts with every order in flight.
 */
const LOCK_SLOTS = 8;

/** The `_id`s of the lock documents a unit bumps for the `collection` document `key`: one slot when it points at it, every slot when it changes it. */
export function lockIds(collection: string, key: unknown, bump: 'pointing' | 'changing'): string[] {
  const prefix = `${collection}/${keyString(key)}/`;
  if (bump === 'pointing') return [`${prefix}${Math.floor(Math.random() * LOCK_SLOTS)}`];
  return Array.from({ length: LOCK_SLOTS }, (_, slot) => `${prefix}${slot}`);
}

/**
 * Write skew between two transactions: one points a document at another (an insert copying a
 * snapshot of a Product into an Order line, checking it exists), the other changes what the copy
 * holds or deletes it. Under snapshot isolation neither sees the other's write and they touch no
 * common document, so both commit: the new copy keeps the old price (drift until `docjoin reconcile`)
 * or the reference names a deleted document. Where the pointing unit writes the target anyway (an
 * inverse array, a counter), MongoDB already makes the second of them conflict and retry. Elsewhere
 * both sides bump the target's lock documents, in docjoin's own collection (LOCK_COLLECTION; one of
 * them for a unit pointing at it, all LOCK_SLOTS for one changing it), so one of them conflicts and
 * runs again, seeing the other's write.
 *
 * Built from the write plans, so only the pairs that can race pay: a reference some Mutation points
 * without writing its target locks when some Mutation deletes that target type or sets a field the
 * reference's snapshot copies, and those deletes and updates bump the lock. A unit writing outside
 * what the plans declared, where a lock would be needed, fails rather than skip it.
 */
export class ReferenceLocks {
  /** References some plan points without writing their targets: each locks, or no plan changes what it relies on. */
  readonly #pointed = new Set<string>();
  readonly #locked = new Set<string>();
  readonly #deletedTypes = new Set<string>();
  /** Per source type, the stored paths the locked references' snapshots copy. */
  readonly #copiedPaths = new Map<string, Set<string>>();
  /** The collections holding a counter or total that a locked reference's snapshot copies: the writes moving it bump the lock. */
  readonly #copiedCounterCollections = new Set<string>();
  /**
   * Types whose documents a bounded array copies whole, which some plan deletes (the delete refills the
   * array with the next of them: it copies those) and some plan updates or re-points (changing what the
   * copies hold).
   */
  readonly #refilledTypes = new Set<string>();
  /**
   * Per type a delete refills bounded arrays with, the snapshots inside its documents whose sources
   * some plan changes (`Comment.author`, a User renamed): the refill copies them as it reads them, so it
   * points at those sources as an insert copying them does, and the source's update bumps their locks.
   */
  readonly #refilledSnapshots = new Map<string, SnapshotLocation[]>();

  constructor(
    private readonly model: WriteModel,
    plans: MutationWritePlans,
  ) {
    const deleted = new Set<string>();
    const updated = new Map<string, Set<string>>();
    for (const plan of Object.values(plans)) {
      for (const operation of plan) {
        for (const coordinate of lockedReferencesOf(model, operation)) this.#pointed.add(coordinate);
        if (operation.kind === 'delete') deleted.add(operation.typeName);
        const set = setByOperation(model, operation);
        if (set) {
          const paths = updated.get(set.typeName) ?? new Set<string>();
          for (const path of set.paths) paths.add(path);
          updated.set(set.typeName, paths);
        }
      }
    }
    // A counter or total changes with every write of what it counts (an insert, a delete, a re-point), whichever plans those are.
    const counted = [...model.counters, ...model.totals];
    const isCounted = (location: SnapshotLocation, path: string) => counted.some((rule) => rule.collection === location.sourceCollection && rule.path === path);
    const copiesChanged = (location: SnapshotLocation) => location.fields.some((field) => updated.get(location.sourceType)?.has(field.sourcePath) || isCounted(location, field.sourcePath));
    const copiedByRefills: SnapshotLocation[] = [];
    for (const array of model.boundedArrays) {
      if (!deleted.has(array.childType)) continue;
      if (updated.has(array.childType)) this.#refilledTypes.add(array.childType);
      const inChildren = model.snapshots.filter((location) => location.collection === array.childCollection && copiesChanged(location));
      if (inChildren.length === 0) continue;
      this.#refilledSnapshots.set(array.childType, [...new Set([...(this.#refilledSnapshots.get(array.childType) ?? []), ...inChildren])]);
      copiedByRefills.push(...inChildren);
    }
    const lockedCopies = (snapshots: readonly SnapshotLocation[]) => {
      for (const location of snapshots) {
        const paths = this.#copiedPaths.get(location.sourceType) ?? new Set<string>();
        for (const field of location.fields) paths.add(field.sourcePath);
        this.#copiedPaths.set(location.sourceType, paths);
        if (location.fields.some((field) => isCounted(location, field.sourcePath))) this.#copiedCounterCollections.add(location.sourceCollection);
      }
    };
    lockedCopies(copiedByRefills);
    for (const coordinate of this.#pointed) {
      const snapshots = model.snapshots.filter((location) => location.coordinate === coordinate);
      const join = model.storageMap.relations.get(relationOf(model, coordinate))?.shapes.join;
      const changedCopies = snapshots.filter(copiesChanged);
      // Deleted through its own type or another over the same collection (Author and Pen over "authors").
      const deletedTargets = join === undefined ? [] : [...deleted].filter((typeName) => joinsInto(model, join, typeName));
      if (deletedTargets.length === 0 && changedCopies.length === 0) continue;
      this.#locked.add(coordinate);
      for (const typeName of deletedTargets) this.#deletedTypes.add(typeName);
      lockedCopies(snapshots);
    }
  }

  /** Whether pointing `coordinate` by `write` locks its targets; one no plan declared, where a lock would be needed, is an invariant broken. */
  locksReference(coordinate: string, write: ReferenceWrite): boolean {
    if (!referenceNeedsLock(this.model, coordinate, write)) return false;
    if (!this.#pointed.has(coordinate)) {
      throw new InvariantError(`a write unit points ${coordinate} at documents it does not write, and no write plan declares that, so the writes that change those documents take no lock against it; declare the insert or changeReference in the mutation's write plan`);
    }
    return this.#locked.has(coordinate);
  }

  /** Whether any unit bumps a lock: then the lock collection is made before the first write. */
  get inUse(): boolean {
    return this.#locked.size > 0 || this.#refilledTypes.size > 0 || this.#refilledSnapshots.size > 0;
  }

  /** Whether a delete of a `typeName` document locks the children it refills its bounded arrays with, and the sources of their snapshots (refilledSnapshots). */
  locksRefill(typeName: string): boolean {
    return this.#refilledTypes.has(typeName) || this.#refilledSnapshots.has(typeName);
  }

  /** The snapshots inside refilled `typeName` documents whose sources the refill locks: pointed at, as they are copied. */
  refilledSnapshots(typeName: string): readonly SnapshotLocation[] {
    return this.#refilledSnapshots.get(typeName) ?? [];
  }

  /** Whether a unit pointing `coordinate` bumps its targets' locks (what the estimate counts). */
  locksTargetsOf(coordinate: string): boolean {
    return this.#locked.has(coordinate);
  }

  /** Whether a write whose derived updates reach `collections` may move a counter or total a locked snapshot copies (what the estimate counts). */
  mayMoveCopiedCounters(collections: readonly string[]): boolean {
    return collections.some((collection) => this.#copiedCounterCollections.has(collection));
  }

  /** Whether deleting a `typeName` document bumps its lock. */
  locksDelete(typeName: string): boolean {
    return this.#deletedTypes.has(typeName);
  }

  /** Whether setting the stored `paths` of a `typeName` document bumps its lock: a locked snapshot copies one of them (matched as hasFanOut matches them). */
  locksUpdate(typeName: string, paths: readonly string[]): boolean {
    return this.#refilledTypes.has(typeName) || this.locksCounterMove(typeName, paths);
  }

  /**
   * Whether moving the counters or totals at `paths` of a `typeName` document bumps its lock: a locked
   * snapshot copies one (a refill's copies of whole children are not followed this way).
   */
  locksCounterMove(typeName: string, paths: readonly string[]): boolean {
    const copied = this.#copiedPaths.get(typeName);
    return copied !== undefined && paths.some((path) => copied.has(path));
  }
}

/** The stored paths of a `typeName` document an operation of a write plan sets: an update's fields, a re-point's key. */
function setByOperation(model: WriteModel, operation: WriteOperation): { typeName: string; paths: readonly string[] } | undefined {
  if (operation.kind === 'updateSource') return { typeName: operation.typeName, paths: storedPathsOf(model, operation.typeName, operation.fields) };
  if (operation.kind !== 'changeReference') return undefined;
  const relation = model.storageMap.relations.get(operation.coordinate);
  const localField = relation?.shapes.join?.localField;
  return relation && localField !== undefined ? { typeName: relation.typeName, paths: [localField] } : undefined;
}

/** The stored paths of the fields `fieldNames` of `typeName` (a name that is no stored field has none). */
export function storedPathsOf(model: WriteModel, typeName: string, fieldNames: readonly string[]): string[] {
  const fields = model.storageMap.types.get(typeName)?.fields;
  return fieldNames.flatMap((name) => {
    const field = fields?.get(name);
    return field?.kind === 'stored' ? [field.path] : [];
  });
}
