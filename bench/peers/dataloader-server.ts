import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { MongoClient, ObjectId, type Db, type Document, type Filter, type Sort } from 'mongodb';
import { serveApollo } from './apollo-http';
import { selectedFields } from './graphql-selection';
import type { HttpPeer, PeerStartOptions } from './peer-implementation';
import { addCommentInTransaction } from './comment-writes';
import { afterFilter, DateTimeScalar, objectIdArgument, pageSize } from './peer-schema';

/**
 * The hand-written peer: Apollo Server with a DataLoader per (collection, projection) per request, so
 * each level of a query costs one `$in` find per relation, and every find projects only the stored
 * fields the selection needs. A reverse join with a per-parent limit (`Host.logs(first)`,
 * `Publisher.books(first)`) is one loader too, whose batch sends one indexed `find … limit` per parent,
 * all in flight together.
 */
type Stored = Document & { _id: ObjectId };
type Args = Readonly<Record<string, unknown>>;

/** Where a GraphQL field's data lives when it is not a stored field of the same name. */
const STORED_AS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Person: { tasks: 'taskIds' },
  Holding: { stock: 'stockId' },
  Task: { owner: 'ownerId' },
  Post: { comments: '_id' },
  Comment: { post: 'postId' },
  Publisher: { books: '_id' },
  Book: { publisher: 'publisherId' },
  Author: { books: 'bookIds' },
  Host: { logs: '_id' },
};

/** The fields a snapshot of authors in each book holds. */
const AUTHOR_SNAPSHOT_FIELDS: ReadonlySet<string> = new Set(['id', 'name', 'thumbnailUrl']);

function projectionOf(typeName: string, info: GraphQLResolveInfo): Document {
  const projection: Record<string, 1> = { _id: 1 };
  for (const field of selectedFields(info).keys()) {
    projection[field === 'id' ? '_id' : (STORED_AS[typeName]?.[field] ?? field)] = 1;
  }
  return projection;
}

/** One request's loaders, made on first use and keyed by what they read, so siblings share one batch. */
class RequestLoaders {
  readonly #byId = new Map<string, DataLoader<string, Stored | null>>();
  readonly #firstPerParent = new Map<string, DataLoader<string, Stored[]>>();

  constructor(readonly db: Db) {}

  byId(collection: string, projection: Document): DataLoader<string, Stored | null> {
    const key = `${collection}|${JSON.stringify(projection)}`;
    let loader = this.#byId.get(key);
    if (loader === undefined) {
      loader = new DataLoader(async (ids) => {
        const found = await this.db.collection<Stored>(collection).find({ _id: { $in: ids.map((id) => new ObjectId(id)) } }, { projection }).toArray();
        const byId = new Map(found.map((document) => [document._id.toHexString(), document]));
        return ids.map((id) => byId.get(id) ?? null);
      });
      this.#byId.set(key, loader);
    }
    return loader;
  }

  /** The first `limit` documents of `collection` whose `foreignField` is the key, in `sort` order. */
  firstPerParent(collection: string, foreignField: string, sort: Sort, limit: number, filter: Filter<Stored>, projection: Document): DataLoader<string, Stored[]> {
    const key = `${collection}|${foreignField}|${JSON.stringify(sort)}|${limit}|${JSON.stringify(filter)}|${JSON.stringify(projection)}`;
    let loader = this.#firstPerParent.get(key);
    if (loader === undefined) {
      loader = new DataLoader((parentIds) =>
        Promise.all(
          parentIds.map((parentId) =>
            this.db
              .collection<Stored>(collection)
              .find({ ...filter, [foreignField]: new ObjectId(parentId) } as Filter<Stored>, { sort, limit, projection })
              .toArray(),
          ),
        ),
      );
      this.#firstPerParent.set(key, loader);
    }
    return loader;
  }
}

interface Context {
  readonly loaders: RequestLoaders;
}

async function byIds(context: Context, collection: string, ids: readonly ObjectId[] | undefined, projection: Document): Promise<Stored[]> {
  if (ids === undefined || ids.length === 0) return [];
  const found = await context.loaders.byId(collection, projection).loadMany(ids.map((id) => id.toHexString()));
  return found.filter((item): item is Stored => item !== null && !(item instanceof Error));
}

