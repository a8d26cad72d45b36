import type { RelationField } from '../../gateway';
import type { CollectionStatistics, Distribution, RelationStatistics } from '../statistics/statistics-types';
import type { AdviceThresholds } from './advice-thresholds';
import type { FieldAdvice } from './advice-types';
import { RULES } from './rules-of-thumb';
import { count, round } from './workload-view';

type ArrayAdvice = Pick<FieldAdvice, 'kind' | 'change' | 'rule' | 'evidence' | 'suggestedLimit'> & { readonly largestDocumentBytes: FieldAdvice['effect']['largestDocumentBytes'] };

/**
 * What one entry adds to a document: what the largest document holds beyond the median one, over the
 * entries it holds beyond the median's (the mean document over its mean entries when they are equal).
 */
function bytesPerEntry(lengths: Distribution | undefined, bytes: Distribution | undefined): number {
  if (!lengths || !bytes) return 0;
  if (lengths.max > lengths.p50 && bytes.max > bytes.p50) return (bytes.max - bytes.p50) / (lengths.max - lengths.p50);
  return bytes.mean / (lengths.mean + 1);
}

/** Whether the sampled data shows an array in the parent that nothing bounds and that is long or growing. */
export function isUnboundedArray(statistics: RelationStatistics | undefined, thresholds: AdviceThresholds): boolean {
  const array = statistics?.array;
  if (!array || array.limit !== undefined) return false;
  return (array.lengths?.max ?? 0) >= thresholds.unboundedArrayLength || (array.growth?.entriesPerDay ?? 0) >= thresholds.growingEntriesPerDay;
}

/**
 * Advice on an unbounded array in the parent: bound it with the subset pattern, or, when it is very long
 * or its documents near the 16 MB limit, stop embedding. Undefined when the array is bounded or small.
 */
export function arrayAdvice(field: RelationField, statistics: RelationStatistics | undefined, collection: CollectionStatistics | undefined, thresholds: AdviceThresholds): ArrayAdvice | undefined {
  const array = statistics?.array;
  if (!array || !isUnboundedArray(statistics, thresholds)) return undefined;
  const lengths = array.lengths;
  const bytes = collection?.documentBytes;
  const entryBytes = bytesPerEntry(array.lengths, bytes);
  const evidence = [
    ...(lengths ? [`${array.path} holds ${count(lengths.p50)} entries (p50), ${count(lengths.p99)} (p99), ${count(lengths.max)} at most, in ${count(lengths.count)} sampled parents`] : []),
    ...(array.growth ? [`it grows by ${round(array.growth.entriesPerDay)} entries per day of its parent's age (${array.growth.parents} parents over ${round(array.growth.spanDays)} days)`] : []),
    ...(bytes ? [`${collection!.collection} documents: ${count(bytes.p50)} bytes (p50), ${count(bytes.max)} at most; ${collection!.nearLimit.documents} near the 16 MB limit`] : []),
  ];
  const tooLong = (lengths?.max ?? 0) >= thresholds.stopEmbeddingLength || (collection?.nearLimit.documents ?? 0) > 0;
  const largest = bytes?.max;
  if (tooLong) {
    return {
      kind: 'stop-embedding',
      change: `move ${field.coordinate}'s entries to their own collection, each pointing at its parent, and read them by a reverse join`,
      rule: RULES.stopEmbedding,
      evidence,
      largestDocumentBytes: largest === undefined ? undefined : { before: largest, after: Math.round(Math.max(0, largest - (lengths?.max ?? 0) * entryBytes)) },
    };
  }
  const limit = thresholds.suggestedLimit;
  return {
    kind: 'bound-array',
    change: `keep the newest ${limit} entries in ${array.path} (@join(…, limit: ${limit}) with a sort), the rest in their own collection`,
    rule: RULES.boundArray,
    suggestedLimit: limit,
    evidence,
    largestDocumentBytes: largest === undefined ? undefined : { before: largest, after: Math.round(Math.max(0, largest - Math.max(0, (lengths?.max ?? 0) - limit) * entryBytes)) },
  };
}
