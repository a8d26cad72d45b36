import type { GraphQLFieldResolver } from 'graphql';
import { ObjectId } from 'bson';
import type { FieldCondition, FilterValue, RootFilter } from '../context/documents-api';
import type { GatewayContext } from '../context/request-context';
import { objectIdArgument } from '../documents/object-id-argument';
import { badUserInput } from '../errors/public-error-code';
import { InvariantError } from '../errors/internal-errors';
import { listSort, type FindRootField, type ListRootField, type RootCondition, type RootField, type StorageMap } from '../storage-map/storage-map-types';

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
    (resolvers[typeName] ??= {})[root.fieldName] = resolverFor(root);
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
  return (_parent, args, context, info) => context.documents.findOne(info, root.targetType, filtersOf(root.conditions, args));
}

function listResolver(root: ListRootField): RootResolver {
  return (_parent, args, context, info) => {
    const sort = listSort(root, args);
    if (!sort) throw new InvariantError(`${root.coordinate}: orderBy ${String(args[root.orderBy!.argumentName])} has no sort`);
    return context.documents.findPage(info, root.targetType, {
      filter: filtersOf(root.conditions, args),
      sort,
      first: args.first as number | null | undefined,
      after: args.after as string | null | undefined,
    });
  };
}

/** One filter per given argument (an argument left out or null filters nothing). */
function filtersOf(conditions: readonly RootCondition[], args: Readonly<Record<string, unknown>>): RootFilter[] {
  const filters: RootFilter[] = [];
  for (const condition of conditions) {
    const value = args[condition.argumentName];
    if (value === undefined || value === null) continue;
    filters.push({ [condition.path]: fieldCondition(condition, value) });
  }
  return filters;
}

function fieldCondition(condition: RootCondition, value: unknown): FieldCondition {
  if (condition.op === 'IN') return { in: (value as readonly unknown[]).map((item) => filterValue(condition, item)) };
  const operand = filterValue(condition, value);
  switch (condition.op) {
    case 'EQ':
      return operand;
    case 'NE':
      return { ne: operand };
    case 'LT':
      return { lt: operand };
    case 'LTE':
      return { lte: operand };
    case 'GT':
      return { gt: operand };
    case 'GTE':
      return { gte: operand };
    case 'PREFIX':
      return { prefix: String(operand) };
    default: {
      const never: never = condition.op;
      throw new InvariantError(`unknown filter op ${String(never)}`);
    }
  }
}

/** An argument value as MongoDB compares it: IDs of ObjectId fields become ObjectIds (BAD_USER_INPUT otherwise). */
function filterValue(condition: RootCondition, value: unknown): FilterValue {
  if (condition.objectId) return objectIdArgument(value, condition.argumentName);
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value) || value instanceof Date || value instanceof ObjectId) return value as FilterValue;
  throw badUserInput(`${condition.argumentName} must be a plain value, got ${JSON.stringify(value)}`, { argumentName: condition.argumentName });
}
