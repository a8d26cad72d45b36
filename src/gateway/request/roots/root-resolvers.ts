import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import { InvariantError } from '../../errors/internal-errors';
import { conditionFilters } from '../../operation/planning/list-filter';
import { createAggregateResolver } from '../strategies/aggregate-resolver';
import { listSort, type FindRootField, type ListRootField, type RootField, type StorageMap } from '../../startup/storage-map/storage-map-types';

type RootResolver = GraphQLFieldResolver<unknown, GatewayContext, Readonly<Record<string, unknown>>>;

/**
 * Resolvers of the generated root fields (`@find`, `@list`), by type and field name. Each is ONE find
 * through `context.documents` (projection pushdown, loader priming), plus the anchor read of a page
 * `after` an item of a list whose order does not start with `_id`.
 */
export function buildRootResolvers(storageMap: StorageMap): Record<string, Record<string, RootResolver>> {
  const resolvers: Record<string, Record<string, RootResolver>> = {};
  for (const root of storageMap.roots.values()) {
    const typeName = root.coordinate.slice(0, root.coordinate.indexOf('.'));
    (resolvers[typeName] ??= Object.create(null))[root.fieldName] = resolverFor(root);
  }
  for (const aggregate of storageMap.aggregates.values()) {
    if (!aggregate.parentLink) (resolvers[aggregate.typeName] ??= Object.create(null))[aggregate.fieldName] = createAggregateResolver(aggregate) as RootResolver;
  }
  return resolvers;
}

function resolverFor(root: RootField): RootResolver {
  switch (root.kind) {
    case 'find':
      return findResolver(root);
    case 'list':
      return listResolver(root);
    default: {
      const never: never = root;
      throw new InvariantError(`unknown root field ${JSON.stringify(never)}`);
    }
  }
}

function findResolver(root: FindRootField): RootResolver {
  return (_parent, args, context, info) => counted(context.documents.findOne(info, root.targetType, conditionFilters(root.conditions, args)), context, info);
}

function listResolver(root: ListRootField): RootResolver {
  return (_parent, args, context, info) => {
    const sort = listSort(root, args);
    if (!sort) throw new InvariantError(`${root.coordinate}: orderBy ${String(args[root.orderBy!.argumentName])} has no sort`);
    const page = { first: (args.first as number | null | undefined) ?? root.firstDefault, after: args.after as string | null | undefined };
    const filter = conditionFilters(root.conditions, args);
    const read = root.connection ? context.documents.findConnection(info, root.targetType, { filter, sort, ...page }) : context.documents.findPage(info, root.targetType, { filter, sort, ...page });
    return counted(read, context, info);
  };
}

/** What a root field read, once counted toward the response's size (GatewayContext.countResponse). */
async function counted(read: Promise<unknown>, context: GatewayContext, info: GraphQLResolveInfo): Promise<unknown> {
  const value = await read;
  context.countResponse(info, value);
  return value;
}
