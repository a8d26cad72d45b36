import type { GraphQLFieldResolver } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { figuresValue, groupsByResponseKey, type AggregateValue, type GroupValue } from '../../operation/planning/aggregate-pipeline';
import { asksNothing, storedFigureCoordinates, storedFigurePaths, type AggregateRequest } from '../../operation/planning/aggregate-request';
import { divide, numericWidth } from '../../../bson/bson-number';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { StoredDocument } from '../../documents/stored-document';

/**
 * An `@aggregate` field: its figures for one parent (or for the root list), from the level's ONE
 * aggregate (request/loaders/figures-loader.ts). Unfiltered figures that the parent's `@counter` and
 * `@total`s of the list hold are read from the parent instead, with no command, unless one of them is
 * being backfilled or an access rule narrows which children this request may see (they count them all).
 */
export function createAggregateResolver(aggregate: AggregateField): GraphQLFieldResolver<StoredDocument | undefined, GatewayContext> {
  return (parent, args: Readonly<Record<string, unknown>>, context, info) => {
    // Refused as a relation to the type is, whether or not the selection makes it read anything.
    if (context.access && !context.access.canRead(aggregate.targetType)) throw context.access.refuseRead(aggregate.targetType);
    const request = context.aggregateRequest(info, aggregate, args);
    if (asksNothing(request)) return emptyAggregate(request);
    let parentKey: unknown = null;
    if (aggregate.parentLink) {
      parentKey = readPath(parent, aggregate.parentLink.localField);
      if (!isKeyValue(parentKey)) return emptyAggregate(request);
      const stored = figuresFromParent(aggregate, request, parent!, context);
      if (stored !== undefined) {
        context.ledger.field(aggregate.coordinate, 'embedded');
        return stored;
      }
    }
    const cost = context.ledger.field(aggregate.coordinate, 'join');
    cost.keys(1);
    cost.selection(context.access?.readsEveryRow(aggregate.collection) === false ? request.narrowedReads : request.reads);
    return context.loaders.figures(aggregate, request).load({ parentKey });
  };
}

/** `TAggregate.groupBy`: the groups its response key asked for, read with the rest of the aggregate. */
export const resolveAggregateGroups: GraphQLFieldResolver<AggregateValue, GatewayContext> = (value, _args, context, info): readonly GroupValue[] => {
  const groups = value.groups[String(info.path.key)] ?? [];
  if (groups instanceof Error) throw groups;
  context.countResponse(info, groups);
  return groups;
};

/**
 * The figures the parent's `@counter` and `@total`s hold, when they answer the whole request
 * (storedFigurePaths) and may be trusted: none of them being backfilled, every child readable by the
 * viewer (they count them all), and every stored figure a number. A mean is the total over the count.
 */
function figuresFromParent(aggregate: AggregateField, request: AggregateRequest, parent: StoredDocument, context: GatewayContext): AggregateValue | undefined {
  const paths = storedFigurePaths(aggregate, request);
  if (!paths || storedFigureCoordinates(paths).some((coordinate) => context.copyBackfilling(coordinate))) return undefined;
  // Throws FORBIDDEN when the children may not be read at all, as the aggregate would.
  if (context.access?.filterFor(aggregate.collection) !== undefined) return undefined;
  const count = paths.counter ? readPath(parent, paths.counter.path) : 0;
  if (typeof count !== 'number') return undefined;
  const row: StoredDocument = { count };
  for (const [fieldName, { path }] of paths.totals) {
    const total = readPath(parent, path);
    if (numericWidth(total) === undefined) return undefined;
    row[`sum_${fieldName}`] = total;
    row[`avg_${fieldName}`] = count === 0 ? null : divide(total, count);
  }
  // Its groups ask for nothing (`first: 0`), or were refused: their answers, or their errors, need no read.
  return { ...figuresValue(request.totals, row), groups: groupsByResponseKey(request, () => []) };
}

function emptyAggregate(request: AggregateRequest): AggregateValue {
  return { ...figuresValue(request.totals, undefined), groups: groupsByResponseKey(request, () => []) };
}
