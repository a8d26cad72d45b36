import { directiveTypeDefs } from 'docjoin';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { ObjectId, type MongoClient } from 'mongodb';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, DatabaseMismatchError, StorageConfigError } from 'docjoin';
import { MongoFunnel } from '../../../src/gateway/request/mongo/mongo-funnel';
import { buildStorageMap } from '../../../src/gateway/startup/storage-map/build-storage-map';
import { validateAgainstDatabase } from '../../../src/gateway/startup/storage-map/validate-against-database';
import { DOCUMENT_SAMPLE, type DocumentSample } from '../../../src/gateway/startup/storage-map/check-sampled-documents';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

const SDL = /* GraphQL */ `
  type Query { p(id: ID!): Post @find }
  type Post @collection(name: "posts") {
    id: ID!
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
    attachments: [Attachment!]! @embedded(path: "files")
  }
  type Attachment { name: String! tag: Tag @join(localField: "tagId") }
  type Comment @collection(name: "comments") { id: ID! }
  type Tag @collection(name: "tags") { id: ID! }
`;
const typeDefs = [directiveTypeDefs, SDL];
const storageMap = buildStorageMap(makeExecutableSchema({ typeDefs }));

let mongo: TestMongo;
let client: MongoClient;
beforeAll(async () => {
  mongo = await startTestMongo();
  client = await connectMongo(mongo.uri);
});
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

async function problems(dbName: string, map = storageMap): Promise<readonly string[]> {
  const funnel = new MongoFunnel(client, client.db(dbName));
  try {
    await validateAgainstDatabase(map, funnel);
    return [];
  } catch (error) {
    if (error instanceof DatabaseMismatchError) return error.problems;
    throw error;
  } finally {
    funnel.detach();
  }
}

