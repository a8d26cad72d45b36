import type { ResponsePath } from 'graphql';

/** A response path as a string (`people.3.owner`): equal for equal paths, whichever objects hold them. */
export function responsePathKey(path: ResponsePath): string {
  let key = String(path.key);
  for (let above = path.prev; above !== undefined; above = above.prev) key = `${String(above.key)}.${key}`;
  return key;
}

/** The keys of the paths above `path` (its ancestors), the root field's first. */
export function ancestorPathKeys(path: ResponsePath): string[] {
  const segments: string[] = [];
  for (let above = path.prev; above !== undefined; above = above.prev) segments.push(String(above.key));
  const keys: string[] = [];
  let key = '';
  for (let index = segments.length - 1; index >= 0; index--) {
    key = key === '' ? segments[index]! : `${key}.${segments[index]!}`;
    keys.push(key);
  }
  return keys;
}
