import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../src/gateway/context/request-context';
import type { StoredDocument } from '../src/gateway/mongo/mongo-funnel';
import { objectIdArgument } from './object-id-argument';

/** Root fields. Each reads one collection through `context.documents` (projection pushdown + loader priming). */

interface ListArgs {
  first?: number | null;
  after?: string | null;
}
type Resolver<Args> = (parent: unknown, args: Args, context: GatewayContext, info: GraphQLResolveInfo) => Promise<StoredDocument | null | StoredDocument[]>;

const byId = (typeName: string): Resolver<{ id: string }> => (_parent, args, context, info) =>
  context.documents.findOne(info, typeName, { _id: objectIdArgument(args.id) });

const list = (typeName: string): Resolver<ListArgs> => (_parent, args, context, info) =>
  context.documents.findMany(info, typeName, { first: args.first, after: args.after });

export const Query = {
  person: byId('Person'),
  people: list('Person'),
  // A string argument is only ever an equality value: `{ "$gt": "" }` is looked up as a literal symbol.
  stock: ((_parent, args, context, info) => context.documents.findOne(info, 'Stock', { symbol: args.symbol })) as Resolver<{ symbol: string }>,
  post: byId('Post'),
  posts: list('Post'),
  publisher: byId('Publisher'),
  book: byId('Book'),
  books: list('Book'),
  author: byId('Author'),
  authors: list('Author'),
  product: ((_parent, args, context, info) =>
    context.documents.findOne(info, 'Product', { catalogNumber: args.catalogNumber })) as Resolver<{ catalogNumber: string }>,
  products: list('Product'),
  host: ((_parent, args, context, info) => context.documents.findOne(info, 'Host', { ipaddr: args.ipaddr })) as Resolver<{ ipaddr: string }>,
  hosts: list('Host'),
  tasks: ((_parent, args, context, info) =>
    context.documents.findMany(info, 'Task', {
      filter: args.dueBefore ? { due: { lt: args.dueBefore } } : {},
      first: args.first,
      after: args.after,
    })) as Resolver<ListArgs & { dueBefore?: Date | null }>,
};
