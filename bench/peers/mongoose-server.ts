import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import mongoose, { Schema, Types, type Connection, type Model, type PopulateOptions, type SchemaDefinition, type VirtualTypeOptions } from 'mongoose';
import { serveApollo } from './apollo-http';
import { argumentValue, selectedFields, subfields } from './graphql-selection';
import type { HttpPeer, PeerStartOptions } from './peer-implementation';
import { afterFilter, DateTimeScalar, notFound, objectIdArgument, pageSize } from './peer-schema';

/**
 * The Mongoose peer: Apollo Server whose root resolvers look ahead at the selection and issue ONE
 * Mongoose query with `select` and nested `populate` for every relation asked for, `lean()` so the
 * answers stay plain objects; the field resolvers only read what was populated. Populate sends one
 * `$in` find per path and level; a reverse join with a per-parent limit (`Host.logs(first)`,
 * `Publisher.books(first)`) is a virtual populated with `perDocumentLimit`, which Mongoose runs as one
 * query per parent.
 */
type Args = Readonly<Record<string, unknown>>;
type Lean = Record<string, unknown> & { _id: Types.ObjectId };

const { ObjectId } = Schema.Types;

/** Schemas are only needed for `ref`s, virtuals and casting: documents come back lean, so one loose type serves every model. */
function leanModel(connection: Connection, name: string, collection: string, definition: SchemaDefinition, virtuals: Readonly<Record<string, VirtualTypeOptions>> = {}): Model<Lean> {
  const schema = new Schema<Lean>(definition, { collection, versionKey: false, autoIndex: false, autoCreate: false });
  for (const [path, options] of Object.entries(virtuals)) schema.virtual(path, options);
  return connection.model<Lean>(name, schema);
}

function defineModels(connection: Connection) {
  const comment = { _id: ObjectId, postId: { type: ObjectId, ref: 'Post' }, author: String, comment: String, createdAt: Date };
  const logMessage = { _id: ObjectId, time: Date, message: String, host: { id: { type: ObjectId, ref: 'Host' }, name: String, ipaddr: String } };
  return {
    Person: leanModel(connection, 'Person', 'people', {
      firstName: String,
      lastName: String,
      addresses: [Schema.Types.Mixed],
      contactDetails: [Schema.Types.Mixed],
      holdings: [new Schema({ stockId: { type: ObjectId, ref: 'Stock' }, numberHeld: Number }, { _id: false })],
      taskIds: [{ type: ObjectId, ref: 'Task' }],
    }),
    Stock: leanModel(connection, 'Stock', 'stocks', { symbol: String, open: Number, high: Number, low: Number, vol: Number, mktCap: Number, pe: Number }),
    Task: leanModel(connection, 'Task', 'tasks', { description: String, due: Date, done: Boolean, ownerId: { type: ObjectId, ref: 'Person' } }),
    Post: leanModel(connection, 'Post', 'posts', {
      title: String,
      body: String,
      author: String,
      createdAt: Date,
      commentCount: Number,
      recentComments: [new Schema(comment, { _id: false })],
    }),
    Comment: leanModel(connection, 'Comment', 'comments', comment),
    Publisher: leanModel(connection, 'Publisher', 'publishers', { name: String, location: String }, { books: { ref: 'Book', localField: '_id', foreignField: 'publisherId' } }),
    Book: leanModel(connection, 'Book', 'books', {
      name: String,
      isbn: String,
      pages: Number,
      publishedAt: Date,
      publisherId: { type: ObjectId, ref: 'Publisher' },
      authors: [new Schema({ id: { type: ObjectId, ref: 'Author' }, name: String, thumbnailUrl: String }, { _id: false })],
    }),
    Author: leanModel(connection, 'Author', 'authors', { firstName: String, lastName: String, name: String, thumbnailUrl: String, countOfBooks: Number, bookIds: [{ type: ObjectId, ref: 'Book' }] }),
    Host: leanModel(connection, 'Host', 'hosts', { name: String, ipaddr: String, recentLogs: [new Schema(logMessage, { _id: false })] }, { logs: { ref: 'LogMessage', localField: '_id', foreignField: 'host.id' } }),
    LogMessage: leanModel(connection, 'LogMessage', 'logMessages', logMessage),
  };
}

/** A relation the root query populates: the stored path, and for a reverse join its foreign key and order. */
interface Relation {
  readonly path: string;
  readonly type: string;
  readonly reverse?: { readonly foreignField: string; readonly sort: Readonly<Record<string, 1 | -1>> };
}

const RELATIONS: Readonly<Record<string, Readonly<Record<string, Relation>>>> = {
  Person: { tasks: { path: 'taskIds', type: 'Task' } },
  Holding: { stock: { path: 'stockId', type: 'Stock' } },
  Task: { owner: { path: 'ownerId', type: 'Person' } },
  Comment: { post: { path: 'postId', type: 'Post' } },
  Book: { publisher: { path: 'publisherId', type: 'Publisher' } },
  Author: { books: { path: 'bookIds', type: 'Book' } },
  Publisher: { books: { path: 'books', type: 'Book', reverse: { foreignField: 'publisherId', sort: { _id: 1 } } } },
  Host: { logs: { path: 'logs', type: 'LogMessage', reverse: { foreignField: 'host.id', sort: { time: -1, _id: -1 } } } },
};

