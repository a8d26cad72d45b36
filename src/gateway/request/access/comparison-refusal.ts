import type { StoredDocument } from '../../documents/stored-document';
import { forbidden } from '../../errors/public-error-code';

/**
 * Under access rules, what ordering or filtering `typeName` documents by the stored `path` would show
 * the viewer that it may not see, worded to follow "sorts by" / "filters by"; undefined when nothing.
 */
export type ComparisonRefusal = (typeName: string, path: string) => string | undefined;

/**
 * Refuses (FORBIDDEN) a hand-written read's MongoDB filter that compares what the viewer may not see:
 * the documents it matches, or a NOT_FOUND, show the values it compared.
 */
export function refuseHiddenFilter(refusal: ComparisonRefusal | undefined, coordinate: string, typeName: string, filter: StoredDocument): void {
  for (const path of refusal ? comparedPaths(filter) : []) {
    const shown = refusal!(typeName, path);
    if (shown) throw forbidden(`${coordinate} filters by ${shown}; filter by a field the role reads`);
  }
}

/** The stored paths a MongoDB filter compares, through `$and`, `$or` and `$nor`. */
function comparedPaths(filter: StoredDocument): string[] {
  return Object.entries(filter).flatMap(([key, value]) => {
    if (!key.startsWith('$')) return [key];
    return Array.isArray(value) ? value.flatMap((part) => (typeof part === 'object' && part !== null ? comparedPaths(part as StoredDocument) : [])) : [];
  });
}
