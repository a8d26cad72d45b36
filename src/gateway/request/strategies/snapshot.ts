import { InvariantError } from '../../errors/internal-errors';
import { isKeyValue, keyString } from '../../documents/key-string';
import { readPath, writePath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import { filterAndSort } from '../../operation/planning/in-memory-list';
import { asksForList } from '../../operation/planning/requested-list';
import type { SnapshotShape } from '../../startup/storage-map/storage-map-types';
import { joinByKey } from './join';
import type { RelationRequest, RelationValue } from './resolver-types';

/**
 * Serves the field from the parent's copy when the selection fits it (no query); otherwise joins the
 * documents through the field's @join shape (batched, and free for documents already loaded). A copy
 * written before a field joined the snapshot (a widened snapshot not yet backfilled) lacks it: that
 * copy alone is joined, in the same batch as the level's other loads, and keeps its place.
 */
export function resolveSnapshot(shape: SnapshotShape, request: RelationRequest): RelationValue {
  const copy = readPath(request.parent, shape.path);
  const { context, info, field } = request;
  const { copies: stored, unchecked } = visibleCopies(request, shape, (copy === undefined || copy === null ? [] : Array.isArray(copy) ? copy : [copy]).filter((value) => isEntry(value, shape.key)));
  // A single reference reads its first copy only.
  const entries = field.isList ? stored : stored.slice(0, 1);
  const { requested } = request;
  const missing = context.snapshotMissingFields(info, shape, field.targetType, requested);
  if (missing.length === 0) {
    const copied = context.snapshotCopiedFields(info, shape, field.targetType, requested);
    const lackedFields = (entry: Record<string, unknown>) => unchecked?.get(entry) ?? lackedCopiedFields(copied, entry) ?? keyOnlyCopy(shape, entry);
    if (entries.every((entry) => lackedFields(entry) === undefined)) {
      // Every copy is complete (the common case): no slots, nothing to merge.
      request.cost.snapshotHits(entries.length);
      const copies = entries.map((entry) => toStoredDocument(request, shape, entry));
      const documents = asksForList(requested) ? filterAndSort(copies, requested.filters, requested.sort) : copies;
      return field.isList ? documents : (documents[0] ?? null);
    }
    const slots = entries.map((entry): SnapshotSlot => {
      const lacked = lackedFields(entry);
      if (lacked === undefined) return { copy: toStoredDocument(request, shape, entry) };
      request.cost.snapshotMisses(1, lacked);
      return { key: entry[shape.key] };
    });
    const staleKeys = slots.flatMap((slot) => ('key' in slot ? [slot.key] : []));
    request.cost.snapshotHits(entries.length - staleKeys.length);
    const serve = (joined: readonly (StoredDocument | null)[]) => {
      const merged = mergeCopiesAndJoined(slots, joined, shape.fallback.foreignField);
      return asksForList(requested) ? filterAndSort(merged, requested.filters, requested.sort) : merged;
    };
    if (staleKeys.length === 0) {
      const documents = serve([]);
      return field.isList ? documents : (documents[0] ?? null);
    }
    const projection = context.projectionFor(info, field.targetType);
    if (!field.isList) return joinByKey(shape.fallback, request, staleKeys[0], projection);
    return Promise.resolve(joinByKey(shape.fallback, request, staleKeys, projection)).then((joined) => serve(joined as StoredDocument[]));
  }
  request.cost.snapshotMisses(entries.length, missing);
  const keys = entries.map((entry) => entry[shape.key]);
  const projection = context.projectionFor(info, field.targetType);
  return joinByKey(shape.fallback, request, field.isList ? keys : keys[0], projection);
}

/**
 * The copies the viewer may see: under an access rule whose conditions the copy holds (build-access-rules.ts
 * joins the field otherwise), a copy of a row the viewer may not read is left out, as the join would. A
 * copy written before it held a condition's field (a snapshot widened, not yet backfilled) cannot be
 * checked: only its key is kept, in `unchecked` with the rule's fields it lacks, so the row is read by
 * the join, with the viewer's filter, whatever the selection reads of it (its `id` alone too).
 */
function visibleCopies(
  request: RelationRequest,
  shape: SnapshotShape,
  entries: Record<string, unknown>[],
): { copies: Record<string, unknown>[]; unchecked?: ReadonlyMap<Record<string, unknown>, readonly string[]> } {
  const { access } = request.context;
  const conditions = access?.readConditions(request.field.targetType) ?? [];
  if (!access || conditions.length === 0) return { copies: entries };
  let unchecked: Map<Record<string, unknown>, readonly string[]> | undefined;
  const copies = entries.flatMap((entry) => {
    if (conditions.every((condition) => condition.fieldName === 'id' || condition.fieldName in entry)) return access.copyVisible(request.field.targetType, entry, shape.key) ? [entry] : [];
    const keyOnly = { [shape.key]: entry[shape.key] };
    (unchecked ??= new Map()).set(keyOnly, lackedConditionFields(conditions, entry));
    return [keyOnly];
  });
  return { copies, ...(unchecked && { unchecked }) };
}

/** One entry of a snapshot list: its copy, or the key of the document the join reads in its place. */
export type SnapshotSlot = { readonly copy: StoredDocument } | { readonly key: unknown };

/**
 * The list in the entries' order: each copy as is, each joined entry as the document found for its key
 * (`keyPath` of a joined document), left out when the join found none (a dangling key, or one its
 * filters dropped).
 */
export function mergeCopiesAndJoined(slots: readonly SnapshotSlot[], joined: readonly (StoredDocument | null)[], keyPath: string): StoredDocument[] {
  const byKey = new Map<string, StoredDocument>();
  for (const document of joined) if (document) byKey.set(keyString(readPath(document, keyPath)), document);
  return slots.flatMap((slot) => {
    if ('copy' in slot) return [slot.copy];
    const document = byKey.get(keyString(slot.key));
    return document ? [document] : [];
  });
}

/**
 * Sets of lacked fields, one array per set and per what they were looked for in (a selection's copied
 * fields, a rule's conditions), so the workload counts misses per set (FieldRead.missing).
 */
const lackedSets = new WeakMap<object, Map<string, readonly string[]>>();

function interned(lookedFor: object, lacked: string[]): readonly string[] {
  let sets = lackedSets.get(lookedFor);
  if (!sets) lackedSets.set(lookedFor, (sets = new Map()));
  const key = lacked.join(',');
  let set = sets.get(key);
  if (!set) sets.set(key, (set = Object.freeze(lacked)));
  return set;
}

/** The rule's fields a copy lacks. */
function lackedConditionFields(conditions: readonly { readonly fieldName: string }[], entry: Record<string, unknown>): readonly string[] {
  return interned(conditions, conditions.filter((condition) => condition.fieldName !== 'id' && !(condition.fieldName in entry)).map((condition) => condition.fieldName));
}

/** The fields of `copied` the entry lacks (a copy written before they joined the snapshot); undefined when none. */
function lackedCopiedFields(copied: readonly string[], entry: Record<string, unknown>): readonly string[] | undefined {
  // The common case (every copy complete) allocates nothing.
  if (copied.every((name) => entry[name] !== undefined)) return undefined;
  return interned(copied, copied.filter((name) => entry[name] === undefined));
}

/**
 * The snapshot's other fields, when `entry` holds its key and none of them: a copy written for a key
 * that named no document (migrate's backfill of a dangling reference) or by a writer that copied
 * nothing. It tells nothing of the target, not even that it exists, so the join answers it, as it
 * answers the reference without a snapshot (null for a key naming nothing).
 */
function keyOnlyCopy(shape: SnapshotShape, entry: Record<string, unknown>): readonly string[] | undefined {
  let others = false;
  for (const name of shape.fields) {
    if (name === shape.key) continue;
    if (entry[name] !== undefined) return undefined;
    others = true;
  }
  return others ? interned(shape, shape.fields.filter((name) => name !== shape.key)) : undefined;
}

/** A copy of a target: a document holding its key (a copy without one, as a null reference, names no target, so the join skips it too). */
function isEntry(value: unknown, key: string): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && isKeyValue((value as Record<string, unknown>)[key]);
}

