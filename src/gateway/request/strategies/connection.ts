import { isKeyValue, keyString } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { toConnection, type ConnectionValue } from '../../operation/planning/connection-page';
import { checkCursorParent } from '../../operation/planning/cursor';
import type { JoinShape } from '../../startup/storage-map/storage-map-types';
import { loadChildren } from './join';
import type { RelationRequest } from './resolver-types';

/**
 * A relation returning a connection: one parent's page of a reverse join, read with one item more than
 * `first` (hasNextPage), through the loader every parent of the level shares, so still ONE aggregate
 * per level. `totalCount`, when selected, goes to the level's count loader, whose count of every
 * parent's children goes out in the same command as the page (the collection's batcher). Nothing reads
 * the page when only totalCount is asked.
 */
export function resolveConnection(shape: JoinShape, request: RelationRequest): Promise<ConnectionValue> | ConnectionValue {
  const planned = request.context.reverseJoinPage(request.info, request.field, shape, request.args);
  const page = planned.connection!;
  const parentKey = readPath(request.parent, shape.localField);
  if (!isKeyValue(parentKey)) return toConnection(page, [], undefined, 0);
  const parent = keyString(parentKey);
  checkCursorParent(page.after, parent, request.field.coordinate);
  const selection = request.context.connectionSelection(request.info);
  request.cost.keys(1);
  const projection = request.context.projectionFor(request.info, shape.targetType);
  const documents = selection.page ? loadChildren(shape, request, planned, parentKey, projection, page.request.filter) : Promise.resolve([]);
  const totalCount = selection.totalCount
    ? request.context.loaders
        .countByReference({ collection: shape.collection, foreignField: shape.foreignField, filter: planned.filter, filterSignature: JSON.stringify(planned.filter ?? null) })
        .load({ parentKey, field: request.field.coordinate })
    : undefined;
  return Promise.all([documents, totalCount]).then(([children, count]) => toConnection(page, children, parent, count));
}
