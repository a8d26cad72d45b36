import { MongoClient, ObjectId, type Db, type Document } from 'mongodb';
import { commentOnPost, type CommentedPost, type NewComment } from './comment-writes';
import type { InProcessPeer, PeerStartOptions } from './peer-implementation';
import { ADDED_COMMENT, type OperationName, type OperationVariables } from './peer-operations';

/**
 * The floor: each operation's `data` from the fewest commands that can fetch it (docjoin's plan: one
 * command per level and relation, reverse joins with a per-parent limit as one `$unionWith` aggregate;
 * independent levels in flight together), projecting only the fields asked for, assembled in plain
 * JavaScript. No GraphQL parsing, validation or execution, no HTTP, no JSON: the cost of the data alone.
 */
type Stored = Document & { _id: ObjectId };

const hex = (id: ObjectId): string => id.toHexString();

function byHexId(documents: readonly Stored[]): Map<string, Stored> {
  return new Map(documents.map((document) => [hex(document._id), document]));
}

/** The documents of `ids` in their order (an array of references keeps it), missing ones left out. */
function inOrder(ids: readonly ObjectId[], found: ReadonlyMap<string, Stored>): Stored[] {
  return ids.map((id) => found.get(hex(id))).filter((document): document is Stored => document !== undefined);
}

function distinctIds(ids: Iterable<ObjectId>): ObjectId[] {
  const seen = new Map<string, ObjectId>();
  for (const id of ids) seen.set(hex(id), id);
  return [...seen.values()];
}

/**
 * Every batch sized to hold the whole answer (one more than it can hold, so the server closes the
 * cursor): the driver's default first batch of 101 documents would cost a getMore on larger ones.
 */
async function findByIds(db: Db, collection: string, ids: Iterable<ObjectId>, projection: Document): Promise<Map<string, Stored>> {
  const distinct = distinctIds(ids);
  return byHexId(await db.collection<Stored>(collection).find({ _id: { $in: distinct } }, { projection, batchSize: distinct.length + 1 }).toArray());
}

/** The first `limit` documents per parent in one aggregate: an indexed, limited branch per parent joined with `$unionWith`. */
async function firstPerParent(db: Db, collection: string, foreignField: string, parentIds: readonly ObjectId[], sort: Document, limit: number, projection: Document): Promise<Map<string, Stored[]>> {
  const branch = (id: ObjectId): Document[] => [{ $match: { [foreignField]: id } }, { $sort: sort }, { $limit: limit }, { $project: { ...projection, [foreignField]: 1 } }];
  const [first, ...rest] = parentIds;
  const grouped = new Map<string, Stored[]>(parentIds.map((id) => [hex(id), []]));
  if (first === undefined) return grouped;
  const pipeline = [...branch(first), ...rest.map((id) => ({ $unionWith: { coll: collection, pipeline: branch(id) } }))];
  const path = foreignField.split('.');
  for (const document of await db.collection<Stored>(collection).aggregate<Stored>(pipeline, { batchSize: parentIds.length * limit + 1 }).toArray()) {
    const parentId = path.reduce<unknown>((value, key) => (value as Document | undefined)?.[key], document) as ObjectId;
    grouped.get(hex(parentId))?.push(document);
  }
  return grouped;
}

const root = (db: Db, collection: string, first: number, projection: Document): Promise<Stored[]> =>
  db.collection<Stored>(collection).find({}, { limit: first, projection, batchSize: first + 1 }).toArray();

async function books(db: Db): Promise<unknown> {
  const page = await root(db, 'books', 50, { name: 1, publisherId: 1, 'authors.name': 1, 'authors.thumbnailUrl': 1 });
  const publishers = await findByIds(db, 'publishers', page.map((book) => book.publisherId as ObjectId), { name: 1 });
  return {
    books: page.map((book) => {
      const publisher = publishers.get(hex(book.publisherId));
      return {
        name: book.name,
        publisher: publisher ? { name: publisher.name } : null,
        authors: (book.authors as Document[]).map((author) => ({ name: author.name, thumbnailUrl: author.thumbnailUrl })),
      };
    }),
  };
}

