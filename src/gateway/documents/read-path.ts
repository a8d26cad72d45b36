/**
 * Reads a dot-notation path from a stored document the way MongoDB does: a path that crosses an
 * array maps over its elements (`authors.id` on `{authors: [{id: 1}, {id: 2}]}` is `[1, 2]`).
 */
export function readPath(document: unknown, path: string): unknown {
  return readSegments(document, segmentsOf(path), 0);
}

/**
 * The values a dot-notation path ends at in a stored document, one for each branch a crossed array
 * opens: `authors.ids` on `{authors: [{ids: [1]}, {ids: [2]}]}` is `[[1], [2]]`, where readPath
 * gives the same; `ids` on `{ids: [[1]]}` is `[[[1]]]`, one value, where readPath's `[[1]]` cannot
 * tell the two apart. An array inside an array the path crosses opens no branch (`authors.ids` on
 * `{authors: [[{ids: [1]}]]}` ends nowhere), as MongoDB's query matcher does not look into it.
 */
export function readLeaves(document: unknown, path: string): unknown[] {
  const leaves: unknown[] = [];
  someLeaf(document, path, gatherLeaf, leaves);
  return leaves;
}

function gatherLeaf(leaf: unknown, leaves: unknown[]): boolean {
  leaves.push(leaf);
  return false;
}

/**
 * Whether `test(leaf, argument)` holds for one of the values readLeaves gives, tried as the walk
 * reaches each, none gathered (`argument` spares a caller a closure per document).
 */
export function someLeaf<A>(document: unknown, path: string, test: (leaf: unknown, argument: A) => boolean, argument: A): boolean {
  return someLeafFrom(document, segmentsOf(path), 0, test, argument);
}

function someLeafFrom<A>(value: unknown, segments: readonly string[], index: number, test: (leaf: unknown, argument: A) => boolean, argument: A): boolean {
  if (index === segments.length) return value !== undefined && test(value, argument);
  if (Array.isArray(value)) {
    // As MongoDB's matcher, down the path: an array's documents, not an array inside it.
    for (const element of value) if (!Array.isArray(element) && someLeafFrom(element, segments, index, test, argument)) return true;
    return false;
  }
  if (value === null || typeof value !== 'object') return false;
  return someLeafFrom(ownValue(value as Record<string, unknown>, segments[index]!), segments, index + 1, test, argument);
}

/** Whether setting one of the paths changes the other (the same path, or one inside the other). */
export function pathsOverlap(a: string, b: string): boolean {
  return isAtOrUnder(a, b) || isAtOrUnder(b, a);
}

/** Whether the dotted `path` is `prefix` or lies inside it (`a.b` is at or under `a`, `ab` is not). */
export function isAtOrUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`);
}

/**
 * The gateway's paths come from the schema and the storage map, so each is split once; the cache is
 * bounded for callers that read paths found in data (schema inference).
 */
const splitPaths = new Map<string, readonly string[]>();
const MAX_SPLIT_PATHS = 10_000;

/** A dot-notation path's names, split once per path (the split is cached). */
export function segmentsOf(path: string): readonly string[] {
  let segments = splitPaths.get(path);
  if (!segments) {
    segments = path.split('.');
    if (splitPaths.size < MAX_SPLIT_PATHS) splitPaths.set(path, segments);
  }
  return segments;
}

function readSegments(value: unknown, segments: readonly string[], index: number): unknown {
  if (index === segments.length) return value;
  if (Array.isArray(value)) {
    const values: unknown[] = [];
    for (const element of value) {
      const found = readSegments(element, segments, index);
      if (found === undefined) continue;
      if (Array.isArray(found) && index + 1 < segments.length) values.push(...found);
      else values.push(found);
    }
    return values;
  }
  if (value === null || typeof value !== 'object') return undefined;
  return readSegments(ownValue(value as Record<string, unknown>, segments[index]!), segments, index + 1);
}

/**
 * `object[name]` when the object holds it itself: never what it inherits (a document without a field
 * `constructor` or `valueOf` has none, and an ObjectId's `id` getter is no field of it).
 */
export function ownValue(object: Readonly<Record<string, unknown>>, name: string): unknown {
  const value = object[name];
  return value === undefined || Object.hasOwn(object, name) ? value : undefined;
}

/** Writes `value` at a dot-notation path, creating plain objects on the way (no arrays). */
export function writePath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = segmentsOf(path);
  let current = target;
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    const next = current[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[segments[segments.length - 1]!] = value;
}
