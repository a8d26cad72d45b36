import type { StoredDocument } from '../../documents/stored-document';
import { filterAndSort } from '../../operation/planning/in-memory-list';
import { validateFirst } from '../../operation/planning/page-request';
import { asksForList } from '../../operation/planning/requested-list';
import type { EmbeddedShape } from '../../startup/storage-map/storage-map-types';
import { readPath } from '../../documents/read-path';
import type { RelationRequest, RelationValue } from './resolver-types';

/**
 * Reads the related data from the parent document: no query. `first` was already pushed down as
 * `$slice`, unless filters or an order ask for the whole array, which is then filtered, ordered and cut here.
 */
export function resolveEmbedded(shape: EmbeddedShape, request: RelationRequest): RelationValue {
  const value = readPath(request.parent, shape.path);
  if (!request.field.isList) return value ?? null;
  // Nothing stored: null, as graphql-js answers a list the document lacks; an empty list where the list may not be null.
  if (value === undefined || value === null) return request.field.nonNull ? [] : null;
  const stored = Array.isArray(value) ? value : [value];
  const { requested } = request;
  const list = asksForList(requested) ? filterAndSort(stored as StoredDocument[], requested.filters, requested.sort) : stored;
  if (!request.field.pageArguments.first) return list;
  const first = validateFirst(request.args.first, request.field.pageArguments.firstDefault);
  return first === undefined ? list : list.slice(0, first);
}
