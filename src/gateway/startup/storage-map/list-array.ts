import type { RelationField } from './storage-map-types';

/** What the parent's array behind a list field holds. */
export type ListArrayContent = 'embedded' | 'references' | 'snapshots';

/** The array in the parent document that a list relation reads whole. */
export interface ListArray {
  readonly path: string;
  readonly holds: ListArrayContent;
  /** The most entries it keeps: an embedded copy of a limited reverse join (`Post.recentComments`, 3). */
  readonly limit: number | undefined;
}

/**
 * The array in the parent a list field reads whole, where it has one: its snapshot copies, else its
 * embedded array, else its by-key references. Where a field declares several, they are one array
 * (`Book.authors` copies into `authors` the references it joins by `authors.id`), read at the first path.
 */
export function listArrayOf(field: RelationField): ListArray | undefined {
  if (!field.isList) return undefined;
  const { embedded, join, snapshot } = field.shapes;
  if (snapshot) return { path: snapshot.path, holds: 'snapshots', limit: undefined };
  if (embedded) return { path: embedded.path, holds: 'embedded', limit: join?.direction === 'byReference' ? join.limit : undefined };
  if (join?.direction === 'byKey') return { path: join.localField, holds: 'references', limit: undefined };
  return undefined;
}

/**
 * Every array in the parent that a read of the list field can take, whichever strategy reads it: its
 * copies (snapshot, embedded) and its by-key references. They may differ in length while a copy is
 * being backfilled, so what bounds the field's entries is the longest of them.
 */
export function listArrayPathsOf(field: RelationField): string[] {
  if (!field.isList) return [];
  const { embedded, join, snapshot } = field.shapes;
  const paths = [snapshot?.path, embedded?.path, join?.direction === 'byKey' ? join.localField : undefined];
  return [...new Set(paths.filter((path): path is string => path !== undefined))];
}
