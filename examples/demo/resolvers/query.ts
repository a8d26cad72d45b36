import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from 'docjoin';
import type { QueryResolvers, ResolversParentTypes } from '../generated/resolvers-types';
import { objectIdArgument } from './object-id-argument';
import type { ResolverFunction } from './resolver-function';

/** Root fields. Each reads one collection through `context.documents` (projection pushdown + loader priming). */

/** Types whose documents live in a collection, with the document type codegen maps each to. */
type CollectionTypeName = 'Person' | 'Stock' | 'Post' | 'Publisher' | 'Book' | 'Author' | 'Product' | 'Host' | 'Task';
type DocumentOf<TypeName extends CollectionTypeName> = ResolversParentTypes[TypeName];

interface ListArgs {
  readonly first?: number | null;
  readonly after?: string | null;
}

const byId =
  <TypeName extends CollectionTypeName>(typeName: TypeName) =>
  (_parent: unknown, args: { id: string }, context: GatewayContext, info: GraphQLResolveInfo): Promise<DocumentOf<TypeName> | null> =>
    context.documents.findOne<DocumentOf<TypeName>>(info, typeName, { _id: objectIdArgument(args.id) });

const list =
  <TypeName extends CollectionTypeName>(typeName: TypeName) =>
  (_parent: unknown, args: ListArgs, context: GatewayContext, info: GraphQLResolveInfo): Promise<DocumentOf<TypeName>[]> =>
    context.documents.findMany<DocumentOf<TypeName>>(info, typeName, { first: args.first, after: args.after });

// A string argument is only ever an equality value: `{ "$gt": "" }` is looked up as a literal symbol.
const stock: ResolverFunction<QueryResolvers['stock']> = (_parent, args, context, info) =>
  context.documents.findOne<DocumentOf<'Stock'>>(info, 'Stock', { symbol: args.symbol });

const product: ResolverFunction<QueryResolvers['product']> = (_parent, args, context, info) =>
  context.documents.findOne<DocumentOf<'Product'>>(info, 'Product', { catalogNumber: args.catalogNumber });

const host: ResolverFunction<QueryResolvers['host']> = (_parent, args, context, info) =>
  context.documents.findOne<DocumentOf<'Host'>>(info, 'Host', { ipaddr: args.ipaddr });

const tasks: ResolverFunction<QueryResolvers['tasks']> = (_parent, args, context, info) =>
  context.documents.findMany<DocumentOf<'Task'>>(info, 'Task', {
    filter: { ...(args.dueBefore && { due: { lt: args.dueBefore } }), ...(args.status && { done: args.status === 'DONE' }) },
    first: args.first,
    after: args.after,
  });

export const Query = {
  person: byId('Person'),
  people: list('Person'),
  stock,
  post: byId('Post'),
  posts: list('Post'),
  publisher: byId('Publisher'),
  book: byId('Book'),
  books: list('Book'),
  author: byId('Author'),
  authors: list('Author'),
  product,
  products: list('Product'),
  host,
  hosts: list('Host'),
  tasks,
} satisfies Required<QueryResolvers>;
