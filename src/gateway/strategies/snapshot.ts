import { InvariantError } from '../errors/internal-errors';
import { readPath, writePath } from '../documents/read-path';
import type { StoredDocument } from '../mongo/mongo-funnel';
import { filterAndSort } from '../planning/in-memory-list';
import { asksForList, requestedList } from '../planning/requested-list';
import type { SnapshotShape } from '../storage-map/storage-map-types';
import { joinByKey } from './join';
import type { RelationRequest, RelationValue } from './resolver-types';

/**
 * Serves the field from the parent's copy when the selection fits it (no query); otherwise joins the
 * documents through the field's @join shape (batched, and free for documents already loaded).
 */
export function resolveSnapshot(shape: SnapshotShape, request: RelationRequest): RelationValue {
  const copy = readPath(request.parent, shape.path);
  const entries = (copy === undefined || copy === null ? [] : Array.isArray(copy) ? copy : [copy]).filter(isEntry);
  const { context, info, field } = request;
  const requested = requestedList(field, request.args);
  const missing = context.snapshotMissingFields(info, shape, field.targetType, requested);
  if (missing.length === 0) {
    request.cost.snapshotHits(entries.length);
    const copies = entries.map((entry) => toStoredDocument(request, shape, entry));
    const documents = asksForList(requested) ? filterAndSort(copies, requested.filters, requested.sort) : copies;
    return field.isList ? documents : (documents[0] ?? null);
  }
  request.cost.snapshotMisses(entries.length, missing);
  const keys = entries.map((entry) => entry[shape.key]);
  const projection = context.projectionFor(info, field.targetType);
  return joinByKey(shape.fallback, request, field.isList ? keys : keys[0], projection);
}

function isEntry(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Rebuilds a copy as the target document would be stored, so the target's field resolvers read it unchanged. */
function toStoredDocument(request: RelationRequest, shape: SnapshotShape, entry: Record<string, unknown>): StoredDocument {
  const target = request.context.storageMap.types.get(shape.fallback.targetType);
  if (!target) throw new InvariantError(`no storage for ${shape.fallback.targetType}`);
  const document: StoredDocument = { _id: entry[shape.key] };
  for (const name of shape.fields) {
    const storage = target.fields.get(name);
    if (storage?.kind !== 'stored') throw new InvariantError(`${request.field.coordinate}: snapshot field ${name} is not stored`);
    if (storage.path !== '_id') writePath(document, storage.path, entry[name]);
  }
  return document;
}
