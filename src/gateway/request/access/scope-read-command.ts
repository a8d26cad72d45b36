import type { StoredDocument } from '../../documents/stored-document';
import { InvariantError } from '../../errors/internal-errors';

/** The row filter every read of a collection must carry for this request (request/access/viewer-access.ts). */
export interface ReadScope {
  /** Undefined: every row. Throws FORBIDDEN when the request may not read the collection at all. */
  filterFor(collection: string): StoredDocument | undefined;
}

/** A find's filter with the scope's row filter added (both must hold). */
export function scopedFilter(scope: ReadScope, collection: string, filter: StoredDocument): StoredDocument {
  const rows = scope.filterFor(collection);
  if (!rows) return filter;
  return Object.keys(filter).length === 0 ? rows : { $and: [rows, filter] };
}

/** Stages that read another collection than the pipeline's own, or run pipelines of their own; each must be scoped too. */
const READS_ANOTHER_COLLECTION = new Set(['$lookup', '$graphLookup', '$unionWith', '$facet', '$out', '$merge']);

/**
 * An aggregate's pipeline with the scope's row filter in front of every read: a `$match` first on the
 * pipeline's own collection, first in each `$unionWith` branch on its collection, and first in each
 * `$lookup`'s pipeline on its `from` (a `localField`/`foreignField` lookup keeps them: MongoDB 5.0
 * applies the pipeline to the documents they match). MongoDB merges adjacent `$match` stages, so an
 * index still serves the read. A `$facet` reads only the documents that reach it, already filtered: each
 * of its pipelines is checked the same way. A stage that reads in another way (`$graphLookup`, `$out`,
 * `$merge`) is refused: a filter must not be missed.
 */
export function scopedPipeline(scope: ReadScope, collection: string, pipeline: readonly StoredDocument[]): StoredDocument[] {
  const rows = scope.filterFor(collection);
  const scoped = pipeline.map((stage) => scopedStage(scope, stage));
  return rows ? [{ $match: rows }, ...scoped] : scoped;
}

function scopedStage(scope: ReadScope, stage: StoredDocument): StoredDocument {
  const [name] = Object.keys(stage);
  if (name === undefined || !READS_ANOTHER_COLLECTION.has(name)) return stage;
  if (name === '$facet') {
    const facets = stage.$facet as Readonly<Record<string, readonly StoredDocument[]>>;
    return { $facet: Object.fromEntries(Object.entries(facets).map(([facet, branch]) => [facet, branch.map((inner) => scopedStage(scope, inner))])) };
  }
  if (name === '$lookup') {
    const lookup = stage.$lookup as { from?: unknown; pipeline?: readonly StoredDocument[] };
    if (typeof lookup.from !== 'string') throw new InvariantError('a $lookup without a from collection cannot be scoped by access rules; docjoin sends none');
    return { $lookup: { ...lookup, pipeline: scopedPipeline(scope, lookup.from, lookup.pipeline ?? []) } };
  }
  if (name !== '$unionWith') throw new InvariantError(`an aggregate with ${name} cannot be scoped by access rules; docjoin sends none`);
  const union = stage.$unionWith as string | { coll: string; pipeline?: readonly StoredDocument[] };
  const coll = typeof union === 'string' ? union : union.coll;
  const branch = typeof union === 'string' ? [] : (union.pipeline ?? []);
  return { $unionWith: { coll, pipeline: scopedPipeline(scope, coll, branch) } };
}
