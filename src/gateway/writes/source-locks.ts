import { keyString } from '../documents/key-string';
import type { WriteModel } from '../startup/write-model/write-model-types';
import { boundedArraysOf, incomingReferences } from './delete-planner';
import { hasFanOut } from './fan-out-planner';
import { collectionsDerivedFromInsert } from './insert-planner';
import { collectionsOfMoves, collectionsOfReferenceChange } from './reference-planner';

/**
 * MongoDB's transactions run on a snapshot: two of them conflict only when both write one document.
 * A unit that copies a source document (an order's snapshot of its product, a review refilled into its
 * product's newest reviews) or points at one (a new book's publisher) reads it without writing it, and
 * a unit that changes the copied fields or deletes it writes it but cannot see the copies and
 * references the first one adds: both would commit, leaving a stale copy or a dangling reference. So
 * both write the same lock document, `<collection>/<id>` in `docjoin_locks`, in one command before
 * they commit: the second to write it conflicts and runs again, and then sees what the first did.
 * A unit that writes the source by its `_id` anyway (a counter of it, an inverse array in it) needs no
 * lock for it. Without transactions nothing is isolated, and no lock is written.
 *
 * Each rule below is the one the unit follows and the one its estimate counts (estimate-write-unit.ts).
 */

/** Whether an insert of `typeName` locks the targets its references into `collection` name: its derived updates do not write that collection. */
export function insertLocksTargetsIn(model: WriteModel, typeName: string, collection: string): boolean {
  return !collectionsDerivedFromInsert(model, typeName).includes(collection);
}

/** Whether an update of `fieldNames` of a `typeName` document locks it: some copy of them lives elsewhere. */
export function updateLocksSource(model: WriteModel, typeName: string, fieldNames: readonly string[]): boolean {
  return hasFanOut(model, typeName, fieldNames);
}

/** Whether a delete of a `typeName` document locks it: other documents may reference or copy it. */
export function deleteLocksDocument(model: WriteModel, typeName: string, collection: string): boolean {
  return incomingReferences(model, typeName).length > 0 || model.snapshots.some((location) => location.sourceType === typeName) || boundedArraysOf(model, collection).length > 0;
}

/** Whether a change of the reference `coordinate` locks its new target: neither its inverse side nor a count or total it moves writes it. */
export function referenceChangeLocksTarget(model: WriteModel, coordinate: string, targetCollection: string): boolean {
  const field = model.storageMap.relations.get(coordinate);
  const moved = field?.shapes.join ? collectionsOfMoves(model, field.typeName, [field.shapes.join.localField]) : [];
  return ![...collectionsOfReferenceChange(model, coordinate), ...moved].includes(targetCollection);
}

/** The lock documents a unit writes, each once. */
export class SourceLocks {
  readonly #keys = new Set<string>();

  add(collection: string, ids: readonly unknown[]): void {
    for (const id of ids) if (id !== undefined && id !== null) this.#keys.add(`${collection}/${keyString(id)}`);
  }

  get keys(): readonly string[] {
    return [...this.#keys];
  }
}
