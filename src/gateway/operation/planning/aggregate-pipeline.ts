import type { GraphQLError, GraphQLScalarType } from 'graphql';
import type { StoredDocument } from '../../documents/stored-document';
import { bsonType, isBsonNumber, isObjectId } from '../../documents/bson-type';
import { LongScalar } from '../../startup/scalars/exact-number-scalars';
import { isInOperand, keyString, parentKeysOf } from '../../documents/key-string';
import { valueOutOfRange } from '../../errors/public-error-code';
import { eachParentKeyOnce } from './parent-keys';
import { averageType, EXACT_SCALARS, sumType } from '../../startup/aggregates/aggregate-names';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { AggregateRequest, FigureSelection, GroupSelection } from './aggregate-request';

/** The figures of one set (a parent's children, a root list, or one group of either), as GraphQL reads them. */
export interface FiguresValue {
  readonly count: number;
  /** Numbers; a Long's or a Decimal's as MongoDB gave them (a Long, a Decimal128), for their scalars to write exactly. */
  readonly sum: Readonly<Record<string, unknown>>;
  readonly avg: Readonly<Record<string, unknown>>;
  readonly min: Readonly<Record<string, unknown>>;
  readonly max: Readonly<Record<string, unknown>>;
}

export interface GroupValue extends FiguresValue {
  /** The grouped fields' values by field name (an id as its hex string). */
  readonly key: Readonly<Record<string, unknown>>;
}

/** An `@aggregate` field's value for one parent: its figures, and each `groupBy` response key's groups (or why its arguments are refused). */
export interface AggregateValue extends FiguresValue {
  readonly groups: Readonly<Record<string, readonly GroupValue[] | GraphQLError>>;
}

/** Each `groupBy` response key's groups: `read` for those asked, the refusal of those refused. */
export function groupsByResponseKey(request: AggregateRequest, read: (group: GroupSelection, index: number) => readonly GroupValue[]): Record<string, readonly GroupValue[] | GraphQLError> {
  // Keyed by the client's aliases: without a prototype, `__proto__` is one like any other.
  const groups: Record<string, readonly GroupValue[] | GraphQLError> = Object.create(null);
  request.groups.forEach((group, index) => {
    groups[group.responseKey] = group.refusal ?? read(group, index);
  });
  return groups;
}

/** One aggregate of a request: the set's own figures, or the groups of its `groupBy` at `index`. */
export type AggregatePart = { readonly kind: 'totals' } | { readonly kind: 'groups'; readonly index: number };

/**
 * The aggregates that answer `request` for every parent in `parentKeys` (undefined for a root list),
 * each one document per parent: the set's figures (`$match` on the parents' keys and the filters, then
 * `$group` by parent), and per `groupBy` asking for any group, its groups (`$group` by parent and key,
 * then each parent's first `first` by `$topN`, so no stage holds more groups of a parent than it
 * returns: one document per parent, one in all for a root list), with the documents each can return. The loader sends them together, as one command
 * (aggregate-batcher.ts). None when nothing is asked (only `first: 0` groups), or no parent has a key that can match. Missing key values group as null, as the response shows them.
 */
export function aggregatePipelines(aggregate: AggregateField, request: AggregateRequest, parentKeys: readonly unknown[] | undefined): Array<{ readonly part: AggregatePart; readonly pipeline: StoredDocument[]; readonly documents: number }> {
  const link = aggregate.parentLink;
  const matching = (keyMatch: StoredDocument | undefined): StoredDocument => {
    const conditions = [keyMatch, request.filter].filter((part): part is StoredDocument => part !== undefined);
    return { $match: conditions.length === 0 ? {} : conditions.length === 1 ? conditions[0]! : { $and: conditions } };
  };
  if (!link) return aggregateParts(request, [matching(undefined)], null, 1);
  // A parent key shaped like an operator (`{ $gt: "" }`) has no children, as in a join: `$in` would refuse it.
  const single = (parentKeys ?? []).filter((key) => !Array.isArray(key) && isInOperand(key));
  const parts = single.length === 0 ? [] : aggregateParts(request, [matching({ [link.foreignField]: { $in: single } }), ...byEachParent(link.foreignField, single)], `$${PARENT_KEY}`, parentKeys?.length ?? 0);
  // A parent holding several keys (an array) has the children of any, each once, as its list does: its own aggregates.
  for (const several of (parentKeys ?? []).filter(Array.isArray)) {
    const any = parentKeysOf(several).filter(isInOperand);
    if (any.length > 0) parts.push(...aggregateParts(request, [matching({ [link.foreignField]: { $in: any } }), { $addFields: { [PARENT_KEY]: { $literal: several } } }], `$${PARENT_KEY}`, 1));
  }
  return parts;
}