async function byId(context: Context, collection: string, id: ObjectId | undefined | null, projection: Document): Promise<Stored | null> {
  return id ? context.loaders.byId(collection, projection).load(id.toHexString()) : null;
}

function list(collection: string, typeName: string) {
  return (_parent: unknown, args: Args, context: Context, info: GraphQLResolveInfo): Promise<Stored[]> =>
    context.loaders.db
      .collection<Stored>(collection)
      .find(afterFilter(args.after), { limit: pageSize(args.first), projection: projectionOf(typeName, info) })
      .toArray();
}

const hexId = (parent: Stored): string => parent._id.toHexString();

function resolvers(client: MongoClient, db: Db) {
  return {
    DateTime: DateTimeScalar,
    Query: {
      people: list('people', 'Person'),
      posts: list('posts', 'Post'),
      books: list('books', 'Book'),
      authors: list('authors', 'Author'),
      hosts: list('hosts', 'Host'),
    },
    Mutation: {
      async addComment(_parent: unknown, args: Args) {
        const postId = objectIdArgument(args.postId, 'postId');
        const comment = { _id: new ObjectId(), postId, author: String(args.author), comment: String(args.comment), createdAt: new Date() };
        await addCommentInTransaction(client, db, comment);
        return comment;
      },
    },
    Person: {
      id: hexId,
      tasks: (person: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byIds(context, 'tasks', person.taskIds, projectionOf('Task', info)),
    },
    Holding: {
      stock: (holding: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byId(context, 'stocks', holding.stockId, projectionOf('Stock', info)),
    },
    Task: {
      id: hexId,
      owner: (task: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byId(context, 'people', task.ownerId, projectionOf('Person', info)),
    },
    Post: { id: hexId },
    Comment: {
      id: hexId,
      post: (comment: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byId(context, 'posts', comment.postId, projectionOf('Post', info)),
    },
    Publisher: {
      id: hexId,
      books: (publisher: Stored, args: Args, context: Context, info: GraphQLResolveInfo) =>
        context.loaders.firstPerParent('books', 'publisherId', { _id: 1 }, pageSize(args.first), afterFilter(args.after), projectionOf('Book', info)).load(hexId(publisher)),
    },
    Book: {
      id: hexId,
      publisher: (book: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byId(context, 'publishers', book.publisherId, projectionOf('Publisher', info)),
      // The snapshot each book keeps answers when it holds every selected field.
      authors(book: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) {
        const snapshot = (book.authors ?? []) as Array<{ id: ObjectId; name: string; thumbnailUrl: string }>;
        if ([...selectedFields(info).keys()].every((field) => AUTHOR_SNAPSHOT_FIELDS.has(field))) return snapshot.map((author) => ({ ...author, _id: author.id }));
        return byIds(context, 'authors', snapshot.map((author) => author.id), projectionOf('Author', info));
      },
    },
    Author: {
      id: hexId,
      books: (author: Stored, _args: Args, context: Context, info: GraphQLResolveInfo) => byIds(context, 'books', author.bookIds, projectionOf('Book', info)),
    },
    Host: {
      id: hexId,
      logs(host: Stored, args: Args, context: Context, info: GraphQLResolveInfo) {
        const before = args.before instanceof Date ? { time: { $lt: args.before } } : {};
        return context.loaders.firstPerParent('logMessages', 'host.id', { time: -1, _id: -1 }, pageSize(args.first), before, projectionOf('LogMessage', info)).load(hexId(host));
      },
    },
    LogMessage: { id: hexId },
  };
}

export async function start(options: PeerStartOptions): Promise<HttpPeer> {
  const client = await MongoClient.connect(options.mongoUri, { monitorCommands: options.commands !== undefined });
  options.commands?.attach(client);
  const db = client.db(options.dbName);
  return serveApollo<Context>(resolvers(client, db), async () => ({ loaders: new RequestLoaders(db) }), () => client.close());
}
