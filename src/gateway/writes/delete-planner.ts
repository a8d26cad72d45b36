import { readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import { documentLocations } from '../startup/storage-map/document-locations';
import { collectionsOfReferenceChange, planReferenceChange } from './reference-planner';
import type { BoundedArray, CounterRule, TotalRule, WriteModel } from '../startup/write-model/write-model-types';
import type { JoinShape } from '../startup/storage-map/storage-map-types';
import { addTotalIncrements, totalCollections, totalsFedBy } from './total-planner';
import { planCounterCopyUpdates } from './fan-out-planner';
import { counterCopies } from '../startup/write-model/build-write-model';
import { distinct, UpdateMerger, type PlannedUpdate } from './write-steps';

/** A stored path where other documents keep references to a type (`orders.customer.id` for Order.customer). */
export interface IncomingReference {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
}

/**
 * Where other documents point at `typeName` documents by key: every by-key join to it or into its
 * collection (a snapshot's key included), wherever its owner is stored. Derived sides of two-way references (`@inverse`) are
 * left out: deleting the document pulls it from them.
 */
export function incomingReferences(model: WriteModel, typeName: string): IncomingReference[] {
  const derived = new Set(model.inverses.map((inverse) => inverse.coordinate));
  const references: IncomingReference[] = [];
  for (const field of model.storageMap.relations.values()) {
    const join = field.shapes.join;
    if (!join || join.direction !== 'byKey' || !joinsInto(model, join, typeName) || derived.has(field.coordinate)) continue;
    for (const owner of documentLocations(model.storageMap, field.typeName)) {
      references.push({ coordinate: field.coordinate, collection: owner.collection, path: owner.prefix === '' ? join.localField : `${owner.prefix}.${join.localField}` });
    }
  }
  return references;
}

/** Whether `join` reads `typeName` documents: joins to it, or into its collection through another type over it (Pen and Author over "authors"). */
export function joinsInto(model: WriteModel, join: JoinShape, typeName: string): boolean {
  const collection = model.storageMap.types.get(typeName)?.collection;
  return join.targetType === typeName || (collection !== undefined && join.collection === collection);
}

/** The rules a delete from `collection` unfeeds: bounded arrays, counters and totals of its parents, inverse arrays of its references. */
interface DeleteRules {
  readonly arrays: readonly BoundedArray[];
  readonly counters: readonly CounterRule[];
  readonly totals: readonly TotalRule[];
  readonly truths: readonly string[];
}

function deleteRules(model: WriteModel, typeName: string, collection: string): DeleteRules {
  return {
    arrays: boundedArraysOf(model, collection),
    counters: model.counters.filter((counter) => counter.source.kind === 'children' && counter.source.childCollection === collection),
    totals: totalsFedBy(model, typeName),
    truths: distinct(model.inverses.filter((inverse) => inverse.truthType === typeName).map((inverse) => inverse.of)),
  };
}

/** The bounded arrays a deleted document may have been in; each is read again from its source (see planDeleteDerived). */
export function boundedArraysOf(model: WriteModel, collection: string): readonly BoundedArray[] {
  return model.boundedArrays.filter((array) => array.childCollection === collection);
}

/**
 * What deleting `document` changes elsewhere: its parents' counters go down by one and their totals by
 * its value, each bounded array it fed is set to `refills` (the parent's newest children, read after
 * the delete), and it leaves the inverse arrays of the two-way references it held.
 */
export function planDeleteDerived(
  model: WriteModel,
  typeName: string,
  collection: string,
  document: StoredDocument,
  refills: ReadonlyMap<BoundedArray, readonly StoredDocument[]>,
): PlannedUpdate[] {
  const rules = deleteRules(model, typeName, collection);
  const merger = new UpdateMerger();
  for (const array of rules.arrays) {
    const parent = { path: array.parentKey, value: readPath(document, array.childKey) };
    const children = refills.get(array);
    if (parent.value === undefined || parent.value === null || !children) continue;
    merger.add(array.collection, parent, {}, '$set', array.path, children, array.parentKey !== '_id');
  }
  const copies: PlannedUpdate[] = [];
  for (const counter of rules.counters) {
    if (counter.source.kind !== 'children') continue;
    const parent = { path: counter.source.parentKey, value: readPath(document, counter.source.childKey) };
    if (parent.value === undefined || parent.value === null) continue;
    merger.add(counter.collection, parent, {}, '$inc', counter.path, -1, counter.source.parentKey !== '_id');
    copies.push(...planCounterCopyUpdates(model, counter, parent.value, -1));
  }
  addTotalIncrements(merger, rules.totals, document, -1);
  const planned = [...merger.planned(), ...copies];
  for (const coordinate of rules.truths) {
    const truth = model.inverses.find((inverse) => inverse.of === coordinate)!;
    const keys = readPath(document, truth.truthPath);
    planned.push(...planReferenceChange(model, coordinate, document._id, Array.isArray(keys) ? keys : keys === undefined || keys === null ? [] : [keys], []));
  }
  return planned;
}

/** The collections planDeleteDerived may write after a delete from `collection`, each once. */
export function collectionsDerivedFromDelete(model: WriteModel, typeName: string, collection: string): string[] {
  const rules = deleteRules(model, typeName, collection);
  return distinct([
    ...rules.arrays.map((array) => array.collection),
    ...rules.counters.flatMap((counter) => [counter.collection, ...counterCopies(model, counter).map(({ location }) => location.collection)]),
    ...totalCollections(rules.totals),
    ...rules.truths.flatMap((coordinate) => collectionsOfReferenceChange(model, coordinate)),
  ]);
}
