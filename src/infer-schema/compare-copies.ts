import { EJSON } from 'bson';
import type { Document } from 'mongodb';
import { idKey } from './sample-database';

/** Share of compared values that must be equal for a field to count as a copy (stale copies happen). */
export const COPY_AGREEMENT = 0.9;

export interface FieldComparison {
  readonly key: string;
  /** Entries where the field equals the source document's field of the same name. */
  readonly equal: number;
  /** Entries where it differs (or the source lacks it). */
  readonly different: number;
}

export interface CopyComparison {
  /** Entries whose key was found among the sources. */
  readonly compared: number;
  readonly fields: readonly FieldComparison[];
}

/**
 * Compares sub-documents (`entries`, e.g. every sampled `post.author`) with the documents their `key`
 * names (`sources`, by idKey of `_id`): for each of `fields`, in how many entries it equals the
 * source's field of the same name. Entries whose source is missing are left out (a dangling copy says
 * nothing about which fields were copied).
 */
export function compareCopies(entries: readonly Document[], key: string, sources: ReadonlyMap<string, Document>, fields: readonly string[]): CopyComparison {
  let compared = 0;
  const counts = new Map(fields.map((field) => [field, { equal: 0, different: 0 }]));
  for (const entry of entries) {
    const source = sources.get(idKey(entry[key]));
    if (!source) continue;
    compared++;
    for (const field of fields) {
      if (!(field in entry)) continue;
      const count = counts.get(field)!;
      if (field in source && sameValue(entry[field], source[field])) count.equal++;
      else count.different++;
    }
  }
  return { compared, fields: fields.map((field) => ({ key: field, ...counts.get(field)! })) };
}

/** Whether a field's comparison says it is a copy: equal at least once, and in at least COPY_AGREEMENT of the entries compared. */
export function isCopied(comparison: FieldComparison): boolean {
  return comparison.equal > 0 && comparison.equal >= COPY_AGREEMENT * (comparison.equal + comparison.different);
}

/** BSON equality, numbers by value (an Int32 copy of a Double 3 is still a copy). */
function sameValue(a: unknown, b: unknown): boolean {
  return EJSON.stringify({ v: a }, { relaxed: true }) === EJSON.stringify({ v: b }, { relaxed: true });
}
