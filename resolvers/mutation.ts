import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'bson';
import { badUserInput, isDuplicateKeyError, notFound, objectIdArgument, type GatewayContext, type WritePlan } from 'docjoin';
import type { MutationResolvers, ResolversParentTypes } from '../generated/resolvers-types';
import { intArgument, ipaddrArgument, priceArgument, TEXT_LIMITS, textArgument } from './mutation-input';
import type { ResolverFunction } from './resolver-function';

/**
 * Mutations. Each validates its input, then runs ONE write unit (writes/): the source document plus
 * every copy the directives declare, in one transaction where the server supports it. The result is
 * read back afterwards through `context.documents`, so every read strategy can resolve it.
 */

type MutationResolver<Field extends keyof MutationResolvers> = ResolverFunction<MutationResolvers[Field]>;
/** The types a mutation returns, each read back from its collection. */
type WrittenTypeName = 'Author' | 'Part' | 'Host' | 'Stock' | 'Comment' | 'LogMessage' | 'Book' | 'Task';

const MAX_AUTHORS_PER_BOOK = 10;

const renameAuthor: MutationResolver<'renameAuthor'> = async (_parent, args, context, info) => {
  const id = objectIdArgument(args.id);
  const firstName = textArgument(args.firstName, 'firstName', TEXT_LIMITS.name);
  const lastName = textArgument(args.lastName, 'lastName', TEXT_LIMITS.name);
  await context.writes.run(info, (unit) => unit.updateSource('Author', { _id: id }, { firstName, lastName, name: `${firstName} ${lastName}` }));
  return readBack(context, info, 'Author', { _id: id });
};

const renamePart: MutationResolver<'renamePart'> = async (_parent, args, context, info) => {
  const id = objectIdArgument(args.id);
  const name = textArgument(args.name, 'name', TEXT_LIMITS.name);
  await context.writes.run(info, (unit) => unit.updateSource('Part', { _id: id }, { name }));
  return readBack(context, info, 'Part', { _id: id });
};

const updateHost: MutationResolver<'updateHost'> = async (_parent, args, context, info) => {
  const id = objectIdArgument(args.id);
  const name = textArgument(args.name, 'name', TEXT_LIMITS.name);
  const ipaddr = ipaddrArgument(args.ipaddr);
  await uniqueOr(`ipaddr ${ipaddr} is already used by another host`, 'ipaddr', () =>
    context.writes.run(info, (unit) => unit.updateSource('Host', { _id: id }, { name, ipaddr })),
  );
  return readBack(context, info, 'Host', { _id: id });
};

const updateStockPrice: MutationResolver<'updateStockPrice'> = async (_parent, args, context, info) => {
  const symbol = textArgument(args.symbol, 'symbol', TEXT_LIMITS.name);
  const open = priceArgument(args.open, 'open');
  const high = priceArgument(args.high, 'high');
  const low = priceArgument(args.low, 'low');
  if (low > high) throw badUserInput(`low (${low}) must not be above high (${high})`, { argumentName: 'low' });
  await context.writes.run(info, (unit) => unit.updateSource('Stock', { symbol }, { open, high, low }));
  return readBack(context, info, 'Stock', { symbol });
};

const addComment: MutationResolver<'addComment'> = async (_parent, args, context, info) => {
  const postId = objectIdArgument(args.postId, 'postId');
  const author = textArgument(args.author, 'author', TEXT_LIMITS.name);
  const comment = textArgument(args.comment, 'comment', TEXT_LIMITS.comment);
  // Made once, outside the unit: a transaction retry inserts the same comment, not a second one.
  const document = { _id: new ObjectId(), postId, author, comment, createdAt: new Date() };
  await context.writes.run(info, (unit) => unit.insert('Comment', document));
  // A Comment holds no copies, so what was inserted is what is stored: no read back.
  return document;
};

const logMessage: MutationResolver<'logMessage'> = async (_parent, args, context, info) => {
  const ipaddr = ipaddrArgument(args.ipaddr);
  const message = textArgument(args.message, 'message', TEXT_LIMITS.message);
  const id = new ObjectId();
  const time = new Date();
  await context.writes.run(info, async (unit) => {
    // The host is named by its address; reading it here also gives the snapshot's fields.
    const host = await unit.requireOne('Host', { ipaddr }, ['_id', 'name', 'ipaddr'], `with ipaddr ${JSON.stringify(ipaddr)}`);
    await unit.insert('LogMessage', { _id: id, time, message, host: { id: host._id } }, [host]);
  });
  return readBack(context, info, 'LogMessage', { _id: id });
};

