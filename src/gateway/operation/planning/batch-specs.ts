import type { StoredDocument } from '../../documents/stored-document';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import type { CounterRule } from '../../startup/write-model/write-model-types';

/**
 * The batches a level's reads share, as the plan names them: what one aggregate of a loader holds in
 * common, and the key that puts two loads in the same batch. The estimate counts round trips by these
 * keys, and the request's loaders batch by them (request/loaders).
 */

/** Children per reply of a reverse join without a per-parent limit: more come by getMore (the estimate counts those). */
export const UNBOUNDED_REVERSE_JOIN_BATCH = 10_000;

/** What every load of one reverse-join loader shares: the query except the parent keys. */
export interface ReverseJoinSpec {
  readonly collection: string;
  /** The children's path holding the parent's key (or keys: a child listing several is a child of each). */
  readonly foreignField: string;
  readonly sort: readonly SortKey[];
  /** Children per parent; undefined: all of them. */
  readonly perParent: number | undefined;
  /** Extra condition on children (a page: after a cursor, before a time); built from typed values only. */
  readonly pageFilter: StoredDocument | undefined;
  /** Identifies `pageFilter` in the registry key. */
  readonly pageSignature: string;
}

export function reverseJoinSpecKey(spec: Omit<ReverseJoinSpec, 'pageFilter'>): string {
  const sort = spec.sort.map((key) => `${key.direction === 1 ? '' : '-'}${key.path}`).join(',');
  return `${spec.collection}|${spec.foreignField}|${sort}|${spec.perParent ?? '*'}|${spec.pageSignature}`;
}

/** What every count of one loader shares: the children's collection, their parent-key path and filter. */
export interface CountSpec {
  readonly collection: string;
  readonly foreignField: string;
  /** The list's filter arguments as one condition (built from typed values only); undefined: none. */
  readonly filter: StoredDocument | undefined;
  /** Identifies `filter` in the registry key. */
  readonly filterSignature: string;
}

export function countSpecKey(spec: CountSpec): string {
  return `${spec.collection}|${spec.foreignField}|${spec.filterSignature}`;
}

/** How a `@counter` field is counted by query instead of read: what it counts, and the parent's key for it. */
export interface CounterCount {
  /** The counter's `Type.field`. */
  readonly coordinate: string;
  /** The counter's stored path. */
  readonly path: string;
  /** The parent path whose value the counted documents hold. */
  readonly parentKey: string;
  readonly spec: CountSpec;
}

/**
 * The count a counter stands for, as one count aggregate per level: the children pointing at the parent,
 * or the truth side of an inverse (whose path may list several parents: `authors.id`).
 */
export function counterCount(rule: CounterRule): CounterCount {
  const { source } = rule;
  const spec: CountSpec =
    source.kind === 'children'
      ? { collection: source.childCollection, foreignField: source.childKey, filter: undefined, filterSignature: 'null' }
      : { collection: source.inverse.truthCollection, foreignField: source.inverse.truthPath, filter: undefined, filterSignature: 'null' };
  return { coordinate: rule.coordinate, path: rule.path, parentKey: source.kind === 'children' ? source.parentKey : '_id', spec };
}