/** Rebuilds a copy as the target document would be stored, so the target's field resolvers read it unchanged. */
function toStoredDocument(request: RelationRequest, shape: SnapshotShape, entry: Record<string, unknown>): StoredDocument {
  const document: StoredDocument = { _id: entry[shape.key] };
  for (const { name, path } of storedPathsOf(request, shape)) writePath(document, path, entry[name]);
  return document;
}

/** Each copied field's stored path in the target document (`_id` left out: the key gives it), worked out once per shape. */
const storedPaths = new WeakMap<SnapshotShape, ReadonlyArray<{ readonly name: string; readonly path: string }>>();

function storedPathsOf(request: RelationRequest, shape: SnapshotShape): ReadonlyArray<{ readonly name: string; readonly path: string }> {
  let paths = storedPaths.get(shape);
  if (paths) return paths;
  const target = request.context.storageMap.types.get(shape.fallback.targetType);
  if (!target) throw new InvariantError(`no storage for ${shape.fallback.targetType}`);
  paths = shape.fields.flatMap((name) => {
    const storage = target.fields.get(name);
    if (storage?.kind !== 'stored') throw new InvariantError(`${request.field.coordinate}: snapshot field ${name} is not stored`);
    return storage.path === '_id' ? [] : [{ name, path: storage.path }];
  });
  storedPaths.set(shape, paths);
  return paths;
}
