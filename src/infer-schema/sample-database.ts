import { EJSON } from 'bson';
import { MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { DOCUMENT_SAMPLE } from '../gateway';

/** One index as the draft reads it: its keys in order, and whether it makes them unique. */
export interface IndexInfo {
  readonly name: string;
  readonly keys: ReadonlyArray<readonly [string, unknown]>;
  readonly unique: boolean;
  /** A partial index (`partialFilterExpression`) leaves documents out, so it proves no uniqueness. */
  readonly partial: boolean;
}

export interface CollectionSample {
  readonly name: string;
  /** Deduplicated: the first documents in `_id` order (the ones docjoin's startup check reads), then the sampled ones. */
  readonly documents: readonly Document[];
  readonly estimatedCount: number;
  /** `$sample`, or `find` in `_id` order when the server refused `$sample` (`sampleFailure` says why). */
  readonly method: '$sample' | 'find';
  readonly sampleFailure: string | undefined;
  readonly indexes: readonly IndexInfo[];
}

export interface DatabaseSample {
  readonly databaseName: string;
  /** In name order. */
  readonly collections: readonly CollectionSample[];
  /** Views and system collections: docjoin serves collections only. */
  readonly skipped: readonly string[];
}

/** The pipeline stage that samples; a seam for tests that need a server to refuse it. */
export type SampleStage = (size: number) => Document;

const SAMPLE_STAGE: SampleStage = (size) => ({ $sample: { size } });

/**
 * Lists the database's collections and reads, for each, up to `size` documents with `$sample` (one
 * aggregate), the first DOCUMENT_SAMPLE.first in `_id` order (the startup check reads them on every
 * start, so none of them contradicts the draft), and its indexes. Values keep their BSON
 * number types (`promoteValues: false`).
 */
export async function sampleDatabase(
  db: Db,
  options: { size: number; onCollection?: (sample: CollectionSample) => void; sampleStage?: SampleStage },
): Promise<DatabaseSample> {
  const listed = await db.listCollections({}, { nameOnly: false }).toArray();
  const names = listed
    // docjoin's own collections (migration markers, a recorded workload) are no part of the data.
    .filter((entry) => (entry.type === undefined || entry.type === 'collection' || entry.type === 'timeseries') && !entry.name.startsWith('system.') && !entry.name.startsWith('docjoin_'))
    .map((entry) => entry.name)
    .sort();
  const skipped = listed
    .map((entry) => entry.name)
    .filter((name) => !names.includes(name))
    .sort();
  const collections: CollectionSample[] = [];
  for (const name of names) {
    const sample = await sampleCollection(db.collection(name), options.size, options.sampleStage ?? SAMPLE_STAGE);
    options.onCollection?.(sample);
    collections.push(sample);
  }
  return { databaseName: db.databaseName, collections, skipped };
}

async function sampleCollection(collection: Collection, size: number, sampleStage: SampleStage): Promise<CollectionSample> {
  const read = { promoteValues: false } as const;
  const first = await collection.find({}, { ...read, sort: { _id: 1 }, limit: DOCUMENT_SAMPLE.first }).toArray();
  let sampled: Document[];
  let method: CollectionSample['method'] = '$sample';
  let sampleFailure: string | undefined;
  try {
    sampled = await collection.aggregate([sampleStage(size)], read).toArray();
  } catch (error) {
    // Only the server refusing the stage: a lost connection is the command's failure, not a fallback.
    if (!(error instanceof MongoServerError)) throw error;
    method = 'find';
    sampleFailure = error.message.split('\n')[0];
    sampled = await collection.find({}, { ...read, sort: { _id: 1 }, limit: size }).toArray();
  }
  const indexes = (await collection.listIndexes().toArray()).map(
    (index): IndexInfo => ({ name: String(index.name), keys: Object.entries(index.key as Document), unique: index.unique === true, partial: index.partialFilterExpression !== undefined }),
  );
  return { name: collection.collectionName, documents: deduplicated(first, sampled), estimatedCount: await collection.estimatedDocumentCount(), method, sampleFailure, indexes };
}

/**
 * `first` in its order, then the sampled documents not among them, ordered by `_id` (a `$sample`
 * arrives in random order, and may repeat a document), so the same documents draft the same schema.
 */
function deduplicated(first: readonly Document[], sampled: readonly Document[]): Document[] {
  const seen = new Set(first.map((document) => idKey(document._id)));
  const rest = new Map<string, Document>();
  for (const document of sampled) {
    const key = idKey(document._id);
    if (!seen.has(key)) rest.set(key, document);
  }
  return [...first, ...[...rest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, document]) => document)];
}

/** A value as a string that is equal for equal BSON values (an ObjectId and its hex string differ). */
export function idKey(value: unknown): string {
  return EJSON.stringify(value as Document, { relaxed: false });
}
