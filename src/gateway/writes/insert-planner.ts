import { keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { StoredDocument } from '../mongo/mongo-funnel';
import { sortDocument } from '../storage-map/parse-sort';
import { planReferenceChange } from './reference-planner';
import { UpdateMerger, type PlannedUpdate } from './write-steps';
import type { CopiedField, WriteModel } from './write-model-types';

/** A reference the new document holds: its targets must exist, and a snapshot of them is filled in. */
export interface ForwardReference {
  readonly coordinate: string;
  readonly collection: string;
  readonly keys: readonly unknown[];
  readonly snapshot?: { readonly path: string; readonly key: string; readonly isList: boolean; readonly fields: readonly CopiedField[] };
}

/** Every by-key reference of a new `typeName` document (`Book.publisher`, `Book.authors`, `Comment.post`). */
export function forwardReferences(model: WriteModel, typeName: string, document: StoredDocument): ForwardReference[] {
  const references: ForwardReference[] = [];
  for (const field of model.storageMap.relations.values()) {
    const join = field.shapes.join;
    if (field.typeName !== typeName || !join || join.direction !== 'byKey') continue;
    const snapshot = field.shapes.snapshot;
    const location = snapshot && model.snapshots.find((candidate) => candidate.coordinate === field.coordinate);
    const keys = toList(snapshot ? readPath(document, `${snapshot.path}.${snapshot.key}`) : readPath(document, join.localField));
    if (keys.length === 0) continue;
    references.push({
      coordinate: field.coordinate,
      collection: join.collection,
      keys,
      ...(snapshot && location && { snapshot: { path: snapshot.path, key: snapshot.key, isList: field.isList, fields: location.fields } }),
    });
  }
  return references;
}

/** The document with each snapshot entry completed from its source (`{id}` → `{id, name, thumbnailUrl}`). */
export function fillSnapshot(document: StoredDocument, reference: ForwardReference, sources: ReadonlyMap<string, StoredDocument>): StoredDocument {
  const snapshot = reference.snapshot;
  if (!snapshot) return document;
  const fill = (entry: unknown) => {
    const id = (entry as Record<string, unknown>)[snapshot.key];
    const source = sources.get(keyString(id));
    const copy: StoredDocument = { [snapshot.key]: id };
    for (const field of snapshot.fields) copy[field.name] = source === undefined ? undefined : readPath(source, field.sourcePath);
    return copy;
  };
  const value = document[snapshot.path];
  return { ...document, [snapshot.path]: Array.isArray(value) ? value.map(fill) : fill(value) };
}

/** A new document starts with its derived values true: counters 0, inverse and bounded arrays empty. */
export function withInitialDerivedValues(model: WriteModel, collection: string, document: StoredDocument): StoredDocument {
  const initial: StoredDocument = {};
  for (const counter of model.counters) if (counter.collection === collection) initial[counter.path] = 0;
  for (const inverse of model.inverses) if (inverse.collection === collection) initial[inverse.path] = [];
  for (const array of model.boundedArrays) if (array.collection === collection) initial[array.path] = [];
  return { ...initial, ...document };
}

/**
 * What inserting `document` into `collection` changes elsewhere: its copy pushed onto every bounded
 * array fed by the collection (sorted, sliced to the bound), the parents' counters of it, and the
 * inverse side of each two-way reference it holds.
 */
export function planInsertDerived(model: WriteModel, typeName: string, collection: string, document: StoredDocument): PlannedUpdate[] {
  const merger = new UpdateMerger();
  for (const array of model.boundedArrays) {
    if (array.childCollection !== collection) continue;
    const parent = { path: array.parentKey, value: readPath(document, array.childKey) };
    if (parent.value === undefined || parent.value === null) continue;
    const push = { $each: [document], $sort: sortDocument(array.sort), ...(array.limit !== undefined && { $slice: array.limit }) };
    merger.add(array.collection, parent, { [`${array.path}._id`]: { $ne: document._id } }, '$push', array.path, push, array.parentKey !== '_id');
  }
  for (const counter of model.counters) {
    if (counter.source.kind !== 'children' || counter.source.childCollection !== collection) continue;
    const parent = { path: counter.source.parentKey, value: readPath(document, counter.source.childKey) };
    if (parent.value === undefined || parent.value === null) continue;
    merger.add(counter.collection, parent, {}, '$inc', counter.path, 1, counter.source.parentKey !== '_id');
  }
  const planned = merger.planned();
  const truths = new Map(model.inverses.filter((inverse) => inverse.truthType === typeName).map((inverse) => [inverse.of, inverse.truthPath]));
  for (const [coordinate, truthPath] of truths) {
    planned.push(...planReferenceChange(model, coordinate, document._id, [], toList(readPath(document, truthPath))));
  }
  return planned;
}

function toList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.filter((item) => item !== undefined && item !== null) : [value];
}
