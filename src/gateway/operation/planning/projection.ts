/**
 * A projection: the stored paths a selection needs, each whole (`1`) or as the first `n` elements of an
 * array (`{ slice: n }`, from an embedded field's `first`). Values are immutable; every operation returns a new one.
 */
export type ProjectionEntry = 1 | { readonly slice: number };
export type Projection = ReadonlyMap<string, ProjectionEntry>;

export function projectionOf(entries: Iterable<readonly [string, ProjectionEntry]>): Projection {
  const merged = new Map<string, ProjectionEntry>();
  for (const [path, entry] of entries) merged.set(path, mergeEntry(merged.get(path), entry));
  return normalize(merged);
}

export function mergeProjections(projections: Iterable<Projection>): Projection {
  // The loads of one batch mostly share one projection object: merge each distinct one once.
  const distinct = new Set(projections);
  if (distinct.size === 1) return distinct.values().next().value!;
  const all: Array<readonly [string, ProjectionEntry]> = [];
  for (const projection of distinct) all.push(...projection);
  return projectionOf(all);
}

function mergeEntry(a: ProjectionEntry | undefined, b: ProjectionEntry): ProjectionEntry {
  if (a === undefined) return b;
  if (a === 1 || b === 1) return 1;
  return { slice: Math.max(a.slice, b.slice) };
}

/** MongoDB rejects `a` together with `a.b` (path collision): the wider path wins, whole. */
function normalize(entries: Map<string, ProjectionEntry>): Projection {
  const paths = [...entries.keys()].sort();
  const result = new Map<string, ProjectionEntry>();
  for (const path of paths) {
    const covering = [...result.keys()].find((kept) => path.startsWith(`${kept}.`));
    if (covering !== undefined) {
      if (result.get(covering) !== 1) result.set(covering, 1);
      continue;
    }
    result.set(path, entries.get(path)!);
  }
  return result;
}

/** Whether a document fetched with `fetched` has every path `needed` asks for. */
export function covers(fetched: Projection, needed: Projection): boolean {
  for (const [path, entry] of needed) {
    if (path === '_id') continue;
    const exact = fetched.get(path);
    if (exact !== undefined && (exact === 1 || (entry !== 1 && exact.slice >= entry.slice))) continue;
    const wider = [...fetched].some(([kept, keptEntry]) => keptEntry === 1 && path.startsWith(`${kept}.`));
    if (!wider) return false;
  }
  return true;
}

/** The `projection` option of `find`. */
export function toFindProjection(projection: Projection): Record<string, 1 | { $slice: number }> {
  const result: Record<string, 1 | { $slice: number }> = {};
  for (const [path, entry] of projection) result[path] = entry === 1 ? 1 : { $slice: entry.slice };
  return result;
}

/** The same projection as an aggregation `$project` stage body. */
export function toProjectStage(projection: Projection): Record<string, 1 | { $slice: [string, number] }> {
  const result: Record<string, 1 | { $slice: [string, number] }> = {};
  for (const [path, entry] of projection) result[path] = entry === 1 ? 1 : { $slice: [`$${path}`, entry.slice] };
  return result;
}
