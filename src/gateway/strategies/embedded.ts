import { validateFirst } from '../planning/page-request';
import type { EmbeddedShape } from '../storage-map/storage-map-types';
import { readPath } from '../documents/read-path';
import type { RelationRequest, RelationValue } from './resolver-types';

/** Reads the related data from the parent document: no query. `first` was already pushed down as `$slice`. */
export function resolveEmbedded(shape: EmbeddedShape, request: RelationRequest): RelationValue {
  const value = readPath(request.parent, shape.path);
  if (!request.field.isList) return value ?? null;
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  if (!request.field.pageArguments.first) return list;
  const first = validateFirst(request.args.first);
  return first === undefined ? list : list.slice(0, first);
}
