import { listSort, type ReadStrategy, type RelationField, type SnapshotShape, type SortKey, type StorageMap } from '../../startup/storage-map/storage-map-types';
import { conditionFilters, type RootFilter } from './list-filter';

/** The filters and the order a request asks of a relation list (none when it gives no such argument). */
export interface RequestedList {
  readonly filters: readonly RootFilter[];
  /** The `orderBy` choice; undefined keeps the list's own order (a by-key join: the order of its keys). */
  readonly sort: readonly SortKey[] | undefined;
  /** The stored paths the filters and the order read. */
  readonly paths: readonly string[];
}

/** A request that gives no filter and no order: shared, since a relation field resolves once per parent. */
const NOTHING_REQUESTED: RequestedList = Object.freeze({ filters: Object.freeze([]), sort: undefined, paths: Object.freeze([]) });

export function requestedList(field: RelationField, args: Readonly<Record<string, unknown>>): RequestedList {
  const filters = conditionFilters(field.listArguments.conditions, args);
  // Without an orderBy choice the list keeps its own order (undefined: nothing to sort here).
  const sort = listSort({ sort: undefined, orderBy: field.listArguments.orderBy }, args);
  if (filters.length === 0 && sort === undefined) return NOTHING_REQUESTED;
  const paths = [...new Set([...filters.flatMap((filter) => Object.keys(filter)), ...(sort ?? []).map((key) => key.path).filter((path) => path !== '_id')])];
  return { filters, sort, paths };
}

export function asksForList(requested: RequestedList): boolean {
  return requested.filters.length > 0 || requested.sort !== undefined;
}

/** Whether a snapshot's copies hold every path the request's filters and order read (else the join serves it). */
export function copiesServe(requested: RequestedList, shape: SnapshotShape, storageMap: StorageMap): boolean {
  return uncopiedFields(requested, shape, storageMap).length === 0;
}

/**
 * The target's fields that the request's filters and order read but a snapshot's copies lack (a path
 * no stored field of the target reads is named by its path).
 */
export function uncopiedFields(requested: RequestedList, shape: SnapshotShape, storageMap: StorageMap): string[] {
  return fieldNamesRead(requested, shape.fallback.targetType, storageMap).filter((name) => !shape.fields.includes(name));
}

/** The target's fields whose stored paths the filters and the order read (a path no field stores: the path itself). */
export function fieldNamesRead(requested: RequestedList, targetType: string, storageMap: StorageMap): string[] {
  if (!asksForList(requested)) return [];
  const target = storageMap.types.get(targetType);
  const names = requested.paths.map((path) => {
    for (const [name, field] of target?.fields ?? []) if (field.kind === 'stored' && field.path === path) return name;
    return path;
  });
  return [...new Set(names)];
}

/**
 * The snapshot's fields whose stored paths the request's filters and order read from each copy (none
 * stored at `_id`: the copy's key).
 */
export function copiedFieldsRead(requested: RequestedList, shape: SnapshotShape, storageMap: StorageMap): string[] {
  if (!asksForList(requested)) return [];
  const target = storageMap.types.get(shape.fallback.targetType);
  return shape.fields.filter((name) => {
    const field = target?.fields.get(name);
    return field?.kind === 'stored' && field.path !== '_id' && requested.paths.includes(field.path);
  });
}

/**
 * The strategy that answers this request: an embedded copy of a join (`Post.recentComments`, the newest
 * few) cannot answer a filter or another order, which need every child, so its join does.
 */
export function strategyForRequest(field: RelationField, strategy: ReadStrategy, requested: RequestedList): ReadStrategy {
  return strategy === 'embedded' && field.shapes.join !== undefined && asksForList(requested) ? 'join' : strategy;
}
