import type { GraphQLFieldResolver } from 'graphql';
import type { StorageMap } from '../storage-map/storage-map-types';
import { createRelationResolver } from './relation-resolver';
import { createStoredFieldResolver } from './stored-field-resolver';

export type FieldResolverMap = Record<string, Record<string, { resolve: GraphQLFieldResolver<never, never, never> }>>;

/** Resolvers for every non-root field the storage map describes, in graphql-tools' resolver map shape. */
export function buildFieldResolvers(storageMap: StorageMap): FieldResolverMap {
  const resolvers: FieldResolverMap = {};
  for (const type of storageMap.types.values()) {
    for (const field of type.fields.values()) {
      const resolve = field.kind === 'relation' ? createRelationResolver(field) : createStoredFieldResolver(field);
      if (resolve) (resolvers[type.typeName] ??= {})[field.fieldName] = { resolve: resolve as GraphQLFieldResolver<never, never, never> };
    }
  }
  return resolvers;
}
