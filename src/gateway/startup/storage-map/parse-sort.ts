import type { SortKey } from './storage-map-types';

/**
 * Parses a `@join(sort:)` value: comma-separated paths, `-` for descending (`"-createdAt"`, `"a,-b"`).
 * `_id` is appended as the final tie-breaker, in the direction of the last key, so every order is total.
 * Returns an error message instead of throwing so the caller can name `Type.field`.
 */
export function parseSort(raw: string): SortKey[] | string {
  const parts = raw.split(',').map((part) => part.trim());
  const keys: SortKey[] = [];
  for (const part of parts) {
    const descending = part.startsWith('-');
    const path = descending ? part.slice(1) : part.replace(/^\+/, '');
    if (!/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/.test(path)) return `sort "${raw}" has an invalid path "${part}"; use paths like "-createdAt" or "name,-_id"`;
    if (keys.some((key) => key.path === path)) return `sort "${raw}" names "${path}" twice`;
    keys.push({ path, direction: descending ? -1 : 1 });
  }
  return withIdTieBreaker(keys);
}

/** `keys`, ending with `_id` (in the last key's direction) unless they name it, so that the order is total. */
export function withIdTieBreaker(keys: readonly SortKey[]): SortKey[] {
  if (keys.some((key) => key.path === '_id')) return [...keys];
  return [...keys, { path: '_id', direction: keys.at(-1)?.direction ?? 1 }];
}

export function sortDocument(keys: readonly SortKey[]): Record<string, 1 | -1> {
  const sort: Record<string, 1 | -1> = {};
  for (const key of keys) sort[key.path] = key.direction;
  return sort;
}
