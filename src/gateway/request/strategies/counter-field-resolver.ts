import type { GraphQLFieldResolver } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import type { CounterCount } from '../../operation/planning/batch-specs';
import type { StoredDocument } from '../../documents/stored-document';

/**
 * A `@counter` field: its stored value, except where that cannot be trusted. A parent written before the
 * counter was declared has none, and while `docjoin migrate` backfills the counter (its marker in
 * docjoin_migrations) a stored value may be one a write started from nothing. Those parents are counted
 * by query instead: ONE count aggregate for the level's parents, on the loader a connection's totalCount
 * of the same children shares. A parent whose key the projection lacks (a key other than `_id`) keeps
 * its stored value, so a missing counter is refused as null rather than counted wrong.
 */
export function createCounterFieldResolver(counter: CounterCount): GraphQLFieldResolver<StoredDocument, GatewayContext> {
  return (parent, _args, context) => {
    const stored = readPath(parent, counter.path);
    if (typeof stored === 'number' && !context.copyBackfilling(counter.coordinate)) return stored;
    const parentKey = readPath(parent, counter.parentKey);
    if (!isKeyValue(parentKey)) return stored;
    context.ledger.field(counter.coordinate, 'join').keys(1);
    return context.loaders.countByReference(counter.spec).load({ parentKey, field: counter.coordinate });
  };
}
