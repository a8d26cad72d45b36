import type { TypeStorage } from './storage-map-types';

/** Where a field's data is kept in its type's documents: its path, a reference's key, an embedded or copied value's path. */
export function storedPathsOf(storage: TypeStorage, fieldName: string): string[] {
  const field = storage.fields.get(fieldName);
  if (!field) return [];
  if (field.kind === 'stored') return [field.path];
  const { join, embedded, snapshot } = field.shapes;
  return [...(join?.direction === 'byKey' ? [join.localField] : []), ...(embedded ? [embedded.path] : []), ...(snapshot ? [snapshot.path] : [])];
}

/** Every path a document of the type keeps its fields' data at. */
export function allStoredPathsOf(storage: TypeStorage): string[] {
  return [...storage.fields.keys()].flatMap((fieldName) => storedPathsOf(storage, fieldName));
}
