import type { StoredDocument } from '../../documents/stored-document';
import { InvariantError } from '../../errors/internal-errors';
import { digestOf } from './short-digest';

/**
 * A projection: the stored paths a selection needs, each whole (`1`) or as the first `n` elements of an
 * array (`{ slice: n }`, from an embedded field's `first`); and the relations read by `lookup`, each
 * under the name its `$lookup` stage puts the joined documents at (`{ lookup }`). A lookup's name with a
 * dot, `path.name`, reads for each element of the embedded array (or object) at `path`, which holds its
 * own documents under `name` (an element lookup). Values are immutable; every operation returns a new one.
 */
export type ProjectionEntry = 1 | { readonly slice: number } | { readonly lookup: LookupRead };
export type Projection = ReadonlyMap<string, ProjectionEntry>;

/** One `$lookup`: the documents of `from` whose `foreignField` equals the parent's `localField`. */
export interface LookupRead {
  readonly from: string;
  /** byKey: the parent holds the keys (its documents are matched to each element's); byReference: the documents hold the parent's. */
  readonly direction: 'byKey' | 'byReference';
  readonly localField: string;
  readonly foreignField: string;
  /** The stages after the key match: the page's filter, order and per-parent limit. */
  readonly page: readonly StoredDocument[];
  /** A single reference: an array key is matched by its first element only, the one the join reads. */
  readonly firstKeyOnly?: boolean;
  /** What each joined document keeps, its own lookups included. */
  readonly projection: Projection;
}

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
  if (isLookupEntry(a)) return mergeLookups(a.lookup, b);
  if (isLookupEntry(b)) return mergeLookups(b.lookup, a);
  if (a === 1 || b === 1) return 1;
  return { slice: Math.max(a.slice, b.slice) };
}

/** Two selections of one lookup (same name, same page) read what either needs of its documents. */
function mergeLookups(lookup: LookupRead, other: ProjectionEntry): ProjectionEntry {
  if (!isLookupEntry(other)) throw new InvariantError(`a $lookup's name is also a stored path (from ${lookup.from})`);
  const { from, localField, foreignField } = other.lookup;
  if (from !== lookup.from || localField !== lookup.localField || foreignField !== lookup.foreignField) throw new InvariantError(`two lookups share a name (from ${lookup.from} and ${from})`);
  return { lookup: { ...lookup, projection: mergeProjections([lookup.projection, other.lookup.projection]) } };
}

/**
 * MongoDB rejects `a` together with `a.b` (path collision): the wider path wins, whole. An element
 * lookup stays under it: its documents go to the elements the wider path keeps.
 */
function normalize(entries: Map<string, ProjectionEntry>): Projection {
  const paths = [...entries.keys()].sort();
  const result = new Map<string, ProjectionEntry>();
  for (const path of paths) {
    const entry = entries.get(path)!;
    const covering = [...result.keys()].find((kept) => path.startsWith(`${kept}.`) && !isLookupEntry(result.get(kept)!));
    if (covering !== undefined && !isLookupEntry(entry)) {
      if (result.get(covering) !== 1) result.set(covering, 1);
      continue;
    }
    result.set(path, entry);
  }
  return result;
}

export function isLookupEntry(entry: ProjectionEntry): entry is { readonly lookup: LookupRead } {
  return typeof entry === 'object' && 'lookup' in entry;
}

/** Where an element lookup (`path.name`) writes: the embedded path and the name in each element; undefined for a lookup of the document itself. */
export function elementLookupTarget(name: string): { readonly path: string; readonly as: string } | undefined {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? undefined : { path: name.slice(0, dot), as: name.slice(dot + 1) };
}

