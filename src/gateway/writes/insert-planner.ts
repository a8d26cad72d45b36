import { keyString } from '../documents/key-string';
import { isAtOrUnder, readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import { sortDocument } from '../startup/storage-map/parse-sort';
import type { RelationField } from '../startup/storage-map/storage-map-types';
import { collectionsOfReferenceChange, planReferenceChange } from './reference-planner';
import { planCounterCopyUpdates } from './fan-out-planner';
import { counterCopies } from '../startup/write-model/build-write-model';
import { addTotalIncrements, totalCollections, totalsFedBy } from './total-planner';
import { distinct, UpdateMerger, type PlannedUpdate, type WriteStep } from './write-steps';
import { oncePerModel } from './once-per-model';
import { copyPathOf } from '../startup/write-model/build-write-model';
import type { BoundedArray, CopiedField, CounterRule, CounterSource, PathSegment, SnapshotLocation, TotalRule, WriteModel } from '../startup/write-model/write-model-types';

/** A reference the new document holds: its targets must exist, and a snapshot of them is filled in. */
export interface ForwardReference {
  readonly coordinate: string;
  readonly collection: string;
  readonly keys: readonly unknown[];
  /** Inside a transaction, the derived update of its one target proves the target exists: no read (see provedByDerivedUpdate). */
  readonly provable: boolean;
  /** The copies to fill: where they are in the document, their key and the fields copied. */
  readonly snapshot?: { readonly segments: readonly PathSegment[]; readonly key: string; readonly fields: readonly CopiedField[] };
}

/**
 * The by-key relations of `typeName` (`Book.publisher`, `Book.authors`, `Comment.post`): the references a
 * new document may hold, each checked with one read when it does (see WriteUnit.insert).
 */
export const byKeyReferenceFields = oncePerModel(
  (typeName: string) => typeName,
  (model, typeName): readonly RelationField[] => [...model.storageMap.relations.values()].filter((field) => field.typeName === typeName && field.shapes.join?.direction === 'byKey'),
);


/**
 * Snapshots inside the embedded copies of a new `typeName` document (`Order.lines.product`): each
 * location is one more reference, read with one find for all its copies.
 */
export function nestedSnapshotLocations(model: WriteModel, typeName: string): SnapshotLocation[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  return model.snapshots.filter((location) => location.collection === collection && location.segments.length > 1 && !location.inSourceDocument);
}

/**
 * Whether inserting a `field.typeName` document always updates the one document its by-key relation
 * `field` points at, picked by `_id`, in a statement of its own: the target's collection is written
 * only by bounded arrays, counters and totals of the children keyed by the relation's local field
 * (`Comment.post`: `Post.recentComments` and `Post.commentCount` follow `postId`, one merged
 * statement), and at least one array or counter, which always writes it. Inside a transaction that statement's matched count proves the target exists, so the
 * insert needs no read for it; a snapshot reference still reads its target for the copied fields.
 */
export const provedByDerivedUpdate = oncePerModel(
  (field: RelationField) => field.coordinate,
  (model, field): boolean => {
    const join = field.shapes.join;
    const collection = model.storageMap.types.get(field.typeName)?.collection;
    if (field.isList || field.shapes.snapshot || join?.direction !== 'byKey' || collection === undefined) return false;
    const rules = insertRules(model, field.typeName);
    const keyedByField = (rule: { parentKey: string; childKey: string }) => rule.parentKey === '_id' && rule.childKey === join.localField;
    const arrays = rules.arrays.filter((array) => array.collection === join.collection);
    const counters = rules.counters.filter(({ counter }) => counter.collection === join.collection);
    // A total moves only when the child holds a number, so it proves nothing; keyed elsewhere it is another statement.
    const totals = rules.totals.filter((total) => total.collection === join.collection);
    const otherWriters = [
      ...rules.counters.flatMap(({ counter }) => counterCopies(model, counter).map(({ location }) => location.collection)),
      ...rules.truths.flatMap(([coordinate]) => collectionsOfReferenceChange(model, coordinate)),
    ];
    return (
      arrays.length + counters.length > 0 &&
      arrays.every(keyedByField) &&
      counters.every(({ source }) => keyedByField(source)) &&
      totals.every(keyedByField) &&
      !otherWriters.includes(join.collection)
    );
  },
);

/**
 * The one statement of `step` when it updates exactly the document `key` of its collection (one
 * statement, updateOne, filtered by that `_id`): its matched count then answers whether `key` exists.
 */
export function soleUpdateOf(step: WriteStep | undefined, key: unknown): boolean {
  if (step?.kind !== 'update' || step.statements.length !== 1) return false;
  const statement = step.statements[0]!;
  return !statement.multi && statement.filter._id !== undefined && keyString(statement.filter._id) === keyString(key);
}

/**
 * The parents that pick `typeName` documents by a key no by-key relation of `typeName` reads
 * (`Post.comments` by `postId`, with no `Comment.post`): what checks, under access rules, that a new
 * document does not join a parent the viewer may not read (WriteUnit.insert). Parents keyed by their
 * `_id` only: the key is then an id, checked as a reference's is.
 */
export const uncheckedParentRelations = oncePerModel(
  (typeName: string) => typeName,
  (model, typeName): ReadonlyArray<{ readonly coordinate: string; readonly collection: string; readonly keyPath: string; readonly keyField: string; readonly keyIsList: boolean }> => {
    const read = new Set(byKeyReferenceFields(model, typeName).map((field) => field.shapes.join!.localField));
    const fields = [...(model.storageMap.types.get(typeName)?.fields.values() ?? [])];
    return [...model.storageMap.relations.values()].flatMap((relation) => {
      const join = relation.shapes.join;
      const collection = model.storageMap.types.get(relation.typeName)?.collection;
      if (relation.targetType !== typeName || join?.direction !== 'byReference' || join.localField !== '_id' || read.has(join.foreignField) || collection === undefined) return [];
      const key = fields.find((field) => field.kind === 'stored' && field.path === join.foreignField);
      const keyIsList = key?.kind === 'stored' && key.valueType.isList;
      return [{ coordinate: relation.coordinate, collection, keyPath: join.foreignField, keyField: key?.coordinate ?? `${typeName}.${join.foreignField}`, keyIsList }];
    });
  },
);

/** The parents of a new `typeName` document its keys name that no relation of its own reads (uncheckedParentRelations). */
export function uncheckedParents(model: WriteModel, typeName: string, document: StoredDocument): ForwardReference[] {
  return uncheckedParentRelations(model, typeName).flatMap((parent) => {
    const keys = toList(readPath(document, parent.keyPath));
    // Named by the key field (`Comment.postId: … not found`): the input gave that, not the parent's list.
    return keys.length === 0 ? [] : [{ coordinate: parent.keyField, collection: parent.collection, keys, provable: false }];
  });
}

/** A key a `typeName` document keeps that names another row: a reference's, or the one a parent picks its children by. */
export interface KeyToRow {
  readonly coordinate: string;
  readonly collection: string;
  readonly keyPath: string;
  /** It holds a list of keys, or sits inside an embedded list. */
  readonly many: boolean;
}

/** Every key a `typeName` document keeps that names another row (the keys a create checks). */
export const keysToRows = oncePerModel(
  (typeName: string) => typeName,
  (model, typeName): readonly KeyToRow[] => [
    ...byKeyReferenceFields(model, typeName).map((field) => {
      const snapshot = field.shapes.snapshot;
      return { coordinate: field.coordinate, collection: field.shapes.join!.collection, keyPath: snapshot ? `${snapshot.path}.${snapshot.key}` : field.shapes.join!.localField, many: field.isList };
    }),
    ...nestedSnapshotLocations(model, typeName).map((location) => ({
      coordinate: location.coordinate,
      collection: location.sourceCollection,
      keyPath: `${copyPathOf(location)}.${location.key}`,
      many: true,
    })),
    ...nestedReferences(model, typeName).map((nested) => ({ coordinate: nested.coordinate, collection: nested.collection, keyPath: nested.keyPath, many: true })),
    ...uncheckedParentRelations(model, typeName).map((parent) => ({ coordinate: parent.keyField, collection: parent.collection, keyPath: parent.keyPath, many: parent.keyIsList })),
  ],
);

/** The keys to other rows that setting `paths` (stored paths, a key's own or one holding it) writes. */
export function keysSetBy(model: WriteModel, typeName: string, paths: readonly string[]): KeyToRow[] {
  return keysToRows(model, typeName).filter((key) => paths.some((path) => isAtOrUnder(key.keyPath, path)));
}

/**
 * The by-key relations of the types embedded in `typeName` documents (`Line.product` inside
 * `Order.lines`), snapshots aside (nestedSnapshotLocations has them): where their keys lie in the
 * document, and through how many lists (the embedding ones and the reference's own): 0 for one key.
 */
export const nestedReferences = oncePerModel(
  (typeName: string) => typeName,
  (model, typeName): ReadonlyArray<{ readonly coordinate: string; readonly collection: string; readonly keyPath: string; readonly lists: number }> => {
    if (model.storageMap.types.get(typeName)?.collection === undefined) return [];
    const references: Array<{ coordinate: string; collection: string; keyPath: string; lists: number }> = [];
    const visit = (owner: string, prefix: string, lists: number, seen: ReadonlySet<string>) => {
      for (const field of model.storageMap.relations.values()) {
        if (field.typeName !== owner) continue;
        const embedded = field.shapes.embedded;
        const join = field.shapes.join;
        const below = lists + (field.isList ? 1 : 0);
        // A type of its own, not the copies of another collection's documents (a bounded array's children are checked where they are written).
        const ownType = model.storageMap.types.get(field.targetType)?.collection === undefined;
        if (embedded && ownType && !seen.has(field.targetType)) visit(field.targetType, prefix === '' ? embedded.path : `${prefix}.${embedded.path}`, below, new Set([...seen, field.targetType]));
        else if (prefix !== '' && join?.direction === 'byKey' && !field.shapes.snapshot) references.push({ coordinate: field.coordinate, collection: join.collection, keyPath: `${prefix}.${join.localField}`, lists: below });
      }
    };
    visit(typeName, '', 0, new Set([typeName]));
    return references;
  },
);

/** Every reference of a new `typeName` document: its own by-key relations, then the snapshots inside its embedded copies. */
export function forwardReferences(model: WriteModel, typeName: string, document: StoredDocument): ForwardReference[] {
  const references: ForwardReference[] = [];
  for (const field of byKeyReferenceFields(model, typeName)) {
    const join = field.shapes.join!;
    const snapshot = field.shapes.snapshot;
    const location = snapshot && model.snapshots.find((candidate) => candidate.coordinate === field.coordinate);
    const keys = toList(snapshot ? readPath(document, `${snapshot.path}.${snapshot.key}`) : readPath(document, join.localField));
    if (keys.length === 0) continue;
    references.push({
      coordinate: field.coordinate,
      collection: join.collection,
      keys,
      provable: keys.length === 1 && provedByDerivedUpdate(model, field),
      ...(snapshot && location && { snapshot: { segments: location.segments, key: snapshot.key, fields: location.fields } }),
    });
  }
  for (const location of nestedSnapshotLocations(model, typeName)) {
    const keys = copiedKeys(document, location);
    if (keys.length === 0) continue;
    references.push({ coordinate: location.coordinate, collection: location.sourceCollection, keys, provable: false, snapshot: { segments: location.segments, key: location.key, fields: location.fields } });
  }
  for (const nested of nestedReferences(model, typeName)) {
    // Through lists, the keys come as arrays of arrays.
    const keys = toList(readPath(document, nested.keyPath)).flat(Number.POSITIVE_INFINITY).filter((key) => key !== null && key !== undefined);
    if (keys.length > 0) references.push({ coordinate: nested.coordinate, collection: nested.collection, keys, provable: false });
  }
  return references;
}

/** The document with each snapshot copy completed from its source (`{id}` → `{id, name, thumbnailUrl}`), wherever the copies are. */
export function fillSnapshot(document: StoredDocument, reference: ForwardReference, sources: ReadonlyMap<string, StoredDocument>): StoredDocument {
  const snapshot = reference.snapshot;
  if (!snapshot) return document;
  const fill = (entry: unknown): unknown => {
    if (entry === null || typeof entry !== 'object') return entry;
    const id = (entry as Record<string, unknown>)[snapshot.key];
    const source = sources.get(keyString(id));
    const copy: StoredDocument = { ...(entry as StoredDocument), [snapshot.key]: id };
    for (const field of snapshot.fields) copy[field.name] = source === undefined ? undefined : readPath(source, field.sourcePath);
    return copy;
  };
  // A segment's path may be dotted (a snapshot at "meta.author"): each name is a level of the document.
  return mapAlong(document, snapshot.segments.flatMap((segment) => segment.path.split('.')), fill) as StoredDocument;
}

/** `value` with `transform` applied to what lies at the end of `names`, mapping over the arrays on the way. */
function mapAlong(value: unknown, names: readonly string[], transform: (copy: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((element) => mapAlong(element, names, transform));
  const [name, ...rest] = names;
  if (name === undefined) return transform(value);
  if (value === null || typeof value !== 'object') return value;
  const container = value as StoredDocument;
  if (!Object.hasOwn(container, name)) return value;
  return { ...container, [name]: mapAlong(container[name], rest, transform) };
}

/** The rules an insert into `collection` feeds, whatever the document holds: see planInsertDerived. */
interface InsertRules {
  readonly arrays: readonly BoundedArray[];
  readonly counters: ReadonlyArray<{ readonly counter: CounterRule; readonly source: Extract<CounterSource, { kind: 'children' }> }>;
  readonly totals: readonly TotalRule[];
  /** The truth coordinates (`Book.authors`) of two-way references the new document holds, with their stored paths. */
  readonly truths: ReadonlyArray<readonly [coordinate: string, truthPath: string]>;
}

/** The insert rules of a `typeName` document, stored in its type's collection. */
const insertRules = oncePerModel((typeName: string) => typeName, (model, typeName): InsertRules => {
  const collection = model.storageMap.types.get(typeName)?.collection;
  return {
    arrays: model.boundedArrays.filter((array) => array.childCollection === collection),
    counters: model.counters.flatMap((counter) => (counter.source.kind === 'children' && counter.source.childCollection === collection ? [{ counter, source: counter.source }] : [])),
    totals: totalsFedBy(model, typeName),
    truths: [...new Map(model.inverses.filter((inverse) => inverse.truthType === typeName).map((inverse) => [inverse.of, inverse.truthPath] as const))],
  };
});

/**
 * What inserting `document` (a `typeName`) changes elsewhere: its copy pushed onto every bounded
 * array fed by the collection (sorted, sliced to the bound), the parents' counters and totals of it, and the
 * inverse side of each two-way reference it holds.
 */
export function planInsertDerived(model: WriteModel, typeName: string, document: StoredDocument): PlannedUpdate[] {
  const rules = insertRules(model, typeName);
  const merger = new UpdateMerger();
  for (const array of rules.arrays) {
    const parent = { path: array.parentKey, value: readPath(document, array.childKey) };
    if (parent.value === undefined || parent.value === null) continue;
    const push = { $each: [document], $sort: sortDocument(array.sort), ...(array.limit !== undefined && { $slice: array.limit }) };
    merger.add(array.collection, parent, { [`${array.path}._id`]: { $ne: document._id } }, '$push', array.path, push, array.parentKey !== '_id');
  }
  const copies: PlannedUpdate[] = [];
  for (const { counter, source } of rules.counters) {
    const parent = { path: source.parentKey, value: readPath(document, source.childKey) };
    if (parent.value === undefined || parent.value === null) continue;
    merger.add(counter.collection, parent, {}, '$inc', counter.path, 1, source.parentKey !== '_id');
    copies.push(...planCounterCopyUpdates(model, counter, parent.value, 1));
  }
  addTotalIncrements(merger, rules.totals, document, 1);
  const planned = [...merger.planned(), ...copies];
  for (const [coordinate, truthPath] of rules.truths) {
    planned.push(...planReferenceChange(model, coordinate, document._id, [], toList(readPath(document, truthPath))));
  }
  return planned;
}

/**
 * The collections planInsertDerived may write after inserting a `typeName`, each once: the unit
 * sends one update command per collection (groupByCollection), so this is its most derived commands.
 */
export function collectionsDerivedFromInsert(model: WriteModel, typeName: string): string[] {
  const rules = insertRules(model, typeName);
  return distinct([
    ...rules.arrays.map((array) => array.collection),
    ...rules.counters.flatMap(({ counter }) => [counter.collection, ...counterCopies(model, counter).map(({ location }) => location.collection)]),
    ...totalCollections(rules.totals),
    ...rules.truths.flatMap(([coordinate]) => collectionsOfReferenceChange(model, coordinate)),
  ]);
}

/** The keys of the copies at `location` in `document` (a `location.collection` document): the sources it copies. */
export function copiedKeys(document: StoredDocument, location: SnapshotLocation): unknown[] {
  return toList(readPath(document, `${copyPathOf(location)}.${location.key}`));
}

function toList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.filter((item) => item !== undefined && item !== null) : [value];
}
