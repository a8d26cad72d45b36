import { isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import { anchoredFilter, pageAfterAnchor } from '../../operation/planning/page-request';
import type { ReverseJoinPage } from '../../operation/planning/reverse-join-page';
import { filterAndSort } from '../../operation/planning/in-memory-list';
import { allOf } from '../../operation/planning/list-filter';
import { mergeProjections, projectionOf, type Projection } from '../../operation/planning/projection';
import { asksForList } from '../../operation/planning/requested-list';
import type { JoinShape } from '../../startup/storage-map/storage-map-types';
import type { RelationRequest, RelationValue } from './resolver-types';

/**
 * Application-side join through the request's DataLoaders. Loads are issued synchronously so that every
 * parent of a level lands in the same batch (one round trip per level).
 */
export function resolveJoin(shape: JoinShape, request: RelationRequest): RelationValue {
  const { context, info } = request;
  request.cost.selection(context.selectedFields(info, shape.targetType, request.requested));
  const projection = context.projectionFor(info, shape.targetType);
  return shape.direction === 'byKey' ? joinByKey(shape, request, readPath(request.parent, shape.localField), projection) : joinByReference(shape, request, projection);
}

/** Forward join: the parent holds the key, or an array of keys whose order the result keeps. */
export function joinByKey(shape: JoinShape, request: RelationRequest, keyValue: unknown, projection: Projection): RelationValue {
  const loader = request.context.loaders.byKey(shape.collection, shape.foreignField);
  const { path } = request.info;
  const field = request.field.coordinate;
  if (!request.field.isList) {
    const key = Array.isArray(keyValue) ? keyValue[0] : keyValue;
    if (!isKeyValue(key)) return null;
    request.cost.keys(1);
    return loader.load({ key, projection, path, field, cost: request.cost, isReference: true });
  }
  const keys = (Array.isArray(keyValue) ? keyValue : [keyValue]).filter(isKeyValue);
  request.cost.keys(keys.length);
  // Filters and an order apply to the documents the shared batch returns: the keys bound them, and the
  // batch stays shared with every other load of the level.
  const { requested } = request;
  const listProjection = requested.paths.length === 0 ? projection : mergeProjections([projection, projectionOf(requested.paths.map((listPath) => [listPath, 1] as const))]);
  if (keys.length === 0) return [];
  return loader.loadMany({ keys, projection: listProjection, path, field, cost: request.cost, isReference: true }).then((documents) => {
    const found = documents.filter((document): document is StoredDocument => document !== null);
    return asksForList(requested) ? filterAndSort(found, requested.filters, requested.sort) : found;
  });
}

/**
 * Reverse join: children point at the parent; one aggregate serves every parent of the level. A page
 * `after` an item first reads that item (its sort values, and its parent key, which must be this
 * parent's) through the `_id` loader: every parent of the level asks for it in the same batch (one read,
 * or none when it is cached with those paths), and every parent's children load resumes when that batch
 * answers, in the same microtask drain — still ONE aggregate for the level.
 */
function joinByReference(shape: JoinShape, request: RelationRequest, projection: Projection): RelationValue {
  const parentKey = readPath(request.parent, shape.localField);
  const planned = request.context.reverseJoinPage(request.info, request.field, shape, request.args);
  const { page } = planned;
  if (!isKeyValue(parentKey) || page.limit === 0) return request.field.isList ? [] : null;
  request.cost.keys(1);
  const children =
    page.anchor === undefined
      ? loadChildren(shape, request, planned, parentKey, projection, page.filter)
      : request.context.loaders
          .byKey(shape.collection, '_id')
          .load({ key: page.anchor.id, projection: page.anchor.projection, path: request.info.path, field: request.field.coordinate, cost: request.cost })
          .then(async (anchor) => {
            const documents = await loadChildren(shape, request, planned, parentKey, projection, anchoredFilter(page, anchor, shape.targetType, { coordinate: request.field.coordinate, key: parentKey }));
            const inBound = page.anchor?.inBound;
            return inBound === undefined || anchor === null ? documents : pageAfterAnchor(page, inBound, anchor, documents);
          });
  return request.field.isList ? children : children.then((documents) => documents[0] ?? null);
}

/** One parent's page of a reverse join, through the loader every parent of the level shares. */
export function loadChildren(
  shape: JoinShape,
  request: RelationRequest,
  planned: ReverseJoinPage,
  parentKey: unknown,
  projection: Projection,
  pageFilter: StoredDocument | undefined,
): Promise<StoredDocument[]> {
  const spec = () => ({
    collection: shape.collection,
    foreignField: shape.foreignField,
    sort: planned.sort,
    perParent: planned.page.limit,
    pageFilter: allOf([planned.filter, pageFilter]),
    pageSignature: planned.signature,
  });
  const { loaders } = request.context;
  // Without a parent's own page filter, the planned page (one per field and request) decides the spec.
  const loader = pageFilter === undefined ? loaders.byReferenceOnce(planned, spec) : loaders.byReference(spec());
  return loader.load({ parentKey, projection, field: request.field.coordinate, cost: request.cost });
}
