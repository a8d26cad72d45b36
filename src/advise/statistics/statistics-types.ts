import type { ListArrayContent, WorkloadSummary } from '../../gateway';

/**
 * What `collectDataStatistics` measures: per collection and per relation field (`Type.field`), from a
 * `$sample` of each collection and index-served counts for a sample of keys. Plain data (records, not
 * maps) so a report can be written as JSON as it is.
 */

/** MongoDB refuses a document above 16 MiB (its BSON size limit). */
export const MAX_BSON_BYTES = 16 * 1024 * 1024;
/** Default threshold of "near the limit": half of it. A document there is one or two growth spurts from failing writes. */
export const NEAR_LIMIT_BYTES = MAX_BSON_BYTES / 2;
export const DEFAULT_SAMPLE_SIZE = 1000;
export const DEFAULT_KEY_SAMPLE_SIZE = 200;

export interface DataStatisticsOptions {
  /** Documents `$sample`d per collection (default 1000). Every statistic of a collection is read from this one sample. */
  readonly sampleSize?: number;
  /** Keys counted per reverse join and per snapshot, chosen at random among the sampled ones (default 200). */
  readonly keySampleSize?: number;
  /** Size from which a document counts as near the 16 MiB limit (default 8 MiB). */
  readonly nearLimitBytes?: number;
  /**
   * Read every document instead of a `$sample`, and count keys on paths no index serves (default false:
   * no command ever scans a whole collection).
   */
  readonly fullScan?: boolean;
  /**
   * The stored path of each type's creation time, for growth (`{ Post: 'createdAt', Host: '_id' }`; `_id`
   * reads an ObjectId's timestamp). A type not named here uses a stored field called `createdAt`, `created`,
   * `insertedAt`, `time`, `timestamp` or the like, if it has one.
   */
  readonly timeFields?: Readonly<Record<string, string>>;
  /** The recorded workload: the copies of the sources its mutations changed are counted too (`writtenSources`). */
  readonly workload?: WorkloadSummary;
}

/** The options as used, defaults applied. */
export interface StatisticsSettings {
  readonly sampleSize: number;
  readonly keySampleSize: number;
  readonly nearLimitBytes: number;
  readonly fullScan: boolean;
}

/**
 * A distribution of measured values: percentiles by nearest rank (the value at rank ⌈p/100 × count⌉ of
 * the values in ascending order, so always a value that was measured), the maximum and the mean.
 */
export interface Distribution {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface CollectionStatistics {
  readonly collection: string;
  /** False when the database has no such collection; nothing else was measured then. */
  readonly exists: boolean;
  /** From the collection's metadata (`estimatedDocumentCount`), not a count. */
  readonly estimatedCount: number;
  /** Documents the statistics were computed from: the `$sample` (every document with `fullScan`). */
  readonly sampled: number;
  /** `$bsonSize` of the sampled documents, in bytes. */
  readonly documentBytes: Distribution | undefined;
  /** Sampled documents of at least `thresholdBytes`, and their share of the sample (0 to 1). */
  readonly nearLimit: { readonly thresholdBytes: number; readonly documents: number; readonly share: number };
}

export interface ArrayStatistics {
  /** The array's stored path in the parent document. */
  readonly path: string;
  readonly holds: ListArrayContent;
  /** The declared bound (`@join(limit:)` of an embedded copy); undefined when nothing bounds the array. */
  readonly limit: number | undefined;
  /** `$size` of the array in each sampled parent; a parent without it counts as 0. */
  readonly lengths: Distribution | undefined;
  readonly growth: ArrayGrowth | undefined;
}

/**
 * How arrays grow with their parent's age, over sampled parents with a creation time: the least-squares
 * slope of length against age. Positive when older parents hold longer arrays, i.e. arrays keep growing
 * after their parent is created; about 0 when they are filled once, or capped.
 */
export interface ArrayGrowth {
  /** The parent's stored time path. */
  readonly timePath: string;
  /** Sampled parents holding a time (Date, or ObjectId for `_id`). */
  readonly parents: number;
  /** Days from the oldest to the newest of them. */
  readonly spanDays: number;
  /** Entries an array gains per day of its parent's age. */
  readonly entriesPerDay: number;
}

export interface ReverseJoinStatistics {
  readonly childCollection: string;
  /** The children's path holding the parent key. */
  readonly foreignField: string;
  /** The parent's path the children point at (usually `_id`). */
  readonly localField: string;
  /** Sampled children (the child collection's `$sample`) holding a key. */
  readonly sampledChildren: number;
  /** Distinct keys among them: how many parents the sampled children point at. */
  readonly distinctKeys: number;
  /** Children per parent, counted for sampled parents' keys (index-served); parents without children count 0. */
  readonly childrenPerKey: Distribution | undefined;
  readonly growth: ChildGrowth | undefined;
}

/**
 * How fast each parent gains children: for each counted key with at least two children, (children − 1)
 * divided by the days from its oldest to its newest child (by the child type's time field).
 */
export interface ChildGrowth {
  readonly timePath: string;
  /** Counted keys whose oldest and newest children hold different times. */
  readonly keys: number;
  readonly childrenPerDay: Distribution;
}

/** How many documents hold a copy of each sampled source document, at one snapshot location. */
export interface SnapshotFanIn {
  /** `Book.authors`, or `Host.recentLogs.host` for copies inside an embedded copy. */
  readonly coordinate: string;
  /** The collection holding the copies. */
  readonly collection: string;
  /** The copies' key path there (`authors.id`). */
  readonly keyPath: string;
  readonly sourceCollection: string;
  /** Documents of `collection` holding a copy, per sampled source (0 for a source nobody copies). */
  readonly copiesPerSource: Distribution | undefined;
}

export interface RelationStatistics {
  readonly coordinate: string;
  /** The parent type's collection; undefined for a type stored only inside others. */
  readonly collection: string | undefined;
  /** For a list read from an array in the parent (embedded, references, snapshot copies). */
  readonly array: ArrayStatistics | undefined;
  /** For a reverse join (children pointing at the parent). */
  readonly reverseJoin: ReverseJoinStatistics | undefined;
  /** For a snapshot: each place its copies live. */
  readonly snapshots: readonly SnapshotFanIn[];
  /** Statistics that apply to this field but were not measured, each with why. */
  readonly skipped: readonly string[];
}

/**
 * Documents referencing each sampled source document the recorded mutations changed, per place the
 * relation's type is stored: the copies a snapshot of it rewrites when that source changes.
 */
export interface WrittenSourceCopies {
  readonly holders: ReadonlyArray<{
    readonly collection: string;
    /** The path to the relation's type there, as embeddingPlaces gives it (`""`, `"lines."`). */
    readonly prefix: string;
    /** The reference's key path there (`customer.id`, `lines.productId`). */
    readonly keyPath: string;
    /** By sampled source (the workload's id key, source-sample.ts): documents of `collection` holding its key. */
    readonly copies: Readonly<Record<string, number>>;
  }>;
  /** Places not counted, each with why (no index serves the key). */
  readonly skipped: readonly string[];
}

export interface DataStatistics {
  readonly settings: StatisticsSettings;
  /** By collection name: every collection the schema reads. */
  readonly collections: Readonly<Record<string, CollectionStatistics>>;
  /** By `Type.field`: every relation field of the schema. */
  readonly relations: Readonly<Record<string, RelationStatistics>>;
  /** By `Type.field`: the forward relations whose targets the recorded mutations changed (empty without a workload). */
  readonly writtenSources: Readonly<Record<string, WrittenSourceCopies>>;
}
