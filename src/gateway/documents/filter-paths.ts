/**
 * The stored paths a MongoDB filter reads: a collection validator (query operators, `$expr`,
 * `$jsonSchema`) or an index's `partialFilterExpression`. Over-inclusive where it cannot tell (any
 * `"$path"` string inside `$expr` counts), as what it serves is a warning that a refusal may tell a
 * value.
 */
export function filterPaths(filter: unknown): string[] {
  const paths = new Set<string>();
  collectQuery(filter, '', paths);
  return [...paths];
}

function collectQuery(filter: unknown, prefix: string, paths: Set<string>): void {
  if (Array.isArray(filter)) {
    for (const clause of filter) collectQuery(clause, prefix, paths);
    return;
  }
  if (typeof filter !== 'object' || filter === null) return;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$expr') collectExpression(value, paths);
    else if (key === '$jsonSchema') collectSchema(value, prefix, paths);
    else if (key === '$and' || key === '$or' || key === '$nor') collectQuery(value, prefix, paths);
    else if (!key.startsWith('$')) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      paths.add(path);
      // `{ items: { $elemMatch: { sku: … } } }` reads `items.sku` too.
      if (typeof value === 'object' && value !== null && '$elemMatch' in value) collectQuery((value as { $elemMatch: unknown }).$elemMatch, path, paths);
    }
  }
}

/** Every field reference in an aggregation expression: `"$path"`, `"$$ROOT.path"`, `{ $getField: "path" }` (not other `"$$variable"`s). */
function collectExpression(expression: unknown, paths: Set<string>): void {
  if (typeof expression === 'string') {
    const root = /^\$\$(?:ROOT|CURRENT)\.(.+)$/.exec(expression);
    if (root) paths.add(root[1]!);
    else if (expression.startsWith('$') && !expression.startsWith('$$')) paths.add(expression.slice(1));
    return;
  }
  if (typeof expression === 'object' && expression !== null && '$getField' in expression) {
    const named = (expression as { $getField: unknown }).$getField;
    const field = typeof named === 'string' ? named : typeof named === 'object' && named !== null ? (named as { field?: unknown }).field : undefined;
    if (typeof field === 'string') paths.add(field);
  }
  if (Array.isArray(expression)) {
    for (const item of expression) collectExpression(item, paths);
    return;
  }
  if (typeof expression === 'object' && expression !== null) for (const value of Object.values(expression)) collectExpression(value, paths);
}

/** The properties a `$jsonSchema` names (with `required` and `dependencies`), nested objects, array items, `not` and branches included. */
function collectSchema(schema: unknown, prefix: string, paths: Set<string>): void {
  if (typeof schema !== 'object' || schema === null) return;
  const { properties, required, items, dependencies } = schema as { properties?: unknown; required?: unknown; items?: unknown; dependencies?: unknown };
  const at = (name: string) => (prefix === '' ? name : `${prefix}.${name}`);
  if (Array.isArray(required)) for (const name of required) if (typeof name === 'string') paths.add(at(name));
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties)) {
      paths.add(at(name));
      collectSchema(property, at(name), paths);
    }
  }
  if (items !== undefined) collectSchema(items, prefix, paths);
  if (typeof dependencies === 'object' && dependencies !== null) {
    for (const [name, needs] of Object.entries(dependencies)) {
      paths.add(at(name));
      if (Array.isArray(needs)) for (const needed of needs) if (typeof needed === 'string') paths.add(at(needed));
      else collectSchema(needs, prefix, paths);
    }
  }
  collectSchema((schema as { not?: unknown }).not, prefix, paths);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = (schema as Record<string, unknown>)[key];
    if (Array.isArray(branches)) for (const branch of branches) collectSchema(branch, prefix, paths);
  }
}
