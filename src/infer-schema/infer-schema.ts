import type { Db, Document } from 'mongodb';
import { draftSchema, type DraftSchema } from './draft-schema';
import { objectIdPaths, resolveReferences } from './find-references';
import { collectionsHoldingIds, documentsByIds } from './lookup-by-id';
import { printDraft } from './print-draft';
import { idKey, sampleDatabase, type CollectionSample } from './sample-database';
import { candidateKey, snapshotCandidates } from './snapshot-candidates';
import { shapeOfDocuments, type ObjectShape } from './value-shape';

export const DEFAULT_SAMPLE_SIZE = 100;
export const MAX_SAMPLE_SIZE = 10_000;

export interface InferSchemaOptions {
  /** Documents `$sample`d per collection (default DEFAULT_SAMPLE_SIZE). */
  readonly sampleSize?: number;
  /** Called as each collection has been read. */
  readonly onCollection?: (sample: CollectionSample) => void;
}

export interface InferredSchema {
  /** The annotated SDL: directives, and a `# guess:` comment on each inference. */
  readonly sdl: string;
  readonly draft: DraftSchema;
  readonly collections: readonly CollectionSample[];
}

/**
 * Drafts a docjoin schema from an existing database. Reads: per collection, one `$sample` aggregate,
 * one find of the first documents in `_id` order and its indexes; per collection again, one `_id $in`
 * query for every ObjectId sampled anywhere (which collection holds it); per sub-document that may be
 * a snapshot, one `_id $in` query for its sources. Never a collection scan.
 */
export async function inferSchema(db: Db, options: InferSchemaOptions = {}): Promise<InferredSchema> {
  const sampleSize = options.sampleSize ?? DEFAULT_SAMPLE_SIZE;
  const sample = await sampleDatabase(db, { size: sampleSize, ...(options.onCollection && { onCollection: options.onCollection }) });
  const shapes = new Map<string, ObjectShape>(sample.collections.map((collection) => [collection.name, shapeOfDocuments(collection.documents)]));
  const paths = sample.collections.flatMap((collection) => objectIdPaths(collection.name, shapes.get(collection.name)!, collection.documents));
  const values = new Map<string, unknown>();
  for (const path of paths) for (const value of path.values) values.set(idKey(value), value);
  const owners = await collectionsHoldingIds(
    db,
    sample.collections.map((collection) => collection.name),
    [...values.values()],
  );
  const references = resolveReferences(paths, owners);
  const candidates = snapshotCandidates(shapes, references);
  const sources = new Map<string, Map<string, Document>>();
  for (const candidate of candidates) {
    sources.set(candidateKey(candidate.collection, candidate.path), await documentsByIds(db, candidate.reference.target, candidate.reference.values, candidate.fields));
  }
  const draft = draftSchema({ sample, sampleSize, shapes, references, candidates, sources });
  return { sdl: printDraft(draft), draft, collections: sample.collections };
}
