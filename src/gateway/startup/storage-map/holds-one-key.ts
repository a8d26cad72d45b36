import type { StorageMap, TypeStorage } from './storage-map-types';

/**
 * Whether `path` of a `type` document may hold one key: no field the type declares says it holds
 * several (a list field there, a list reference keyed there, an embedded list it runs through). A path
 * the SDL does not declare (`postId` behind `Post.comments`) is taken as the reverse join takes it.
 */
export function holdsOneKey(type: TypeStorage, path: string): boolean {
  const head = path.split('.')[0]!;
  return ![...type.fields.values()].some((field) => {
    if (field.kind === 'stored') return field.valueType.isList && (field.path === path || field.path === head);
    const keyedHere = field.shapes.join?.direction === 'byKey' && field.shapes.join.localField === path;
    const throughEmbeddedList = field.shapes.embedded?.path === head && field.isList;
    return field.isList && (keyedHere || throughEmbeddedList);
  });
}

/**
 * The type over `collection` whose documents may hold several keys at `path` (holdsOneKey): the writes
 * that keep a counter, a total or a bounded array follow every type writing there. Undefined when none.
 */
export function typeListingKeys(storageMap: StorageMap, collection: string, path: string): string | undefined {
  return [...storageMap.types.values()].find((type) => type.collection === collection && !holdsOneKey(type, path))?.typeName;
}
