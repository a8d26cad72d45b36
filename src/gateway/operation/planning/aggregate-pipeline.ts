import type { StoredDocument } from '../../documents/stored-document';
import { bsonType, isObjectId } from '../../documents/bson-type';
import { keyString } from '../../documents/key-string';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { AggregateRequest, FigureSelection, GroupSelection } from './aggregate-request';

/** The figures of one set (a parent's children, a root list, or one group of either), as GraphQL reads them. */
export interface FiguresValue {
  readonly count: number;
  readonly sum: Readonly<Record<string, number>>;
  readonly avg: Readonly<Record<string, number | null>>;
  readonly min: Readonly<Record<string, unknown>>;
  readonly max: Readonly<Record<string, unknown>>;
}

export interface GroupValue extends FiguresValue {
  /** The grouped fields' values by field name (an id as its hex string). */
  readonly key: Readonly<Record<string, unknown>>;
}

/** An `@aggregate` field's value for one parent: its figures, and each `groupBy` response key's groups. */
export interface AggregateValue extends FiguresValue {
  readonly groups: Readonly<Record<string, readonly GroupValue[]>>;
}

/** The facet holding the set's own figures; group `i` is `g<i>`. */
const TOTALS = 'totals';

/**
 * The ONE aggregate that answers `request` for every parent in `parentKeys` (undefined for a root list):
 * `$match` on the parents' keys and the filters, then a `$group` by parent (one document per parent that
 * has children), or a `$facet` of that and each `groupBy`'s groups (grouped by parent and key, sorted,
 * and cut to `first` per parent). Missing key values group as null, as the response shows them.
 */
export function aggregatePipeline(aggregate: AggregateField, request: AggregateRequest, parentKeys: readonly unknown[] | undefined): StoredDocument[] {
  const link = aggregate.parentLink;
  const keyMatch = link ? { [link.foreignField]: { $in: parentKeys ?? [] } } : undefined;
  const conditions = [keyMatch, request.filter].filter((part): part is StoredDocument => part !== undefined);
  const match = { $match: conditions.length === 0 ? {} : conditions.length === 1 ? conditions[0]! : { $and: conditions } };
  const parent = link ? `$${link.foreignField}` : null;
  const totals = request.totals && { $group: { _id: parent, ...accumulators(request.totals) } };
  const groups = request.groups.filter((group) => group.first > 0);
  if (groups.length === 0) return totals ? [match, totals] : [match];
  const facets: Record<string, StoredDocument[]> = {};
  if (totals) facets[TOTALS] = [totals];
  request.groups.forEach((group, index) => {
    if (group.first > 0) facets[`g${index}`] = groupStages(group, parent);
  });
  return [match, { $facet: facets }];
}

function groupStages(group: GroupSelection, parent: string | null): StoredDocument[] {
  const key = Object.fromEntries(group.by.map((field) => [field.value, { $ifNull: [`$${field.path}`, null] }]));
  const sort: Record<string, 1 | -1> = parent === null ? {} : { '_id.p': 1 };
  if (group.order === 'COUNT_DESC') sort.count = -1;
  if (group.order === 'COUNT_ASC') sort.count = 1;
  for (const field of group.by) sort[`_id.k.${field.value}`] = 1;
  const stages: StoredDocument[] = [{ $group: { _id: parent === null ? { k: key } : { p: parent, k: key }, ...accumulators(group) } }, { $sort: sort }];
  if (parent === null) return [...stages, { $limit: group.first }];
  return [...stages, { $group: { _id: '$_id.p', groups: { $push: '$$ROOT' } } }, { $project: { groups: { $slice: ['$groups', group.first] } } }];
}

function accumulators(figures: FigureSelection): StoredDocument {
  const fields: StoredDocument = { count: { $sum: 1 } };
  for (const figure of figures.sum) fields[`sum_${figure.fieldName}`] = { $sum: `$${figure.path}` };
  for (const figure of figures.avg) fields[`avg_${figure.fieldName}`] = { $avg: `$${figure.path}` };
  for (const figure of figures.min) fields[`min_${figure.fieldName}`] = { $min: `$${figure.path}` };
  for (const figure of figures.max) fields[`max_${figure.fieldName}`] = { $max: `$${figure.path}` };
  return fields;
}

/**
 * The reply of aggregatePipeline, per parent (by keyString of its key; the one entry `root` for a root
 * list). A parent with no children gets the figures of an empty set: count and sums 0, the rest null.
 */
export function readAggregateReply(aggregate: AggregateField, request: AggregateRequest, reply: readonly StoredDocument[]): (parentKey: unknown) => AggregateValue {
  const hasFacets = request.groups.some((group) => group.first > 0);
  const facets = hasFacets ? (reply[0] ?? {}) : { [TOTALS]: reply };
  const totals = new Map(((facets[TOTALS] as StoredDocument[] | undefined) ?? []).map((row) => [keyString(row._id), row]));
  const groups = request.groups.map((group, index) => {
    const rows = (facets[`g${index}`] as StoredDocument[] | undefined) ?? [];
    if (aggregate.parentLink) return new Map(rows.map((row) => [keyString(row._id), (row.groups as StoredDocument[]).map((entry) => groupValue(group, entry))]));
    return new Map([[keyString(null), rows.map((entry) => groupValue(group, entry))]]);
  });
  return (parentKey) => {
    const key = keyString(aggregate.parentLink ? parentKey : null);
    const figures = figuresValue(request.totals, totals.get(key));
    const byResponseKey: Record<string, readonly GroupValue[]> = {};
    request.groups.forEach((group, index) => {
      byResponseKey[group.responseKey] = groups[index]!.get(key) ?? [];
    });
    return { ...figures, groups: byResponseKey };
  };
}

function groupValue(group: GroupSelection, row: StoredDocument): GroupValue {
  const stored = (row._id as { k?: StoredDocument }).k ?? {};
  const key: Record<string, unknown> = {};
  for (const field of group.by) key[field.fieldName] = responseValue(stored[field.value]);
  return { ...figuresValue(group, row), key };
}

/** The figures of one `$group` row; an empty set's when there is no row. */
export function figuresValue(selection: FigureSelection | undefined, row: StoredDocument | undefined): FiguresValue {
  const sum: Record<string, number> = {};
  const avg: Record<string, number | null> = {};
  const min: Record<string, unknown> = {};
  const max: Record<string, unknown> = {};
  for (const figure of selection?.sum ?? []) sum[figure.fieldName] = toNumber(row?.[`sum_${figure.fieldName}`]) ?? 0;
  for (const figure of selection?.avg ?? []) avg[figure.fieldName] = toNumber(row?.[`avg_${figure.fieldName}`]);
  for (const figure of selection?.min ?? []) min[figure.fieldName] = responseValue(row?.[`min_${figure.fieldName}`]);
  for (const figure of selection?.max ?? []) max[figure.fieldName] = responseValue(row?.[`max_${figure.fieldName}`]);
  return { count: toNumber(row?.count) ?? 0, sum, avg, min, max };
}

/**
 * A number MongoDB computed (a double, an Int32, a Long or a Decimal128: sums are exact in MongoDB) as the
 * JSON number GraphQL sends, rounded once, here; null for null or missing.
 */
function toNumber(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return Number(String(value));
}

const BSON_NUMBERS: ReadonlySet<string | undefined> = new Set(['Long', 'Int32', 'Double', 'Decimal128']);

/** A stored value as GraphQL serializes it: numbers from BSON number types, ids as hex, the rest as stored. */
function responseValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (isObjectId(value)) return value.toHexString();
  if (BSON_NUMBERS.has(bsonType(value))) return toNumber(value);
  return value;
}
