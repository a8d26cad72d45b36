import type { QueryResolvers, ResolversParentTypes } from '../generated/resolvers-types';
import type { ResolverFunction } from './resolver-function';

/**
 * The one hand-written root field: every other Query field is generated from `@find` / `@list` in
 * schema/domain.graphql. `tasks` maps its `status` enum onto the stored `done` flag, which no
 * directive can say, and reads through `context.documents` (projection pushdown + loader priming).
 */
const tasks: ResolverFunction<QueryResolvers['tasks']> = (_parent, args, context, info) =>
  context.documents.findMany<ResolversParentTypes['Task']>(info, 'Task', {
    filter: { ...(args.dueBefore && { due: { lt: args.dueBefore } }), ...(args.status && { done: args.status === 'DONE' }) },
    first: args.first,
    after: args.after,
  });

export const Query = { tasks } satisfies QueryResolvers;