describe('validateAgainstDatabase', () => {
  it('names missing collections and unindexed reverse-join keys with the fix', async () => {
    const db = mongo.freshDb('validate');
    await db.createCollection('posts');
    await db.createCollection('comments');
    expect(await problems(db.databaseName)).toEqual([
      `Tag: @collection(name: "tags") does not exist in database "${db.databaseName}"; load data (docjoin seed) or fix the name`,
      'Post.comments: no index on comments.postId; create one with db.comments.createIndex({ postId: 1, createdAt: -1, _id: -1 })',
    ]);
    // A collection named like one that exists is most likely a typo of it.
    await db.createCollection('tag');
    expect((await problems(db.databaseName))[0]).toBe(`Tag: @collection(name: "tags") does not exist in database "${db.databaseName}"; did you mean "tag"? Fix the name, or load data (docjoin seed)`);

    await db.createCollection('tags');
    await db.collection('comments').createIndex({ postId: 1, createdAt: -1, _id: -1 });
    expect(await problems(db.databaseName)).toEqual([]);
  });

  it('names paths that no document has, following embedded types into their owner collection', async () => {
    const db = mongo.freshDb('validate');
    await db.collection('posts').insertOne({ attachments: [{ name: 'a.png', tag: 1 }], file: [{ tagID: 1 }] });
    await db.collection('comments').insertOne({ post: 1 });
    await db.collection('comments').createIndex({ postId: 1 });
    await db.createCollection('tags');
    expect(await problems(db.databaseName)).toEqual([
      // The nearest path the first documents hold is offered, inside embedded documents too.
      'Post.comments: no document in comments has "postId" (@join foreignField); did you mean "post"? Fix the path, or the data',
      'Post.attachments: no document in posts has "files" (@embedded path); did you mean "file"? Fix the path, or the data',
      'Attachment.tag: no document in posts has "files.tagId" (@join localField); did you mean "file.tagID"? Fix the path, or the data',
      'Post.comments: no document in comments has "createdAt" (@join sort, a path no field of Comment declares); fix the path or the data',
    ]);

    await db.collection('posts').insertOne({ files: [{ name: 'b.png', tagId: 1 }] });
    await db.collection('comments').insertOne({ postId: 1, createdAt: new Date() });
    expect(await problems(db.databaseName)).toEqual([]);
  });

  it('names an order by a path no field declares and no document has (a typo would order every page by _id alone), not one by an optional field none has yet', async () => {
    const orderedSdl = /* GraphQL */ `
      type Query { books(first: Int, orderBy: BookOrder): [Book!]! @list(sort: "-yeer") }
      enum BookOrder { NEWEST @sort(by: "-year") TITLE @sort(by: "titel") TOP_RATED @sort(by: "-rating") BY_LINE @sort(by: "lines.sku") BY_RANK @sort(by: "rank") }
      type Book @collection(name: "books") { id: ID! year: Int title: String rating: Float lines: [Line!]! @embedded }
      type Line { sku: String! }
    `;
    const orderedMap = buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, orderedSdl] }));
    const db = mongo.freshDb('validate');
    // rank: a stored order key the schema does not expose, which documents hold.
    await db.collection('books').insertOne({ year: 1971, title: 'The Lathe of Heaven', lines: [], rank: 1 });
    await db.collection('books').createIndexes(['yeer', 'year', 'titel', 'rating', 'lines.sku', 'rank'].map((path) => ({ key: { [path]: -1, _id: -1 } })));
    expect(await problems(db.databaseName, orderedMap)).toEqual([
      'Query.books: no document in books has "yeer" (@list sort, a path no field of Book declares); did you mean "year"? Fix the path, or the data',
      'Query.books: no document in books has "titel" (@sort(by:) of orderBy: TITLE, a path no field of Book declares); did you mean "title"? Fix the path, or the data',
    ]);
  });

  it('names a @join(collection:) that does not exist, and reports a collection shared with the target type once', async () => {
    const archiveSdl = /* GraphQL */ `
      type Query { p(id: ID!): Post @find }
      type Post @collection(name: "posts") {
        id: ID!
        "Joined from another collection than Comment's own."
        archived: [Comment!]! @join(collection: "commentArchive", localField: "archivedIds")
        "Names Comment's own collection: a missing one is reported for Comment only."
        comments: [Comment!]! @join(collection: "comments", localField: "commentIds")
      }
      type Comment @collection(name: "comments") { id: ID! }
    `;
    const archiveMap = buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, archiveSdl] }));
    const db = mongo.freshDb('validate');
    await db.collection('posts').insertOne({ archivedIds: [], commentIds: [] });
    const missing = `does not exist in database "${db.databaseName}"; load data (docjoin seed) or fix the name`;
    expect(await problems(db.databaseName, archiveMap)).toEqual([
      `Comment: @collection(name: "comments") ${missing}`,
      `Post.archived: @join(collection: "commentArchive") ${missing}`,
    ]);

    await db.createCollection('comments');
    expect(await problems(db.databaseName, archiveMap)).toEqual([`Post.archived: @join(collection: "commentArchive") ${missing}`]);
    await db.createCollection('commentArchive');
    expect(await problems(db.databaseName, archiveMap)).toEqual([]);
  });

  it('makes createGateway fail before serving', async () => {
    const db = mongo.freshDb('validate');
    await db.createCollection('posts');
    await expect(
      createCheckedGateway({ db: client.db(db.databaseName), mongoClient: client, mongoKind: 'embedded', ...gatewaySettingsOf(loadConfig({ PORT: '0' })), typeDefs, resolvers: {}, listen: false }),
    ).rejects.toThrow(`Comment: @collection(name: "comments") does not exist in database "${db.databaseName}"`);
  });

  it('reports every mistake in one start: the directives, the write rules, the root resolvers, and the database and its documents', async () => {
    const db = mongo.freshDb('validate');
    await db.createCollection('comments');
    await db.collection('posts').insertOne({ title: 'Keyless', author: { name: 'Ada' } });
    const mistaken = /* GraphQL */ `
      type Query { posts: [Post!]! @list  orphan: Int }
      type Post @collection(name: "posts") {
        id: ID!
        title: String!
        author: Author @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
        comments: [Comment!]! @join(localField: "_id", foreignField: "postId") @read(strategy: SNAPSHOT)
        commentCount: Int! @counter(of: "Post.title")
      }
      type Comment @collection(name: "comments") { id: ID! }
      type Author @collection(name: "authors") { id: ID! name: String! }
    `;
    const failure = createCheckedGateway({ db: client.db(db.databaseName), mongoClient: client, mongoKind: 'embedded', typeDefs: [directiveTypeDefs, mistaken], resolvers: {}, listen: false });
    await expect(failure).rejects.toBeInstanceOf(StorageConfigError);
    const error = (await failure.catch((caught: unknown) => caught)) as StorageConfigError;
    expect(error.problems.map((problem) => problem.slice(0, problem.indexOf(':')))).toEqual(['Post.comments', 'Post.commentCount', 'Query.orphan']);
    expect(error.databaseProblems).toEqual([
      `Author: @collection(name: "authors") does not exist in database "${db.databaseName}"; load data (docjoin seed) or fix the name`,
      'Post.author: no document in posts has "author.id" (@join localField); fix the path or the data',
      expect.stringMatching(/^Post\.author: 1 of 1 sampled posts documents keep a snapshot at "author" without its key "id"/),
    ]);
    expect(error.message).toMatch(/^Invalid storage directives:\n {2}- Post\.comments: [^\n]+\n {2}- Post\.commentCount: [^\n]+\n {2}- Query\.orphan: [^\n]+\nThe database does not match the schema either:\n {2}- Author: [^\n]+\n {2}- Post\.author: [^\n]+\n {2}- Post\.author: /);
  });

  it("gives no advice drawn from a declaration the schema's check refused (a misspelt snapshot field to widen by)", async () => {
    const db = mongo.freshDb('validate');
    await db.collection('authors').insertOne({ _id: new ObjectId(), name: 'Ada' });
    await db.collection('posts').insertOne({ title: 'T', author: { id: new ObjectId(), name: 'Ada' } });
    await db.createCollection('comments');
    const sdl = /* GraphQL */ `
      type Query { posts: [Post!]! @list }
      type Post @collection(name: "posts") { id: ID! title: String! author: Author @snapshot(path: "author", fields: ["id", "nmae"]) @join(localField: "author.id") @read(strategy: SNAPSHOT) }
      type Author @collection(name: "authors") { id: ID! name: String! }
    `;
    const warnings: string[] = [];
    const failure = createCheckedGateway({ db: client.db(db.databaseName), mongoClient: client, mongoKind: 'embedded', typeDefs: [directiveTypeDefs, sdl], resolvers: {}, listen: false, onWarning: (warning: string) => void warnings.push(warning) });
    await expect(failure).rejects.toThrow('Post.author: @snapshot(fields:) names "nmae", which is not a field of Author');
    expect(warnings.filter((warning) => warning.startsWith('Post.author'))).toEqual([]);
  });

  it('leaves nothing listening on the client when a start fails: a schema mistake, a mutation without a write plan, a bad auth option', async () => {
    const db = mongo.freshDb('validate');
    await db.createCollection('posts');
    const listeners = () => ['commandStarted', 'commandSucceeded', 'commandFailed'].map((event) => client.listenerCount(event));
    const before = listeners();
    const start = (extra: Record<string, unknown>, sdl = SDL) => createCheckedGateway({ db: client.db(db.databaseName), mongoClient: client, typeDefs: [directiveTypeDefs, sdl], listen: false, validateDatabase: false, ...extra });
    await expect(start({}, SDL.replace('@find', '@nope'))).rejects.toThrow();
    await expect(start({ resolvers: { Mutation: { touch: () => null } } }, `${SDL}\n  type Mutation { touch(id: ID!): Boolean! }`)).rejects.toThrow(/Mutation\.touch: no write plan/);
    await expect(start({ auth: { jwt: { secret: 'short' } } })).rejects.toThrow(/auth/);
    expect(listeners()).toEqual(before);
  });

  it('says in one line that a database with none of the collections is probably the wrong one, naming the others', async () => {
    const right = mongo.freshDb('validate');
    await right.createCollection('posts');
    const wrong = `${right.databaseName}_typo`;
    const found = await problems(wrong);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^database "${wrong}" has none of the schema's 3 collections \\(posts, comments, tags\\)\\. This server has: [^.]*\\b${right.databaseName}\\b[^.]*\\. Set the database \\(MONGODB_DB, --db, or mongodb\\.db in the config\\), or load data \\(docjoin seed\\)$`));
    await expect(createCheckedGateway({ db: wrong, mongoClient: client, typeDefs, listen: false })).rejects.toThrow(/^The database does not match the schema: database "[^"]+" has none/);
  });

  it('samples the first documents in _id order and others at random, so a document past the first few is checked too', async () => {
    const db = mongo.freshDb('validate_sample');
    const ids = Array.from({ length: 200 }, (_, n) => new ObjectId(n.toString(16).padStart(24, '0')));
    await db.collection('books').insertMany(ids.map((_id, n) => ({ _id, pages: n === 40 ? 'forty' : n })));
    await db.collection('few').insertMany(ids.slice(0, 50).map((_id, n) => ({ _id, pages: n === 40 ? 'forty' : n })));
    const funnel = new MongoFunnel(client, db);
    try {
      const many = await funnel.sampleDocuments('books', DOCUMENT_SAMPLE);
      const others = many.slice(20).map((document) => (document._id as ObjectId).toHexString());
      expect(many.slice(0, 20).map((document) => document._id)).toEqual(ids.slice(0, 20));
      // 100 picked at random, those among the first left out (about 90 are not): each once, in _id order.
      expect([others.length > 60, new Set(others).size === others.length, others.every((id) => id > ids[19]!.toHexString()), others.join() === [...others].sort().join()]).toEqual([true, true, true, true]);
      // A collection no bigger than the sample is read whole, in _id order.
      expect((await funnel.sampleDocuments('few', DOCUMENT_SAMPLE)).map((document) => document._id)).toEqual(ids.slice(0, 50));
      const sdl = 'type Query { few(first: Int = 20): [Few!]! @list } type Few @collection(name: "few") { id: ID! pages: Int! }';
      expect(await validateAgainstDatabase(buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, sdl] })), funnel)).toEqual([
        'Few.pages is Int, but "pages" holds "forty" in 1 of 50 sampled few documents: reading it fails ("Int cannot represent non-integer value: "forty""), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
      ]);
    } finally {
      funnel.detach();
    }
  });

  it('refuses a collection with a default collation other than simple, naming its types and the fix; one with locale "simple" is fine', async () => {
    const db = mongo.freshDb('validate_collation');
    await db.createCollection('books', { collation: { locale: 'simple' } });
    await db.collection('books').insertOne({ code: 'abc' });
    await db.createCollection('reviews', { collation: { locale: 'en', strength: 2 } });
    await db.collection('reviews').insertOne({ bookCode: 'ABC', stars: 1 });
    await db.collection('reviews').createIndex({ bookCode: 1, stars: 1 });
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: withDirectiveTypeDefs(/* GraphQL */ `
          type Query { books: [Book!]! @list reviews: [Review!]! @list stars: [Stars!]! @list }
          type Book @collection(name: "books") { id: ID! reviews: [Review!]! @join(localField: "code", foreignField: "bookCode", sort: "stars") }
          type Review @collection(name: "reviews") { id: ID! stars: Int! }
          type Stars @collection(name: "reviews") { id: ID! stars: Int! }
        `),
      }),
    );
    const funnel = new MongoFunnel(client, db);
    try {
      await expect(validateAgainstDatabase(map, funnel)).rejects.toMatchObject({
        problems: [
          'Review, Stars: collection "reviews" has a default collation (locale "en", strength 2), by which MongoDB compares its strings while docjoin matches keys, access rules and pages byte by byte; store it in a collection without a default collation (keep a case-insensitive key in a lowercased field of its own)',
        ],
      });
    } finally {
      funnel.detach();
    }
  });

  it('refuses a field read by LOOKUP by default on a MongoDB before 5.0, naming the field and the fix', async () => {
    const db = mongo.freshDb('validate_lookup');
    const author = new ObjectId();
    await db.collection('posts').insertOne({ authorId: author });
    await db.collection('authors').insertOne({ _id: author });
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: [
          directiveTypeDefs,
          /* GraphQL */ `
            type Query { p(id: ID!): Post @find }
            type Post @collection(name: "posts") { id: ID! author: Author @join(localField: "authorId") @read(strategy: LOOKUP) }
            type Author @collection(name: "authors") { id: ID! }
          `,
        ],
      }),
    );
    const funnel = new MongoFunnel(client, db);
    const at = (serverVersion: string | undefined) => catalogAt(funnel, serverVersion);
    try {
      await expect(validateAgainstDatabase(map, at('4.4.29'))).rejects.toMatchObject({
        problems: ['Post.author: @read(strategy: LOOKUP) needs MongoDB 5.0 or later ($lookup with both localField and a pipeline), and this server is 4.4.29; read it with JOIN'],
      });
      expect(await validateAgainstDatabase(map, at('5.0.0'))).toEqual([]);
      expect(await validateAgainstDatabase(map, funnel)).toEqual([]);
    } finally {
      funnel.detach();
    }
  });

  it('refuses an @aggregate offering groupBy on a MongoDB before 5.2 ($topN), naming the field and the fix', async () => {
    const db = mongo.freshDb('validate_group_by');
    await db.collection('orders').insertOne({ total: 1, status: 'open' });
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: withDirectiveTypeDefs(/* GraphQL */ `
          type Query {
            orders: [Order!]! @list
            ordersAggregate: OrderAggregate! @aggregate(of: "orders", fields: ["total"], groupBy: ["status"])
            totalsOnly: OrderAggregate! @aggregate(of: "orders", fields: ["total"])
          }
          type Order @collection(name: "orders") { id: ID! total: Float! status: String! }
        `),
      }),
    );
    const funnel = new MongoFunnel(client, db);
    try {
      // Aggregates over one type share their keys: both offer groupBy.
      await expect(validateAgainstDatabase(map, catalogAt(funnel, '5.0.14'))).rejects.toMatchObject({
        problems: [
          "Query.ordersAggregate: groupBy needs MongoDB 5.2 or later (each parent's groups are kept by $topN), and this server is 5.0.14; remove groupBy from the @aggregate directives over Order, or upgrade MongoDB",
          "Query.totalsOnly: groupBy needs MongoDB 5.2 or later (each parent's groups are kept by $topN), and this server is 5.0.14; remove groupBy from the @aggregate directives over Order, or upgrade MongoDB",
        ],
      });
      expect(await validateAgainstDatabase(map, catalogAt(funnel, '5.2.0'))).toEqual([]);
      expect(await validateAgainstDatabase(map, funnel)).toEqual([]);
    } finally {
      funnel.detach();
    }
  });

  it('reads the collection list once at startup, access rules on', async () => {
    const db = mongo.freshDb('validate_listing');
    await db.createCollection('notes');
    const sdl = /* GraphQL */ `
      type Query { notes(first: Int = 10): [Note!]! @list }
      type Note @collection(name: "notes") @access(roles: ["member"], allow: [READ], where: [{ field: "owner", claim: "sub" }]) { id: ID! owner: String }
    `;
    await db.collection('notes').createIndex({ owner: 1 });
    const listed: string[] = [];
    const watched = await connectMongo(mongo.uri);
    watched.on('commandStarted', (event) => {
      if (event.commandName === 'listCollections') listed.push(event.databaseName);
    });
    try {
      const gateway = await createCheckedGateway({ typeDefs: sdl, mongoClient: watched, db: db.databaseName, listen: false });
      await gateway.stop();
      expect(listed).toEqual([db.databaseName]);
    } finally {
      await watched.close();
    }
  });

  it('refuses a mutation writing a capped or time-series collection while writes may run in transactions, and starts with transactions never', async () => {
    const db = mongo.freshDb('validate_capped');
    await db.createCollection('logs', { capped: true, size: 1 << 20 });
    await db.createCollection('readings', { timeseries: { timeField: 'at' } });
    const sdl = /* GraphQL */ `
      type Query { logs(first: Int = 10): [Log!]! @list readings(first: Int = 10): [Reading!]! @list }
      type Mutation { createLog(input: LogInput!): Log! @create createReading(input: ReadingInput!): Reading! @create }
      type Log @collection(name: "logs") { id: ID! text: String! }
      type Reading @collection(name: "readings") { id: ID! at: DateTime! value: Float! }
      input LogInput { text: String! }
      input ReadingInput { at: DateTime! value: Float! }
    `;
    const start = async (writes: { transactions: 'never' } | undefined) => {
      try {
        const gateway = await createCheckedGateway({ typeDefs: sdl, mongoClient: client, db: db.databaseName, listen: false, onWarning: () => undefined, ...(writes && { writes }) });
        await gateway.stop();
        return [];
      } catch (error) {
        return (error as DatabaseMismatchError).problems;
      }
    };
    expect(await start(undefined)).toEqual([
      'Mutation.createLog: its write unit writes logs, a capped collection, which MongoDB does not write inside a transaction; set writes.transactions to "never" (each write then stands alone), or store it in an ordinary collection',
      'Mutation.createReading: its write unit writes readings, a time-series collection, which MongoDB does not write inside a transaction; set writes.transactions to "never" (each write then stands alone), or store it in an ordinary collection',
    ]);
    expect(await start({ transactions: 'never' })).toEqual([]);
  });
});

/** The funnel's catalog, telling `serverVersion` as the server's version. */
function catalogAt(funnel: MongoFunnel, serverVersion: string | undefined) {
  return {
    databaseName: funnel.databaseName,
    listCollections: () => funnel.listCollections(),
    listIndexes: (collection: string) => funnel.listIndexes(collection),
    someDocumentHas: (collection: string, path: string) => funnel.someDocumentHas(collection, path),
    sampleDocuments: (collection: string, sample: DocumentSample) => funnel.sampleDocuments(collection, sample),
    listDatabaseNames: () => funnel.listDatabaseNames(),
    serverVersion: async () => serverVersion,
  };
}
