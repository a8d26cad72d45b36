import type { GraphQLResolveInfo } from 'graphql';
import { MongoClient, ObjectId, type Db, type Document } from 'mongodb';
import { serveApollo } from './apollo-http';
import { addCommentInTransaction } from './comment-writes';
import { selectedFields } from './graphql-selection';
import type { HttpPeer, PeerStartOptions } from './peer-implementation';
import { afterFilter, DateTimeScalar, inIdOrder, objectIdArgument, pageSize } from './peer-schema';

/**
 * The naive peer: Apollo Server whose resolvers each send their own query for their parent, with
 * whole documents (no projection) and no batching. One `findOne` per single reference, one `$in` find
 * per parent for an array of references, one `find … limit` per parent for a reverse join. Embedded
 * arrays and the authors snapshot are read from the parent, as docjoin's own `naiveRoundTrips` counts.
 */
type Stored = Document & { _id: ObjectId };
type Args = Readonly<Record<string, unknown>>;

const AUTHOR_SNAPSHOT_FIELDS: ReadonlySet<string> = new Set(['id', 'name', 'thumbnailUrl']);

const hexId = (parent: Stored): string => parent._id.toHexString();

function resolvers(client: MongoClient, db: Db) {
  const findOne = (collection: string, id: ObjectId | undefined | null): Promise<Stored | null> | null =>
    id ? db.collection<Stored>(collection).findOne({ _id: id }) : null;
  const findMany = async (collection: string, ids: readonly ObjectId[] | undefined): Promise<Stored[]> =>
    ids === undefined || ids.length === 0 ? [] : inIdOrder(ids, await db.collection<Stored>(collection).find({ _id: { $in: [...ids] } }).toArray());
  const list = (collection: string) => (_parent: unknown, args: Args) =>
    db.collection<Stored>(collection).find(afterFilter(args.after), { limit: pageSize(args.first) }).toArray();

  return {
    DateTime: DateTimeScalar,
    Query: { people: list('people'), posts: list('posts'), books: list('books'), authors: list('authors'), hosts: list('hosts') },
    Mutation: {
      async addComment(_parent: unknown, args: Args) {
        const comment = { _id: new ObjectId(), postId: objectIdArgument(args.postId, 'postId'), author: String(args.author), comment: String(args.comment), createdAt: new Date() };
        await addCommentInTransaction(client, db, comment);
        return comment;
      },
    },
    Person: { id: hexId, tasks: (person: Stored) => findMany('tasks', person.taskIds) },
    Holding: { stock: (holding: Stored) => findOne('stocks', holding.stockId) },
    Task: { id: hexId, owner: (task: Stored) => findOne('people', task.ownerId) },
    Post: { id: hexId },
    Comment: { id: hexId, post: (comment: Stored) => findOne('posts', comment.postId) },
    Publisher: {
      id: hexId,
      books: (publisher: Stored, args: Args) =>
        db.collection<Stored>('books').find({ ...afterFilter(args.after), publisherId: publisher._id }, { sort: { _id: 1 }, limit: pageSize(args.first) }).toArray(),
    },
    Book: {
      id: hexId,
      publisher: (book: Stored) => findOne('publishers', book.publisherId),
      authors(book: Stored, _args: Args, _context: unknown, info: GraphQLResolveInfo) {
        const snapshot = (book.authors ?? []) as Array<{ id: ObjectId }>;
        if ([...selectedFields(info).keys()].every((field) => AUTHOR_SNAPSHOT_FIELDS.has(field))) return snapshot.map((author) => ({ ...author, _id: author.id }));
        return findMany('authors', snapshot.map((author) => author.id));
      },
    },
    Author: { id: hexId, books: (author: Stored) => findMany('books', author.bookIds) },
    Host: {
      id: hexId,
      logs(host: Stored, args: Args) {
        const before = args.before instanceof Date ? { time: { $lt: args.before } } : {};
        return db.collection<Stored>('logMessages').find({ ...before, 'host.id': host._id }, { sort: { time: -1, _id: -1 }, limit: pageSize(args.first) }).toArray();
      },
    },
    LogMessage: { id: hexId },
  };
}

export async function start(options: PeerStartOptions): Promise<HttpPeer> {
  const client = await MongoClient.connect(options.mongoUri, { monitorCommands: options.commands !== undefined });
  options.commands?.attach(client);
  const db = client.db(options.dbName);
  return serveApollo(resolvers(client, db), async () => ({}), () => client.close());
}
