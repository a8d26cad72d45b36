import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import { GraphQLSchema, specifiedDirectives, type GraphQLNamedType } from 'graphql';
import { buildStorageMap } from '../storage-map/build-storage-map';
import type { StorageMap } from '../storage-map/storage-map-types';
import { buildFieldResolvers } from '../strategies/build-field-resolvers';

export interface GatewaySchema {
  /** The executable schema clients see: storage directives and their ReadStrategy enum removed. */
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
}

/** Storage-only SDL definitions hidden from the public schema. */
const STORAGE_ONLY_TYPES = new Set(['ReadStrategy']);

/**
 * SDL → storage map (parsed and validated once) → resolvers built from it, merged with the hand-written
 * root resolvers → public schema. Throws StorageConfigError on inconsistent directives.
 */
export function buildGatewaySchema(options: { typeDefs: readonly string[]; resolvers: IResolvers | readonly IResolvers[] }): GatewaySchema {
  const typeDefs = [...options.typeDefs];
  const storageMap = buildStorageMap(makeExecutableSchema({ typeDefs }));
  const fieldResolvers = buildFieldResolvers(storageMap) as IResolvers;
  const executable = makeExecutableSchema({ typeDefs, resolvers: [fieldResolvers, ...(Array.isArray(options.resolvers) ? options.resolvers : [options.resolvers])] });
  const config = executable.toConfig();
  const schema = new GraphQLSchema({
    ...config,
    types: config.types.filter((type: GraphQLNamedType) => !STORAGE_ONLY_TYPES.has(type.name)),
    directives: [...specifiedDirectives],
  });
  return { schema, storageMap };
}
