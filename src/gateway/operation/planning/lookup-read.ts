import { VALUE_TYPES } from '../../../bson/type-rank';
import type { StoredDocument } from '../../documents/stored-document';
import { sortDocument } from '../../startup/storage-map/parse-sort';
import type { JoinShape, RelationField } from '../../startup/storage-map/storage-map-types';
import { allOf } from './list-filter';
import type { PageArgs } from './page-request';
import type { LookupRead } from './projection';
import { planReverseJoinPage } from './reverse-join-page';
import { digestOf } from './short-digest';

/** How one relation field, with one set of arguments, is read by `$lookup` inside its parents' command. */
export interface PlannedLookup {
  /** The name each parent holds the joined documents under: the same for the same field and page. */
  readonly as: string;
  readonly read: Omit<LookupRead, 'projection'>;
}

/**
 * The lookup of `field` for these arguments: plan-projection puts it in the parents' read, and the
 * resolver finds the documents handed to the parent under `as` (projected-read.ts settleLookups). A join by key matches the parent's keys (its filters and
 * order apply to what comes back, as the join's do); a reverse join carries its page (filters, order,
 * per-parent limit) into the lookup's pipeline. Undefined when the page cannot be read that way: after
 * an item whose sort values must be read first, without a bound, or `first: 0` (nothing is read).
 * Throws BAD_USER_INPUT as planReverseJoinPage does.
 */
export function planLookup(field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): PlannedLookup | undefined {
  const keys = { from: shape.collection, direction: shape.direction, localField: shape.localField, foreignField: shape.foreignField };
  // A parent without the key matches the targets without it too ($lookup's null semantics): they must not be
  // sent. A target holding a key among nulls (`[a, null]`, a credit without one) has a key: `$ne: null` would drop it.
  const keyed: StoredDocument[] = shape.foreignField === '_id' ? [] : [{ $match: { [shape.foreignField]: { $type: [...VALUE_TYPES] } } }];
  if (shape.direction === 'byKey') return named(field, { ...keys, page: keyed, ...(!field.isList && { firstKeyOnly: true }) });
  const { page, filter, sort } = planReverseJoinPage(field, shape, args);
  // Every child of a parent in one document could pass MongoDB's 16 MB: an unbounded page is joined.
  if (page.anchor !== undefined || page.limit === 0 || page.limit === undefined) return undefined;
  const match = allOf([...keyed.map((stage) => stage.$match as StoredDocument), filter, page.filter]);
  const stages: StoredDocument[] = [...(match ? [{ $match: match }] : []), ...(sort.length > 0 ? [{ $sort: sortDocument(sort) }] : []), { $limit: page.limit }];
  return named(field, { ...keys, page: stages });
}

/**
 * `_dj_<the field's first 5 characters>_<digest of the field and what it reads>`: the same for the same
 * lookup, whichever alias asks; another page, or another field, gets another. At most 20 characters,
 * as every copy of every joined document carries it: js-bson writes a key of up to 25 and reads one of
 * up to 20 in plain JavaScript, a longer one through Buffer (the demo's people lookups carry 800 names
 * a reply: with names of 34 to 55 characters the embedded server took longer in 5 of 5 paired rounds,
 * median 9.1 ms against 8.2).
 */
function named(field: RelationField, read: PlannedLookup['read']): PlannedLookup {
  return { as: `_dj_${field.fieldName.slice(0, 5)}_${digestOf({ type: field.typeName, field: field.fieldName, ...read }, 10)}`, read };
}
