import { getArgumentValues, GraphQLError } from 'graphql';
import type { StoredDocument } from '../../documents/stored-document';
import { badUserInput } from '../../errors/public-error-code';
import { DEFAULT_GROUPS, GROUP_ORDERS, MAX_GROUPS, type GroupOrder } from '../../startup/aggregates/aggregate-names';
import type { AggregateField, AggregateFigure, AggregateKey } from '../../startup/storage-map/storage-map-types';
import type { FieldStep, SelectionStep } from '../plan/selection-tree';
import { conditionFilters, toMongoFilter } from './list-filter';

/** The figures a selection of an aggregate (or of one of its groups) asks for. */
export interface FigureSelection {
  readonly count: boolean;
  readonly sum: readonly AggregateFigure[];
  readonly avg: readonly AggregateFigure[];
  readonly min: readonly AggregateFigure[];
  readonly max: readonly AggregateFigure[];
}

/** One `groupBy` response key: its groups' key fields, how many and in what order, and their figures. */
export interface GroupSelection extends FigureSelection {
  readonly responseKey: string;
  readonly by: readonly AggregateKey[];
  readonly first: number;
  readonly order: GroupOrder;
  /** Its arguments are refused (an empty `by`, a `first` out of range): the groupBy field fails with it, and nothing is read for it. */
  readonly refusal: GraphQLError | undefined;
}

/** What one `@aggregate` field's selection and arguments ask MongoDB for, the same for every parent of a level. */
export interface AggregateRequest {
  /** The set's own figures; undefined when only groups are selected. */
  readonly totals: FigureSelection | undefined;
  readonly groups: readonly GroupSelection[];
  /** The list's filter arguments as one condition; undefined when none is given. */
  readonly filter: StoredDocument | undefined;
  /** Tells requests apart in loader keys: same signature, same pipeline for the same parents. */
  readonly signature: string;
  /**
   * What it reads, for workload capture, sorted: `count`, `sum.total`…, `groupBy`, and `filtered` when
   * a filter is given. `['count']` alone is what a `@counter` of the list would answer.
   */
  readonly reads: readonly string[];
  /** `reads` with `narrowed`: what a read records when an access rule hides some of the children (no counter could answer it). */
  readonly narrowedReads: readonly string[];
}

const FIGURES = ['sum', 'avg', 'min', 'max'] as const;

/**
 * The request of an aggregate field's step (its arguments coerced with `variableValues`). A `groupBy`
 * with an empty `by` or a `first` outside 0…MAX_GROUPS carries its BAD_USER_INPUT refusal and asks for
 * nothing; a filter value the list refuses throws BAD_USER_INPUT.
 */
export function planAggregateRequest(aggregate: AggregateField, step: FieldStep, args: Readonly<Record<string, unknown>>, variableValues: Readonly<Record<string, unknown>>): AggregateRequest {
  const filters = conditionFilters(aggregate.conditions, args);
  const filter = filters.length === 0 ? undefined : toMongoFilter(filters);
  let totals: FigureSelection | undefined;
  const groups: GroupSelection[] = [];
  for (const selection of step.children) {
    for (const field of selection.fields) {
      if (field.fieldName === 'groupBy') groups.push(groupSelection(aggregate, field, variableValues));
      else if (field.fieldName !== '__typename') totals = mergeFigures(totals, figureSelection(aggregate, [{ type: selection.type, fields: [field] }]));
    }
  }
  const signature = JSON.stringify([filter ?? null, totals && figureSignature(totals), groups.map((group) => [group.responseKey, group.by.map((key) => key.value), group.first, group.order, figureSignature(group)])]);
  const reads = Object.freeze(
    [...new Set([...(totals ? figureNames(totals) : []), ...groups.flatMap((group) => ['groupBy', ...figureNames(group)]), ...(filter ? ['filtered'] : [])])].sort(),
  );
  return { totals, groups, filter, signature, reads, narrowedReads: Object.freeze([...reads, 'narrowed'].sort()) };
}

function figureNames(figures: FigureSelection): string[] {
  return [...(figures.count ? ['count'] : []), ...FIGURES.flatMap((name) => figures[name].map((figure) => `${name}.${figure.fieldName}`))];
}