async function people(db: Db): Promise<unknown> {
  const page = await root(db, 'people', 100, { firstName: 1, holdings: 1, taskIds: 1 });
  const [stocks, tasks] = await Promise.all([
    findByIds(db, 'stocks', page.flatMap((person) => (person.holdings as Document[]).map((holding) => holding.stockId as ObjectId)), { symbol: 1, open: 1 }),
    findByIds(db, 'tasks', page.flatMap((person) => person.taskIds as ObjectId[]), { description: 1, ownerId: 1 }),
  ]);
  const owners = await findByIds(db, 'people', [...tasks.values()].map((task) => task.ownerId as ObjectId), { lastName: 1 });
  return {
    people: page.map((person) => ({
      firstName: person.firstName,
      holdings: (person.holdings as Document[]).map((holding) => {
        const stock = stocks.get(hex(holding.stockId));
        return { numberHeld: holding.numberHeld, stock: stock ? { symbol: stock.symbol, open: stock.open } : null };
      }),
      tasks: inOrder(person.taskIds as ObjectId[], tasks).map((task) => {
        const owner = owners.get(hex(task.ownerId));
        return { description: task.description, owner: owner ? { lastName: owner.lastName } : null };
      }),
    })),
  };
}

async function hosts(db: Db): Promise<unknown> {
  const page = await root(db, 'hosts', 20, { name: 1 });
  const logs = await firstPerParent(db, 'logMessages', 'host.id', page.map((host) => host._id), { time: -1, _id: -1 }, 5, { message: 1, time: 1 });
  return {
    hosts: page.map((host) => ({
      name: host.name,
      logs: (logs.get(hex(host._id)) ?? []).map((log) => ({ message: log.message, time: (log.time as Date).toISOString() })),
    })),
  };
}

async function posts(db: Db): Promise<unknown> {
  const page = await root(db, 'posts', 10, { title: 1, 'recentComments.author': 1, 'recentComments.comment': 1 });
  return {
    posts: page.map((post) => ({
      title: post.title,
      recentComments: (post.recentComments as Document[]).map((comment) => ({ author: comment.author, comment: comment.comment })),
    })),
  };
}

async function authors(db: Db): Promise<unknown> {
  const page = await root(db, 'authors', 50, { name: 1, bookIds: 1 });
  const books = await findByIds(db, 'books', page.flatMap((author) => author.bookIds as ObjectId[]), { name: 1, publisherId: 1 });
  const publisherIds = distinctIds([...books.values()].map((book) => book.publisherId as ObjectId));
  // Both depend only on the books' publisher ids: one level, in flight together.
  const [publishers, publisherBooks] = await Promise.all([
    findByIds(db, 'publishers', publisherIds, { name: 1 }),
    firstPerParent(db, 'books', 'publisherId', publisherIds, { _id: 1 }, 3, { name: 1 }),
  ]);
  return {
    authors: page.map((author) => ({
      name: author.name,
      books: inOrder(author.bookIds as ObjectId[], books).map((book) => {
        const publisher = publishers.get(hex(book.publisherId));
        return {
          name: book.name,
          publisher: publisher ? { name: publisher.name, books: (publisherBooks.get(hex(publisher._id)) ?? []).map((other) => ({ name: other.name })) } : null,
        };
      }),
    })),
  };
}

/** The writes of the GraphQL peers, with the post's title read by the update itself: insert, findAndModify, commit. */
async function addComment(client: MongoClient, db: Db, variables: OperationVariables): Promise<unknown> {
  const postId = new ObjectId(variables.postId);
  const comment = { _id: new ObjectId(), postId, ...ADDED_COMMENT, createdAt: new Date() };
  let title: unknown;
  const session = client.startSession();
  try {
    await session.withTransaction(async () => {
      await db.collection<NewComment>('comments').insertOne({ ...comment }, { session });
      const post = await db.collection<CommentedPost>('posts').findOneAndUpdate({ _id: postId }, commentOnPost(comment), { session, projection: { title: 1 } });
      if (post === null) throw new Error(`no post with id ${variables.postId}`);
      title = post.title;
    });
  } finally {
    await session.endSession();
  }
  return { addComment: { author: comment.author, comment: comment.comment, post: { title } } };
}

export async function start(options: PeerStartOptions): Promise<InProcessPeer> {
  const client = await MongoClient.connect(options.mongoUri, { monitorCommands: options.commands !== undefined });
  options.commands?.attach(client);
  const db = client.db(options.dbName);
  const operations: Readonly<Record<OperationName, (variables: OperationVariables) => Promise<unknown>>> = {
    books: () => books(db),
    people: () => people(db),
    hosts: () => hosts(db),
    posts: () => posts(db),
    authors: () => authors(db),
    addComment: (variables) => addComment(client, db, variables),
  };
  return {
    kind: 'in-process',
    execute: (operation, variables) => operations[operation](variables),
    stop: () => client.close(),
  };
}
