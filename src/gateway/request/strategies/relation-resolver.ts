import type { GraphQLFieldResolver } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { InvariantError } from '../../errors/internal-errors';
import type { StoredDocument } from '../../documents/stored-document';
import type { PageArgs } from '../../operation/planning/page-request';
import { requestedList, strategyForRequest, type RequestedList } from '../../operation/planning/requested-list';
import type { ReadStrategy, RelationField } from '../../startup/storage-map/storage-map-types';
import { readPath } from '../../documents/read-path';
import { handedOut } from '../loaders/projected-read';
import { resolveConnection } from './connection';
import { resolveEmbedded } from './embedded';
import { resolveJoin } from './join';
import { resolveLookup } from './lookup';
import type { PlannedLookup } from '../../operation/planning/lookup-read';
import type { RelationRequest, RelationValue } from './resolver-types';
import { resolveSnapshot } from './snapshot';
import { isPromise } from '../execution/is-promise';

/** The resolver of one relation field: picks the request's strategy and hands over to its module. */
export function createRelationResolver(field: RelationField): GraphQLFieldResolver<StoredDocument, GatewayContext, PageArgs & Readonly<Record<string, unknown>>> {
  // docjoin's own execution hands every parent of a level the same arguments object: read it once.
  // graphql-js makes one per call, so only the last one is kept (no table to fill per parent).
  let lastArgs: object | undefined;
  let lastRequested: RequestedList | undefined;
  return (parent, args, context, info) => {
    // A copy (snapshot, embedded array) shows the target without the read the funnel filters: its type is checked here.
    if (context.access && !context.access.canRead(field.targetType)) throw context.access.refuseRead(field.targetType);
    if (args !== lastArgs || !lastRequested) {
      lastRequested = requestedList(field, args);
      lastArgs = args;
    }
    const requested = lastRequested;
    const chosen = strategyForRequest(field, context.strategyFor(field), requested);
    const joined = chosen === 'lookup' ? lookedUp(parent, context.lookupFor(info, field, args)) : undefined;
    const strategy = chosen === 'lookup' && !joined ? 'join' : strategyForParent(field, chosen, parent, context);
    const request: RelationRequest = { field, parent, args, requested, context, info, cost: context.ledger.field(field.coordinate, strategy, { parent, at: info.fieldNodes }) };
    const value = resolveWith(strategy, request, joined);
    const count = (resolved: unknown): unknown => {
      context.countResponse(info, resolved);
      return resolved;
    };
    return isPromise(value) ? value.then(count) : count(value);
  };
}

function resolveWith(strategy: ReadStrategy, request: RelationRequest, joined: readonly StoredDocument[] | undefined): RelationValue {
  const { field } = request;
  // A connection is declared on a reverse join only (build-storage-map.ts).
  if (field.connection) return resolveConnection(required(field, field.shapes.join), request);
  switch (strategy) {
    case 'embedded':
      return resolveEmbedded(required(field, field.shapes.embedded), request);
    case 'join':
      return resolveJoin(required(field, field.shapes.join), request);
    case 'snapshot':
      return resolveSnapshot(required(field, field.shapes.snapshot), request);
    case 'lookup':
      return resolveLookup(required(field, field.shapes.join), request, joined!);
    default: {
      const never: never = strategy;
      throw new InvariantError(`unknown strategy ${String(never)} for ${field.coordinate}`);
    }
  }
}

/**
 * A parent written before its embedded copy was declared (a bounded array not yet backfilled) has no
 * copy at all, which is not an empty one: its children are read by the join the copy stands for. So is
 * every parent while `docjoin migrate` backfills the copy: a write may have started one from nothing.
 * Only a reverse join, whose key (the parent's `_id`) every projection holds.
 */
function strategyForParent(field: RelationField, strategy: ReadStrategy, parent: StoredDocument, context: GatewayContext): ReadStrategy {
  const { embedded, join } = field.shapes;
  if (strategy !== 'embedded' || !embedded || join?.direction !== 'byReference' || join.localField !== '_id') return strategy;
  return readPath(parent, embedded.path) === undefined || context.copyBackfilling(field.coordinate) ? 'join' : strategy;
}

/**
 * The documents the parent's read looked up for this page; undefined when it was read without that
 * lookup (by a hand-written resolver, from a copy or an element no lookup reaches, after an anchor): then joined.
 */
function lookedUp(parent: StoredDocument, planned: PlannedLookup | undefined): readonly StoredDocument[] | undefined {
  if (!planned) return undefined;
  return handedOut(parent, planned.as);
}

/** Overrides are validated against declared shapes, so a missing shape here is a bug. */
function required<T>(field: RelationField, shape: T | undefined): T {
  if (shape === undefined) throw new InvariantError(`${field.coordinate} has no shape for its strategy`);
  return shape;
}