function groupSelection(aggregate: AggregateField, step: FieldStep, variableValues: Readonly<Record<string, unknown>>): GroupSelection {
  // `key` and `count` cost nothing more: every group has both.
  const figures = figureSelection(aggregate, step.children.map((child) => ({ type: child.type, fields: child.fields.filter((field) => field.fieldName !== 'key') })));
  const refused = (refusal: GraphQLError, order: GroupOrder = 'KEYS'): GroupSelection => ({ responseKey: step.responseKey, by: [], first: 0, order, ...figures, refusal });
  let args: { by?: unknown; first?: unknown; order?: unknown };
  try {
    args = getArgumentValues(step.definition!, step.fieldNodes[0]!, variableValues as Record<string, unknown>);
  } catch (error) {
    // An argument that does not coerce (a null variable for `by: [X!]!`) fails the groupBy field, where
    // graphql-js reports it, not the aggregate field planning it.
    if (error instanceof GraphQLError) return refused(error);
    throw error;
  }
  const values = Array.isArray(args.by) ? [...new Set(args.by as string[])] : [];
  // Null, as graphql-js passes an explicit null, asks for the default as well.
  const first = args.first === null || args.first === undefined ? DEFAULT_GROUPS : (args.first as number);
  const order = GROUP_ORDERS.includes(args.order as GroupOrder) ? (args.order as GroupOrder) : 'KEYS';
  // Refused where graphql-js would refuse a field's arguments: at the groupBy, which then asks for nothing.
  if (values.length === 0) return refused(badUserInput(`${step.coordinate}(by:) needs at least one field to group by`, { argumentName: 'by' }), order);
  if (!Number.isInteger(first) || first < 0 || first > MAX_GROUPS) return refused(badUserInput(`${step.coordinate}(first:) must be between 0 and ${MAX_GROUPS}, got ${first}`, { argumentName: 'first' }), order);
  return { responseKey: step.responseKey, by: values.map((value) => aggregate.keys.get(value)!), first, order, ...figures, refusal: undefined };
}

function figureSelection(aggregate: AggregateField, selections: readonly SelectionStep[]): FigureSelection {
  let count = false;
  const chosen: Record<(typeof FIGURES)[number], Set<AggregateFigure>> = { sum: new Set(), avg: new Set(), min: new Set(), max: new Set() };
  for (const selection of selections) {
    for (const field of selection.fields) {
      if (field.fieldName === 'count') count = true;
      const figure = FIGURES.find((name) => name === field.fieldName);
      if (!figure) continue;
      for (const below of field.children.flatMap((child) => child.fields)) {
        const stored = aggregate.figures.get(below.fieldName);
        if (stored) chosen[figure].add(stored);
      }
    }
  }
  return { count, sum: [...chosen.sum], avg: [...chosen.avg], min: [...chosen.min], max: [...chosen.max] };
}

function mergeFigures(a: FigureSelection | undefined, b: FigureSelection): FigureSelection {
  if (!a) return b;
  const union = (x: readonly AggregateFigure[], y: readonly AggregateFigure[]) => [...new Set([...x, ...y])];
  return { count: a.count || b.count, sum: union(a.sum, b.sum), avg: union(a.avg, b.avg), min: union(a.min, b.min), max: union(a.max, b.max) };
}

function figureSignature(figures: FigureSelection): string {
  return [figures.count ? 'count' : '', ...FIGURES.map((name) => `${name}:${figures[name].map((figure) => figure.fieldName).join(',')}`)].join('|');
}

/** The aggregates the request sends (aggregate-pipeline.ts): the set's figures, and one per groupBy asking for any group. */
export function aggregateParts(request: AggregateRequest): number {
  return (request.totals ? 1 : 0) + request.groups.filter((group) => group.first > 0).length;
}

/** Whether the request asks MongoDB for nothing: no figure of the set, and no group (`first: 0` only). */
export function asksNothing(request: AggregateRequest): boolean {
  return request.totals === undefined && request.groups.every((group) => group.first === 0);
}

/** The parent's stored fields that answer a request: its counter for `count`, its totals by summed field for `sum` and `avg`. */
export interface StoredFigurePaths {
  readonly counter: { readonly coordinate: string; readonly path: string } | undefined;
  readonly totals: ReadonlyMap<string, { readonly coordinate: string; readonly path: string }>;
}

/** The counter and totals a stored answer reads: none may be trusted while `docjoin migrate` backfills it. */
export function storedFigureCoordinates(stored: StoredFigurePaths): string[] {
  return [...(stored.counter ? [stored.counter.coordinate] : []), ...[...stored.totals.values()].map(({ coordinate }) => coordinate)];
}

/**
 * The parent's `@counter` and `@total`s that answer all of `request`, or undefined when they do not:
 * a reverse join's unfiltered set's figures (at least one), no group asked for (`first: 0` asks none), no min or max, a count only with a counter, a sum only with
 * an exact total of its field, a mean only with both and a non-null field (one the count covers). (Who may see every child is the caller's to check.)
 */
export function storedFigurePaths(aggregate: AggregateField, request: AggregateRequest): StoredFigurePaths | undefined {
  const { totals } = request;
  if (!aggregate.parentLink || !totals || request.groups.some((group) => group.first > 0) || request.filter !== undefined || totals.min.length > 0 || totals.max.length > 0) return undefined;
  // A selection of no figure (`max { __typename }`) is still an aggregate, sent as graphql-js would resolve it.
  if (!totals.count && totals.sum.length === 0 && totals.avg.length === 0) return undefined;
  const { counter } = aggregate;
  if ((totals.count || totals.avg.length > 0) && !counter) return undefined;
  const paths = new Map<string, { readonly coordinate: string; readonly path: string }>();
  for (const figure of totals.sum) {
    const total = aggregate.totals.get(figure.fieldName);
    if (!total) return undefined;
    paths.set(figure.fieldName, total);
  }
  for (const figure of totals.avg) {
    const total = aggregate.totals.get(figure.fieldName);
    if (!total?.averages) return undefined;
    paths.set(figure.fieldName, total);
  }
  return { counter: totals.count || totals.avg.length > 0 ? counter : undefined, totals: paths };
}