const publishBook: MutationResolver<'publishBook'> = async (_parent, { input }, context, info) => {
  const name = textArgument(input.name, 'input.name', TEXT_LIMITS.name);
  const isbn = textArgument(input.isbn, 'input.isbn', 20);
  const pages = intArgument(input.pages, 'input.pages', 1, 100_000);
  const publisherId = objectIdArgument(input.publisherId, 'input.publisherId');
  const authorIds = input.authorIds.map((id) => objectIdArgument(id, 'input.authorIds'));
  if (authorIds.length < 1 || authorIds.length > MAX_AUTHORS_PER_BOOK) {
    throw badUserInput(`input.authorIds must list 1 to ${MAX_AUTHORS_PER_BOOK} authors, got ${authorIds.length}`, { argumentName: 'input.authorIds' });
  }
  if (new Set(authorIds.map((id) => id.toHexString())).size !== authorIds.length) {
    throw badUserInput('input.authorIds must not repeat an author', { argumentName: 'input.authorIds' });
  }
  const document = { _id: new ObjectId(), name, isbn, pages, publishedAt: input.publishedAt, publisherId, authors: authorIds.map((id) => ({ id })) };
  await uniqueOr(`isbn ${isbn} is already used by another book`, 'input.isbn', () => context.writes.run(info, (unit) => unit.insert('Book', document)));
  return readBack(context, info, 'Book', { _id: document._id });
};

const reassignTask: MutationResolver<'reassignTask'> = async (_parent, args, context, info) => {
  const taskId = objectIdArgument(args.taskId, 'taskId');
  const ownerId = objectIdArgument(args.ownerId, 'ownerId');
  await context.writes.run(info, (unit) => unit.changeReference('Task.owner', taskId, ownerId));
  return readBack(context, info, 'Task', { _id: taskId });
};

export const Mutation = { renameAuthor, renamePart, updateHost, updateStockPrice, addComment, logMessage, publishBook, reassignTask } satisfies Required<MutationResolvers>;

/**
 * What each mutation's write unit above does, one entry per WriteUnit call (docjoin's WritePlan).
 * The static estimate prices its writes from it before the mutation runs, and the unit fails rather than
 * send more commands than it allows, so keep each in step with its resolver.
 */
export const mutationWritePlans = {
  renameAuthor: [{ kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['firstName', 'lastName', 'name'] }],
  renamePart: [{ kind: 'updateSource', typeName: 'Part', by: '_id', fields: ['name'] }],
  updateHost: [{ kind: 'updateSource', typeName: 'Host', by: '_id', fields: ['name', 'ipaddr'] }],
  updateStockPrice: [{ kind: 'updateSource', typeName: 'Stock', by: 'symbol', fields: ['open', 'high', 'low'] }],
  addComment: [{ kind: 'insert', typeName: 'Comment' }],
  logMessage: [
    { kind: 'requireOne', typeName: 'Host' },
    { kind: 'insert', typeName: 'LogMessage', preloaded: ['LogMessage.host'] },
  ],
  publishBook: [{ kind: 'insert', typeName: 'Book', maxKeys: { 'Book.authors': MAX_AUTHORS_PER_BOOK } }],
  reassignTask: [{ kind: 'changeReference', coordinate: 'Task.owner' }],
} as const satisfies { readonly [Field in keyof MutationResolvers]-?: WritePlan };

/** The written document, read with the projection the selection needs (and primed for joins). */
async function readBack<TypeName extends WrittenTypeName>(
  context: GatewayContext,
  info: GraphQLResolveInfo,
  typeName: TypeName,
  filter: { _id: ObjectId } | { symbol: string },
): Promise<ResolversParentTypes[TypeName]> {
  const document = await context.documents.findOne<ResolversParentTypes[TypeName]>(info, typeName, filter);
  // Only a concurrent delete between the commit and this read gets here.
  if (!document) throw notFound(`${typeName} was removed before it could be read back`, { typeName });
  return document;
}

/** A unique-index violation becomes BAD_USER_INPUT naming the argument; other failures pass through. */
async function uniqueOr<T>(message: string, argumentName: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKeyError(error)) throw badUserInput(message, { argumentName });
    throw error;
  }
}
