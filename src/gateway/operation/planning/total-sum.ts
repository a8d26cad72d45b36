import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { TotalRule } from '../../startup/write-model/write-model-types';
import type { AggregateRequest } from './aggregate-request';

/** How a `@total` field is summed by query instead of read: as the list's aggregate would, for its one figure. */
export interface TotalSum {
  /** An aggregate over the summed list, keyed by the total's coordinate, computing nothing but the sum. */
  readonly aggregate: AggregateField;
  readonly request: AggregateRequest;
}

/**
 * The sum a total stands for, as the figures loader computes it for every parent of a level in ONE
 * aggregate: the children holding the parent's key, `$group`ed by it, `$sum` of the summed field (read
 * while `docjoin migrate` backfills the total, or where a parent has none stored).
 */
export function totalSum(rule: TotalRule): TotalSum {
  const figure = { fieldName: rule.summedField, path: rule.summedPath, numeric: true, scalar: rule.summedScalar };
  const [typeName, fieldName] = rule.coordinate.split('.') as [string, string];
  const aggregate: AggregateField = {
    typeName,
    fieldName,
    coordinate: rule.coordinate,
    list: rule.of,
    targetType: rule.childType,
    collection: rule.childCollection,
    parentLink: { localField: rule.parentKey, foreignField: rule.childKey },
    conditions: [],
    counter: undefined,
    totals: new Map(),
    figures: new Map([[figure.fieldName, figure]]),
    keys: new Map(),
  };
  const reads = Object.freeze([`sum.${rule.summedField}`]);
  const request: AggregateRequest = {
    totals: { count: false, sum: [figure], avg: [], min: [], max: [] },
    groups: [],
    filter: undefined,
    signature: `total:${rule.summedField}`,
    reads,
    narrowedReads: Object.freeze([...reads, 'narrowed'].sort()),
  };
  return { aggregate, request };
}
