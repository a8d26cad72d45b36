import type { MutationWritePlans } from 'docjoin';
import type { Resolvers } from '../generated/resolvers-types';
import { ContactDetail } from './contact-detail';
import { Mutation, mutationWritePlans } from './mutation';
import { Query } from './query';

/**
 * The hand-written resolvers: root fields (queries and mutations) and abstract types (docjoin binds
 * DateTime itself), checked
 * against the generated `Resolvers` (parents are the MongoDB documents; context the GatewayContext,
 * whose `writes` mutations write through). Relation and stored fields come from the storage map.
 */
export const rootResolvers = { Query, Mutation, ContactDetail } satisfies Resolvers;

/** What each mutation's write unit does, for the static estimate of its writes (createGateway's `writePlans`). */
export const rootWritePlans: MutationWritePlans = mutationWritePlans;