/** Whether a document fetched with `fetched` has every path `needed` asks for (and every lookup, with what it needs). */
export function covers(fetched: Projection, needed: Projection): boolean {
  for (const [path, entry] of needed) {
    if (path === '_id') continue;
    const exact = fetched.get(path);
    if (exact !== undefined && entryCovers(exact, entry)) continue;
    if (isLookupEntry(entry)) return false;
    const wider = [...fetched].some(([kept, keptEntry]) => keptEntry === 1 && path.startsWith(`${kept}.`));
    if (!wider) return false;
  }
  return true;
}

function entryCovers(fetched: ProjectionEntry, needed: ProjectionEntry): boolean {
  if (isLookupEntry(needed)) return isLookupEntry(fetched) && covers(fetched.lookup.projection, needed.lookup.projection);
  if (fetched === 1) return true;
  return needed !== 1 && 'slice' in fetched && fetched.slice >= needed.slice;
}

/** Whether reading with `projection` takes an aggregate (its `$lookup` stages), not a find. */
export function hasLookups(projection: Projection): boolean {
  for (const entry of projection.values()) if (isLookupEntry(entry)) return true;
  return false;
}

/** The `projection` option of `find`; a projection with lookups is read by an aggregate (projectStages). */
export function toFindProjection(projection: Projection): Record<string, 1 | { $slice: number }> {
  const result: Record<string, 1 | { $slice: number }> = {};
  for (const [path, entry] of projection) {
    if (isLookupEntry(entry)) throw new InvariantError(`a find cannot read the $lookup ${path}; read it with projectStages`);
    result[path] = entry === 1 ? 1 : { $slice: entry.slice };
  }
  return result;
}

/**
 * The same projection as an aggregation `$project` stage body, without its lookups (their `$lookup`
 * stages come after it and add them). A slice cuts only an array, as find's `$slice` does: a missing
 * field stays missing (an embedded copy not yet backfilled) and another value stays as it is.
 */
export function toProjectStage(projection: Projection): Record<string, 1 | StoredDocument> {
  const result: Record<string, 1 | StoredDocument> = {};
  for (const [path, entry] of projection) {
    if (isLookupEntry(entry)) continue;
    result[path] = entry === 1 ? 1 : { $cond: [{ $isArray: `$${path}` }, { $slice: [`$${path}`, entry.slice] }, `$${path}`] };
  }
  return result;
}

/**
 * The stages that end a read with `projection`: the `$project`, then a `$lookup` per lookup entry, each
 * with its page and its documents' own stages in its pipeline (so nested to any depth). An element
 * lookup reads the keys of every element (the ones the `$project` kept) into one list per document,
 * under sharedLookupName; the gateway hands each element its own (projected-read.ts settleLookups).
 */
export function projectStages(projection: Projection): StoredDocument[] {
  const project: StoredDocument = toProjectStage(projection);
  const lookups: StoredDocument[] = [];
  const firstKeys: string[] = [];
  for (const [name, entry] of projection) {
    if (!isLookupEntry(entry)) continue;
    const { from, localField, foreignField, page, projection: joined, firstKeyOnly } = entry.lookup;
    const element = elementLookupTarget(name);
    const pipeline = [...page, ...projectStages(joined)];
    let matchedBy = element ? `${element.path}.${localField}` : localField;
    if (firstKeyOnly && !element) {
      // $lookup matches every element of an array key; a single reference reads the first one only.
      matchedBy = `_docjoin_first_key_of${name}`;
      project[matchedBy] = { $cond: [{ $isArray: `$${localField}` }, { $first: `$${localField}` }, `$${localField}`] };
      firstKeys.push(matchedBy);
    }
    lookups.push({ $lookup: { from, localField: matchedBy, foreignField, as: element ? sharedLookupName(name) : name, pipeline } });
  }
  return [{ $project: project }, ...lookups, ...(firstKeys.length > 0 ? [{ $unset: firstKeys }] : [])];
}

/** Where an element lookup's documents arrive, for all the elements of a document together: 20 characters, as lookup-read.ts names them. */
export function sharedLookupName(name: string): string {
  return `_dj_in_${digestOf(name, 13)}`;
}