/** Arrays kept inside their parent: read whole, populated inside when they hold a relation. */
const EMBEDDED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Person: { holdings: 'Holding', addresses: 'Address', contactDetails: 'ContactDetail' },
  Post: { recentComments: 'Comment' },
  Host: { recentLogs: 'LogMessage' },
  Book: { authors: 'AuthorSnapshot' },
};

/** The SDL's default `first` of the list relations above. */
const DEFAULT_FIRST = 20;

interface QueryPlan {
  readonly select: Set<string>;
  readonly populate: PopulateOptions[];
}

/** `select` and nested `populate` for a selection of `typeName` (paths under `prefix` for an embedded array). */
function planFor(typeName: string, fields: Map<string, FieldNode[]>, info: GraphQLResolveInfo, prefix = ''): QueryPlan {
  const plan: QueryPlan = { select: new Set([`${prefix}_id`]), populate: [] };
  for (const [field, nodes] of fields) {
    const relation = RELATIONS[typeName]?.[field];
    const embedded = EMBEDDED[typeName]?.[field];
    if (relation) {
      const child = planFor(relation.type, subfields(nodes, info.fragments), info);
      const populate: PopulateOptions = { path: `${prefix}${relation.path}`, select: [...child.select].join(' '), populate: child.populate };
      if (relation.reverse) {
        child.select.add(relation.reverse.foreignField);
        populate.select = [...child.select].join(' ');
        const first = argumentValue(nodes[0]!, 'first', info.variableValues) ?? DEFAULT_FIRST;
        populate.options = { sort: relation.reverse.sort, perDocumentLimit: pageSize(first) };
        const before = argumentValue(nodes[0]!, 'before', info.variableValues);
        if (typeof before === 'string') populate.match = { time: { $lt: new Date(before) } };
      } else {
        plan.select.add(`${prefix}${relation.path}`);
      }
      plan.populate.push(populate);
    } else if (embedded) {
      plan.select.add(`${prefix}${field}`);
      plan.populate.push(...planFor(embedded, subfields(nodes, info.fragments), info, `${prefix}${field}.`).populate);
    } else {
      plan.select.add(`${prefix}${field === 'id' ? '_id' : field}`);
    }
  }
  return plan;
}

function rootList(model: Model<Lean>, typeName: string) {
  return (_parent: unknown, args: Args, _context: unknown, info: GraphQLResolveInfo): Promise<unknown> => {
    const plan = planFor(typeName, selectedFields(info), info);
    return model
      .find(afterFilter(args.after))
      .limit(pageSize(args.first))
      .select([...plan.select].join(' '))
      .populate(plan.populate)
      .lean()
      .exec();
  };
}

const hexId = (parent: Lean): string => parent._id.toHexString();
/** A populated path: the document(s) populate put in place of the id(s). */
const populated = (path: string) => (parent: Lean) => parent[path] ?? null;

function resolvers(connection: Connection, models: ReturnType<typeof defineModels>) {
  return {
    DateTime: DateTimeScalar,
    Query: {
      people: rootList(models.Person, 'Person'),
      posts: rootList(models.Post, 'Post'),
      books: rootList(models.Book, 'Book'),
      authors: rootList(models.Author, 'Author'),
      hosts: rootList(models.Host, 'Host'),
    },
    Mutation: {
      async addComment(_parent: unknown, args: Args, _context: unknown, info: GraphQLResolveInfo) {
        const comment = { _id: new Types.ObjectId(), postId: objectIdArgument(args.postId, 'postId'), author: String(args.author), comment: String(args.comment), createdAt: new Date() };
        await connection.transaction(async (session) => {
          await models.Comment.create([comment], { session });
          const updated = await models.Post.updateOne(
            { _id: comment.postId },
            { $push: { recentComments: { $each: [comment], $sort: { createdAt: -1, _id: -1 }, $slice: 3 } }, $inc: { commentCount: 1 } },
            { session },
          );
          if (updated.matchedCount === 0) throw notFound(`no post with id ${comment.postId.toHexString()}`);
        });
        const plan = planFor('Comment', selectedFields(info), info);
        return models.Comment.populate({ ...comment }, plan.populate.map((populate) => ({ ...populate, options: { ...populate.options, lean: true } })));
      },
    },
    Person: { id: hexId, tasks: populated('taskIds') },
    Holding: { stock: populated('stockId') },
    Task: { id: hexId, owner: populated('ownerId') },
    Post: { id: hexId },
    Comment: { id: hexId, post: populated('postId') },
    Publisher: { id: hexId, books: populated('books') },
    Book: {
      id: hexId,
      publisher: populated('publisherId'),
      // The snapshot each book keeps covers the benchmark's selection (name, thumbnailUrl); this peer does not populate `authors.id`.
      authors: (book: Lean) => ((book.authors ?? []) as Array<{ id: Types.ObjectId }>).map((author) => ({ ...author, _id: author.id })),
    },
    Author: { id: hexId, books: populated('bookIds') },
    Host: { id: hexId, logs: populated('logs') },
    LogMessage: { id: hexId },
  };
}

export async function start(options: PeerStartOptions): Promise<HttpPeer> {
  const connection = await mongoose
    .createConnection(options.mongoUri, { dbName: options.dbName, monitorCommands: options.commands !== undefined, autoIndex: false, autoCreate: false })
    .asPromise();
  if (options.commands) options.commands.attach(connection.getClient());
  const models = defineModels(connection);
  return serveApollo(resolvers(connection, models), async () => ({}), () => connection.close());
}
