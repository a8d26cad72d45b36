import { objectIdArgument } from 'docjoin';
import type { QueryResolvers } from '../generated/resolvers-types';

/**
 * A root field no directive describes (one document picked by an order, not by a key): the first
 * product of the category by price, through `context.documents`, one find with projection pushdown.
 */
export const cheapest: NonNullable<QueryResolvers['cheapest']> = async (_parent, args, context, info) => {
  const [product] = await context.documents.findMany(info, 'Product', { filter: { categoryId: objectIdArgument(args.category, 'category') }, sort: 'price', first: 1 });
  return product ?? null;
};