/** The set's figures and each groupBy's groups of the children `matched` brings, by `parent` (null: one set in all). */
function aggregateParts(request: AggregateRequest, matched: readonly StoredDocument[], parent: string | null, parents: number): Array<{ part: AggregatePart; pipeline: StoredDocument[]; documents: number }> {
  const parts: Array<{ part: AggregatePart; pipeline: StoredDocument[]; documents: number }> = [];
  if (request.totals) parts.push({ part: { kind: 'totals' }, pipeline: [...matched, { $group: { _id: parent, ...accumulators(request.totals) } }], documents: parents });
  request.groups.forEach((group, index) => {
    if (group.first > 0) parts.push({ part: { kind: 'groups', index }, pipeline: [...matched, ...groupStages(group, parent)], documents: parents });
  });
  return parts;
}

/** Where a child's parent key is put for its `$group`, one document per parent it lists. */
const PARENT_KEY = '_docjoin_parent';

/**
 * A child once for each parent among `parentKeys` it lists at `foreignField` (eachParentKeyOnce).
 */
function byEachParent(foreignField: string, parentKeys: readonly unknown[]): StoredDocument[] {
  return [
    { $addFields: { [PARENT_KEY]: eachParentKeyOnce(foreignField) } },
    { $unwind: `$${PARENT_KEY}` },
    { $match: { [PARENT_KEY]: { $in: [...parentKeys] } } },
  ];
}

