import type { GraphQLFieldResolver } from 'graphql';
import { counterCount } from '../../operation/planning/batch-specs';
import type { StorageMap } from '../../startup/storage-map/storage-map-types';
import type { WriteModel } from '../../startup/write-model/write-model-types';
import { totalSum } from '../../operation/planning/total-sum';
import { createCounterFieldResolver } from './counter-field-resolver';
import { createTotalFieldResolver } from './total-field-resolver';
import { createRelationResolver } from './relation-resolver';
import { createStoredFieldResolver } from './stored-field-resolver';
import { createAggregateResolver, resolveAggregateGroups } from './aggregate-resolver';
import { aggregateTypeNames } from '../../startup/aggregates/aggregate-names';

export type FieldResolverMap = Record<string, Record<string, { resolve: GraphQLFieldResolver<never, never, never> }>>;

/**
 * Resolvers for every non-root field the storage map describes (`@aggregate` fields and the groups of
 * their types too; `@counter` and `@total` fields by their rules), in graphql-tools' resolver map shape.
 */
export function buildFieldResolvers(storageMap: StorageMap, rules: Pick<WriteModel, 'counters' | 'totals'>): FieldResolverMap {
  const resolvers: FieldResolverMap = {};
  const counterRules = new Map(rules.counters.map((rule) => [rule.coordinate, rule]));
  const totalRules = new Map(rules.totals.map((rule) => [rule.coordinate, rule]));
  for (const type of storageMap.types.values()) {
    for (const field of type.fields.values()) {
      const counter = counterRules.get(field.coordinate);
      const total = totalRules.get(field.coordinate);
      const resolve =
        field.kind === 'relation'
          ? createRelationResolver(field)
          : counter
            ? createCounterFieldResolver(counterCount(counter))
            : total
              ? createTotalFieldResolver(totalSum(total), total.path)
              : createStoredFieldResolver(field);
      if (resolve) (resolvers[type.typeName] ??= Object.create(null))[field.fieldName] = { resolve: resolve as GraphQLFieldResolver<never, never, never> };
    }
  }
  for (const aggregate of storageMap.aggregates.values()) {
    if (aggregate.parentLink) (resolvers[aggregate.typeName] ??= Object.create(null))[aggregate.fieldName] = { resolve: createAggregateResolver(aggregate) as GraphQLFieldResolver<never, never, never> };
    const names = aggregateTypeNames(aggregate.targetType);
    if (aggregate.keys.size > 0) (resolvers[names.aggregate] ??= Object.create(null)).groupBy = { resolve: resolveAggregateGroups as GraphQLFieldResolver<never, never, never> };
  }
  return resolvers;
}
