import type { Document } from 'bson';

/**
 * The values a dotted path reaches in a document, the way MongoDB's index key generation and
 * `distinct` see them: a field name applied to an array reaches into every element (so `authors.id`
 * finds the `id` of each author), and a numeric segment also addresses one array element.
 */
export interface PathValues {
  /** Leaf values, with arrays at the leaf expanded into their elements. */
  readonly values: unknown[];
  /** Arrays found at the leaf, unexpanded (an equality on a whole array must find them too). */
  readonly arrays: unknown[][];
  /** Whether some branch of the path ended without a value. */
  missing: boolean;
}

export function valuesAtPath(doc: Document, path: readonly string[]): PathValues {
  const found: PathValues = { values: [], arrays: [], missing: false };
  collect(doc, path, 0, found);
  return found;
}

function collect(value: unknown, path: readonly string[], depth: number, found: PathValues): void {
  if (depth === path.length) {
    if (value === undefined) found.missing = true;
    else if (Array.isArray(value)) {
      found.arrays.push(value);
      found.values.push(...value);
    } else found.values.push(value);
    return;
  }
  const segment = path[depth]!;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(segment) && Number(segment) < value.length) {
      collect(value[Number(segment)], path, depth + 1, found);
    }
    for (const element of value) {
      if (isSubdocument(element)) collect(element[segment], path, depth + 1, found);
    }
    if (value.length === 0) found.missing = true;
    return;
  }
  if (isSubdocument(value)) collect(value[segment], path, depth + 1, found);
  else found.missing = true;
}

function isSubdocument(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return false;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return tag === undefined;
}