function groupStages(group: GroupSelection, parent: string | null): StoredDocument[] {
  const key = Object.fromEntries(group.by.map((field) => [field.value, { $ifNull: [`$${field.path}`, null] }]));
  const order: Record<string, 1 | -1> = {};
  if (group.order === 'COUNT_DESC') order.count = -1;
  if (group.order === 'COUNT_ASC') order.count = 1;
  for (const field of group.by) order[`_id.k.${field.value}`] = 1;
  const grouped = { $group: { _id: parent === null ? { k: key } : { p: parent, k: key }, ...accumulators(group) } };
  // In one document per parent (a root list: one in all), ordered there: a $unionWith branch's documents come in no set order.
  return [grouped, { $group: { _id: parent === null ? null : '$_id.p', groups: { $topN: { n: group.first, sortBy: order, output: '$$ROOT' } } } }];
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
 * The replies of aggregatePipelines (one per part, in its order), per parent (by its key; the key is
 * null for a root list). A parent with no children gets the figures of an empty set: count and sums 0,
 * the rest null, and no group.
 */
export function readAggregateReplies(aggregate: AggregateField, request: AggregateRequest, replies: ReadonlyArray<{ readonly part: AggregatePart; readonly rows: readonly StoredDocument[] }>): (parentKey: unknown) => AggregateValue {
  const byParent = (rows: readonly StoredDocument[]) => new Map(rows.map((row) => [keyString(aggregate.parentLink ? row._id : null), row]));
  const totals = byParent(replies.filter((reply) => reply.part.kind === 'totals').flatMap((reply) => reply.rows));
  const groups = request.groups.map((group, index) => {
    const rows = replies.filter((reply) => reply.part.kind === 'groups' && reply.part.index === index).flatMap((reply) => reply.rows);
    return new Map(rows.map((row) => [keyString(aggregate.parentLink ? row._id : null), (row.groups as StoredDocument[]).map((entry) => groupValue(group, entry))]));
  });
  return (parentKey) => {
    const key = keyString(aggregate.parentLink ? parentKey : null);
    return { ...figuresValue(request.totals, totals.get(key)), groups: groupsByResponseKey(request, (_group, index) => groups[index]!.get(key) ?? []) };
  };
}

function groupValue(group: GroupSelection, row: StoredDocument): GroupValue {
  const stored = (row._id as { k?: StoredDocument }).k ?? {};
  const key: Record<string, unknown> = {};
  for (const field of group.by) key[field.fieldName] = figureValue(field.scalar, stored[field.value], 'stored');
  return { ...figuresValue(group, row), key };
}

/** The figures of one `$group` row; an empty set's when there is no row. */
export function figuresValue(selection: FigureSelection | undefined, row: StoredDocument | undefined): FiguresValue {
  const sum: Record<string, unknown> = {};
  const avg: Record<string, unknown> = {};
  const min: Record<string, unknown> = {};
  const max: Record<string, unknown> = {};
  for (const figure of selection?.sum ?? []) sum[figure.fieldName] = figureValue(sumType(figure.scalar), row?.[`sum_${figure.fieldName}`], 'added') ?? 0;
  for (const figure of selection?.avg ?? []) avg[figure.fieldName] = figureValue(averageType(figure.scalar), row?.[`avg_${figure.fieldName}`], 'added');
  for (const figure of selection?.min ?? []) min[figure.fieldName] = figureValue(figure.scalar, row?.[`min_${figure.fieldName}`], 'stored');
  for (const figure of selection?.max ?? []) max[figure.fieldName] = figureValue(figure.scalar, row?.[`max_${figure.fieldName}`], 'stored');
  return { count: toNumber(row?.count) ?? 0, sum, avg, min, max };
}

/**
 * A figure or key as MongoDB gave it: a Long's or a Decimal's kept for its scalar to write exactly, others
 * as responseValue. One its type cannot hold answers VALUE_OUT_OF_RANGE at its field: a sum (or a mean)
 * whose values add up past the type's range, or a stored infinity.
 */
function figureValue(type: string, value: unknown, from: 'added' | 'stored'): unknown {
  // MongoDB turns a sum of longs past 64 bits into a double: no longer a Long, nor exact. So is a sum
  // that meets a double stored in the field: past 2^53 its doubles are rounded.
  if (type === 'Long' && from === 'added' && typeof value === 'number' && !Number.isSafeInteger(value)) {
    return valueOutOfRange(
      Math.abs(value) >= 2 ** 63
        ? `the figure is about ${value.toExponential(2)}: the values add up past a Long's range (±9.2e18); aggregate a Decimal field for figures this large`
        : `the figure is about ${value.toExponential(2)}, added by MongoDB as a double because some stored values are doubles, so it is not exact as a Long; store them as Longs, or aggregate a Decimal field`,
    );
  }
  if (type === 'Long' && bsonType(value) === 'Decimal128' && !representable(LongScalar, value)) {
    const why = from === 'added' ? 'added by MongoDB as a Decimal128 because some stored values are Decimal128s' : 'a stored Decimal128';
    return valueOutOfRange(`the figure is ${String(value)}, ${why}, not a whole number a Long holds; store them as Longs, or declare the field Decimal`);
  }
  if (EXACT_SCALARS.has(type)) return value === undefined || value === null ? null : value;
  const figure = responseValue(value);
  if (typeof figure !== 'number' || Number.isFinite(figure)) return figure;
  // A sum of doubles past ±1.8e308 is Infinity in MongoDB, and a double may be stored as one; NaN comes
  // from a stored NaN, or from infinities of both signs added.
  if (from === 'stored') return valueOutOfRange(`the figure is ${String(figure)}, a stored value ${type} cannot hold (JSON has no ${Number.isNaN(figure) ? 'NaN' : 'infinity'})`);
  return valueOutOfRange(
    Number.isNaN(figure)
      ? 'the figure is NaN: the values include a stored NaN, or infinities of both signs (JSON has no NaN)'
      : `the figure is ${String(figure)}: the values add up past the largest double (±1.8e308); aggregate a Decimal field for figures this large`,
  );
}

/** Whether `scalar` serializes `value` (a Long does a Decimal128 holding a whole number within 64 bits). */
function representable(scalar: GraphQLScalarType, value: unknown): boolean {
  try {
    scalar.serialize(value);
    return true;
  } catch {
    return false;
  }
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

/** A stored value as GraphQL serializes it: numbers from BSON number types, ids as hex, the rest as stored. */
function responseValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (isObjectId(value)) return value.toHexString();
  if (isBsonNumber(value)) return toNumber(value);
  return value;
}
