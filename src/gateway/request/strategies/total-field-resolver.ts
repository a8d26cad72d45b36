import type { GraphQLFieldResolver } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { numericWidth } from '../../../bson/bson-number';
import { isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import type { TotalSum } from '../../operation/planning/total-sum';
import type { StoredDocument } from '../../documents/stored-document';

/**
 * A `@total` field: its stored value, except where that cannot be trusted, as for a `@counter`
 * (counter-field-resolver.ts): a parent written before the total was declared has none, and while
 * `docjoin migrate` backfills it a stored value may be one a write started from nothing. Those parents
 * are summed by query instead: ONE aggregate for the level's parents, on the figures loader.
 */
export function createTotalFieldResolver(sum: TotalSum, path: string): GraphQLFieldResolver<StoredDocument, GatewayContext> {
  const { aggregate, request } = sum;
  const figure = request.totals!.sum[0]!.fieldName;
  return async (parent, _args, context) => {
    const stored = readPath(parent, path);
    if (numericWidth(stored) !== undefined && !context.copyBackfilling(aggregate.coordinate)) return stored;
    const parentKey = readPath(parent, aggregate.parentLink!.localField);
    if (!isKeyValue(parentKey)) return stored;
    const cost = context.ledger.field(aggregate.coordinate, 'join');
    cost.keys(1);
    cost.selection(request.reads);
    const value = await context.loaders.figures(aggregate, request).load({ parentKey });
    return value.sum[figure];
  };
}
