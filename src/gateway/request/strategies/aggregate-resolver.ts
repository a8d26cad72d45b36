import type { GraphQLFieldResolver } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { figuresValue, groupsByResponseKey, type AggregateValue, type GroupValue } from '../../operation/planning/aggregate-pipeline';
import { asksNothing, asksOnlyCount, type AggregateRequest } from '../../operation/planning/aggregate-request';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { StoredDocument } from '../../documents/stored-document';

/**
 * An `@aggregate` field: its figures for one parent (or for the root list), from the level's ONE
 * aggregate (request/loaders/figures-loader.ts). An unfiltered count that the parent's `@counter` of the
 * list holds is read from the parent instead, with no command, unless the counter is being backfilled or
 * an access rule narrows which children this request may see (the counter counts them all).
 */
export function createAggregateResolver(aggregate: AggregateField): GraphQLFieldResolver<StoredDocument | undefined, GatewayContext> {
  return (parent, args: Readonly<Record<string, unknown>>, context, info) => {
    const request = context.aggregateRequest(info, aggregate, args);
    if (asksNothing(request)) return emptyAggregate(request);
    let parentKey: unknown = null;
    if (aggregate.parentLink) {
      parentKey = readPath(parent, aggregate.parentLink.localField);
      if (!isKeyValue(parentKey)) return emptyAggregate(request);
      const counted = countFromCounter(aggregate, request, parent!, context);
      if (counted !== undefined) {
        context.ledger.field(aggregate.coordinate, 'embedded');
        return counted;
      }
    }
    const cost = context.ledger.field(aggregate.coordinate, 'join');
    cost.keys(1);
    cost.selection(context.access?.readsEveryRow(aggregate.collection) === false ? request.narrowedReads : request.reads);
    return context.loaders.figures(aggregate, request).load({ parentKey });
  };
}

/** `TAggregate.groupBy`: the groups its response key asked for, read with the rest of the aggregate. */
export const resolveAggregateGroups: GraphQLFieldResolver<AggregateValue, GatewayContext> = (value, _args, _context, info): readonly GroupValue[] => {
  const groups = value.groups[String(info.path.key)] ?? [];
  if (groups instanceof Error) throw groups;
  return groups;
};

function countFromCounter(aggregate: AggregateField, request: AggregateRequest, parent: StoredDocument, context: GatewayContext): AggregateValue | undefined {
  const { counter } = aggregate;
  if (!counter || !asksOnlyCount(request) || context.copyBackfilling(counter.coordinate)) return undefined;
  // Throws FORBIDDEN when the children may not be read at all, as the aggregate would.
  if (context.access?.filterFor(aggregate.collection) !== undefined) return undefined;
  const stored = readPath(parent, counter.path);
  return typeof stored === 'number' ? { ...figuresValue(request.totals, undefined), count: stored, groups: {} } : undefined;
}

function emptyAggregate(request: AggregateRequest): AggregateValue {
  return { ...figuresValue(request.totals, undefined), groups: groupsByResponseKey(request, () => []) };
}
