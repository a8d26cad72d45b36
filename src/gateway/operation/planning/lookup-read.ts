import { createHash } from 'node:crypto';
import { EJSON } from 'bson';
import type { StoredDocument } from '../../documents/stored-document';
import { sortDocument } from '../../startup/storage-map/parse-sort';
import type { JoinShape, RelationField } from '../../startup/storage-map/storage-map-types';
import { allOf } from './list-filter';
import type { PageArgs } from './page-request';
import type { LookupRead } from './projection';
import { planReverseJoinPage } from './reverse-join-page';

/** How one relation field, with one set of arguments, is read by `$lookup` inside its parents' command. */
export interface PlannedLookup {
  /** The name each parent holds the joined documents under: the same for the same field and page. */
  readonly as: string;
  readonly read: Omit<LookupRead, 'projection'>;
}

/**
 * The lookup of `field` for these arguments: plan-projection puts it in the parents' read, and the
 * resolver finds the documents under `as`. A join by key matches the parent's keys (its filters and
 * order apply to what comes back, as the join's do); a reverse join carries its page (filters, order,
 * per-parent limit) into the lookup's pipeline. Undefined when the page cannot be read that way: after
 * an item whose sort values must be read first, or `first: 0` (nothing is read). Throws
 * BAD_USER_INPUT as planReverseJoinPage does.
 */
export function planLookup(field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): PlannedLookup | undefined {
  const keys = { from: shape.collection, localField: shape.localField, foreignField: shape.foreignField };
  if (shape.direction === 'byKey') return { as: lookupName(field, []), read: { ...keys, page: [] } };
  const { page, filter, sort } = planReverseJoinPage(field, shape, args);
  if (page.anchor !== undefined || page.limit === 0) return undefined;
  const match = allOf([filter, page.filter]);
  const stages: StoredDocument[] = [
    ...(match ? [{ $match: match }] : []),
    ...(sort.length > 0 ? [{ $sort: sortDocument(sort) }] : []),
    ...(page.limit !== undefined ? [{ $limit: page.limit }] : []),
  ];
  return { as: lookupName(field, stages), read: { ...keys, page: stages } };
}

/** `_docjoin_lookup_<field>`, and a digest of the page's stages when it has any (aliases with other pages get other names). */
function lookupName(field: RelationField, stages: readonly StoredDocument[]): string {
  const name = `_docjoin_lookup_${field.fieldName}`;
  if (stages.length === 0) return name;
  return `${name}_${createHash('sha1').update(EJSON.stringify(stages, { relaxed: false })).digest('hex').slice(0, 12)}`;
}
