import type { SortKey, StorageMap } from '../storage-map/storage-map-types';

/**
 * The write model: every denormalized copy the schema declares and the rule that keeps it true.
 * Derived once at startup from the same directives the read path uses (build-write-model.ts); the
 * planners and `reconcile` only read it. Plain data.
 */

/** One step of the path from a document's root to a copy; `isArray` when the step crosses an array. */
export interface PathSegment {
  readonly path: string;
  readonly isArray: boolean;
}

/** A copied field: its name in the copy (the GraphQL field name) and its stored path in the source. */
export interface CopiedField {
  readonly name: string;
  readonly sourcePath: string;
}

/**
 * Where copies of a source type's fields live: a `@snapshot` field, directly in a collection type
 * (`Book.authors`) or inside an embedded copy (`Host.recentLogs.host`: each embedded log message keeps
 * its own host snapshot).
 */
export interface SnapshotLocation {
  /** `Book.authors`, or `Host.recentLogs.host` for a snapshot inside an embedded copy. */
  readonly coordinate: string;
  /** The relation field declaring the snapshot: `Book.authors`, `LogMessage.host` (what migration markers name). */
  readonly field: string;
  /** The field is non-null: a parent (or embedded object) without its copy is missing one. */
  readonly required: boolean;
  /** The collection holding the copies. */
  readonly collection: string;
  readonly sourceType: string;
  readonly sourceCollection: string;
  /** From the document root to the copy (the last segment is the copy itself). */
  readonly segments: readonly PathSegment[];
  /** The copy's field holding the source's `_id`. */
  readonly key: string;
  /** The copied fields other than the key. */
  readonly fields: readonly CopiedField[];
  /**
   * The copies live only in the source document itself: a snapshot of the parent inside its own
   * bounded array of children (`Host.recentLogs.host`: a host's recentLogs hold only its own messages).
   * The source update then sets them in the same statement instead of a second command.
   */
  readonly inSourceDocument: boolean;
}

/**
 * An embedded copy of a reverse join's newest children (`@embedded` + `@join(foreignField:, sort:, limit:)`),
 * e.g. `Post.recentComments`: the `limit` first children of the parent in `sort` order.
 */
export interface BoundedArray {
  readonly coordinate: string;
  readonly collection: string;
  /** The embedded array's path in the parent. */
  readonly path: string;
  /** The parent path whose value the children point at (the join's localField, usually `_id`). */
  readonly parentKey: string;
  readonly childType: string;
  readonly childCollection: string;
  /** The children's path holding the parent key. */
  readonly childKey: string;
  readonly sort: readonly SortKey[];
  /** undefined: the copy holds every child (unbounded). */
  readonly limit: number | undefined;
}

/**
 * The derived side of a two-way reference (`@inverse(of:)`), e.g. `Person.tasks`: the array of ids at
 * `path` in each parent lists the documents of `truthCollection` whose `truthPath` holds the parent's id.
 */
export interface InverseRule {
  readonly coordinate: string;
  readonly collection: string;
  /** The parent's array of ids (the relation's @join localField). */
  readonly path: string;
  /** The relation that is the truth, `Task.owner`. */
  readonly of: string;
  readonly truthType: string;
  readonly truthCollection: string;
  /** Where the truth documents keep the parent's id (`ownerId`, `authors.id`). */
  readonly truthPath: string;
}

/** What a counter counts. */
export type CounterSource =
  /** Children pointing at the parent: `count(childCollection where childKey = parent[parentKey])`. */
  | { readonly kind: 'children'; readonly childCollection: string; readonly childKey: string; readonly parentKey: string }
  /** The documents an inverse rule lists (its truth side, so a stale id list cannot fool the count). */
  | { readonly kind: 'inverse'; readonly inverse: InverseRule };

/** A precomputed count (`@counter(of:)`), e.g. `Post.commentCount` counting `Post.comments`. */
export interface CounterRule {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
  /** The relation counted, `Post.comments`. */
  readonly of: string;
  readonly source: CounterSource;
}

/**
 * A precomputed sum (`@total(of:, field:)`), e.g. `Product.ratingTotal` summing `rating` over
 * `Product.reviews`: the children pointing at the parent, each adding the number at `summedPath`.
 */
export interface TotalRule {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
  /** The relation summed, `Product.reviews`. */
  readonly of: string;
  readonly childType: string;
  readonly childCollection: string;
  /** The children's path holding the parent's key, and the parent path it holds. */
  readonly childKey: string;
  readonly parentKey: string;
  /** The children's field summed, its stored path and GraphQL scalar (Int, Float, Long or Decimal). */
  readonly summedField: string;
  readonly summedPath: string;
  readonly summedScalar: string;
  /** The total's own scalar: the summed field's, or Float. */
  readonly scalar: string;
}

export interface WriteModel {
  readonly storageMap: StorageMap;
  readonly snapshots: readonly SnapshotLocation[];
  readonly boundedArrays: readonly BoundedArray[];
  readonly inverses: readonly InverseRule[];
  readonly counters: readonly CounterRule[];
  readonly totals: readonly TotalRule[];
}
