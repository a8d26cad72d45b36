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
  if (!refusal) return;
  const compared = comparedPaths(filter);
  if ('opaque' in compared) throw forbidden(`${coordinate} filters with ${compared.opaque}, which docjoin cannot check against the role's rules; compare the fields in a plain filter`);
  for (const path of compared.paths) {
    const shown = refusal(typeName, path);
    if (shown) throw forbidden(`${coordinate} filters by ${shown}; filter by a field the role reads`);
  }
}

/** Operators inside `$expr` that reach a field by a name docjoin cannot read off the expression, or run code. */
const OPAQUE_EXPRESSIONS = new Set(['$getField', '$setField', '$function', '$accumulator']);

/**
 * The stored paths a MongoDB filter compares, through `$and`, `$or` and `$nor`, and the fields an `$expr`
 * names (`"$salary"`); `opaque` names an operator whose fields cannot be told (`$where`, `$jsonSchema`,
 * `$text`, or `$getField` in an `$expr`).
 */
function comparedPaths(filter: StoredDocument): { paths: string[] } | { opaque: string } {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (!key.startsWith('$')) {
      paths.push(key);
      continue;
    }
    if (key === '$comment') continue;
    if (key === '$expr') {
      const named = expressionPaths(value);
      if ('opaque' in named) return named;
      paths.push(...named.paths);
      continue;
    }
    if (!['$and', '$or', '$nor'].includes(key) || !Array.isArray(value)) return { opaque: key };
    for (const part of value) {
      if (typeof part !== 'object' || part === null) continue;
      const inner = comparedPaths(part as StoredDocument);
      if ('opaque' in inner) return inner;
      paths.push(...inner.paths);
    }
  }
  return { paths };
}

/** Variables that hold the whole document: `"$$ROOT.salary"` names the field `salary`. */
const DOCUMENT_VARIABLES = ['$$ROOT', '$$CURRENT'];

/**
 * The field paths an aggregation expression names (`"$a.b"`, `"$$ROOT.a.b"`; not other variables,
 * `"$$x"`). The whole document as a value (`"$$ROOT"`, which `$let` could rename) is opaque.
 */
function expressionPaths(expression: unknown): { paths: string[] } | { opaque: string } {
  if (typeof expression === 'string') {
    const variable = DOCUMENT_VARIABLES.find((name) => expression === name || expression.startsWith(`${name}.`));
    if (variable === expression) return { opaque: `${variable} in $expr` };
    if (variable !== undefined) return { paths: [expression.slice(variable.length + 1)] };
    return { paths: expression.startsWith('$') && !expression.startsWith('$$') ? [expression.slice(1)] : [] };
  }
  if (typeof expression !== 'object' || expression === null) return { paths: [] };
  const paths: string[] = [];
  for (const [key, value] of Array.isArray(expression) ? expression.map((part, index) => [String(index), part] as const) : Object.entries(expression)) {
    if (OPAQUE_EXPRESSIONS.has(key)) return { opaque: `${key} in $expr` };
    if (key === '$literal') continue;
    const inner = expressionPaths(value);
    if ('opaque' in inner) return inner;
    paths.push(...inner.paths);
  }
  return { paths };
}
