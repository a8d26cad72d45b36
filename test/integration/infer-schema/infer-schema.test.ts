import { connectMongo, DateTimeScalar, type Gateway } from 'docjoin';
import { Decimal128, Int32, Long, MongoClient, ObjectId, type CommandStartedEvent, type Document } from 'mongodb';
import { checkDraft } from '../../../src/infer-schema/check-draft';
import { inferSchema } from '../../../src/infer-schema/infer-schema';
import { sampleDatabase } from '../../../src/infer-schema/sample-database';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { BLOG_ORDER_WARNING, blogDraft, ids, seedBlog } from './support/blog-fixture';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * `inferSchema` on a small database shaped like the demo: the exact draft, the reads it took, and the
 * draft passing docjoin's own startup check against that database, then serving its relations.
 */
let mongo: TestMongo;
let dbName: string;
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('infer');
  dbName = db.databaseName;
  await seedBlog(db);
});
afterAll(() => mongo?.stop());

describe('inferSchema', () => {
  it('drafts a type per collection and sub-document, a join, a snapshot and a reverse join, each with its guess', async () => {
    const { sdl, draft } = await inferSchema(mongo.client.db(dbName));
    expect(sdl).toBe(blogDraft(dbName));
    expect(draft.counts).toEqual({ collectionTypes: 4, embeddedTypes: 1, joins: 2, snapshots: 1, reverseJoins: 1, guesses: 10 });
  });

  it('reads each collection once to sample it, then looks ObjectIds up by _id only: one $in per collection, one per snapshot candidate', async () => {
    const client = new MongoClient(mongo.uri, { monitorCommands: true });
    const commands: CommandStartedEvent[] = [];
    client.on('commandStarted', (event) => {
      if (event.databaseName === dbName) commands.push(event);
    });
    try {
      await inferSchema(client.db(dbName), { sampleSize: 10 });
    } finally {
      await client.close();
    }
    const names = commands.map((event) => event.commandName);
    const perCollection = ['find', 'aggregate', 'listIndexes', 'count'];
    expect(names).toEqual(['listCollections', ...perCollection, ...perCollection, ...perCollection, ...perCollection, 'find', 'find', 'find', 'find', 'find']);
    expect(commands[2]!.command.pipeline).toEqual([{ $sample: { size: 10 } }]);
    const lookups = commands.slice(-5).map((event) => [event.command.find, Object.keys(event.command.filter as Document), Object.keys((event.command.filter as Document)._id as Document)]);
    expect(lookups).toEqual([
      ['comments', ['_id'], ['$in']],
      ['people', ['_id'], ['$in']],
      ['posts', ['_id'], ['$in']],
      ['tasks', ['_id'], ['$in']],
      // posts.author's sources: its copied fields only.
      ['people', ['_id'], ['$in']],
    ]);
    expect(commands.at(-1)!.command.projection).toEqual({ firstName: 1, lastName: 1 });
  });

  it("leaves docjoin's own collections (migration markers, a recorded workload) out of the draft", async () => {
    const db = mongo.client.db(dbName);
    await db.collection('docjoin_migrations').insertOne({ coordinate: 'Post.author', state: 'filled' });
    try {
      const sample = await sampleDatabase(db, { size: 2 });
      expect([sample.collections.map((collection) => collection.name).includes('docjoin_migrations'), sample.skipped.includes('docjoin_migrations')]).toEqual([false, true]);
    } finally {
      await db.collection('docjoin_migrations').drop();
    }
  });

  it('samples with find in _id order when the server refuses the sampling stage, and says why', async () => {
    const sample = await sampleDatabase(mongo.client.db(dbName), { size: 2, sampleStage: () => ({ $noSuchStage: {} }) });
    const comments = sample.collections.find((collection) => collection.name === 'comments')!;
    expect(comments.method).toBe('find');
    expect(comments.sampleFailure).toMatch(/\$noSuchStage/);
    expect(comments.documents.map((document) => document._id)).toEqual([ids.c1, ids.c2, ids.c3, ids.c4]);
  });
});

describe('checkDraft', () => {
  it("runs docjoin's startup checks on a draft: none fails on the draft, and a reverse join no index serves does", async () => {
    const client = await connectMongo(mongo.uri);
    try {
      expect(await checkDraft(blogDraft(dbName), client, dbName)).toEqual({ problems: [], warnings: [BLOG_ORDER_WARNING] });
      const unindexed = blogDraft(dbName).replace('foreignField: "postId"', 'foreignField: "post_id"');
      expect(await checkDraft(unindexed, client, dbName)).toEqual({
        problems: [
          'Post.comments: no index on comments.post_id; create one with db.comments.createIndex({ post_id: 1, createdAt: -1, _id: -1 })',
          'Post.comments: no document in comments has "post_id" (@join foreignField); did you mean "postId"? Fix the path, or the data',
        ],
        warnings: [],
      });
      expect((await checkDraft(blogDraft(dbName).replace('@read(strategy: SNAPSHOT)', ''), client, dbName)).problems).toEqual([
        'Post.author: declares 2 shapes (@join, @snapshot) but no @read; add @read(strategy: JOIN) to say which one serves reads',
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('exact numbers in a draft', () => {
  it('drafts Decimal128 as Decimal and longs beyond 32 bits as Long, and the draft serves every digit', async () => {
    const db = mongo.freshDb('exact');
    await db.collection('invoices').insertMany([
      { _id: new ObjectId(), total: Decimal128.fromString('19.99'), sequence: Long.fromString('9007199254740993'), lines: new Int32(2) },
      { _id: new ObjectId(), total: Decimal128.fromString('0.10'), sequence: Long.fromNumber(7), lines: new Int32(1) },
    ]);
    const { sdl } = await inferSchema(db);
    expect(sdl.match(/^ {2}(total|sequence|lines): .*$/gm)).toEqual(['  total: Decimal!', '  sequence: Long!', '  lines: Int!']);
    const client = await connectMongo(mongo.uri);
    const warnings: string[] = [];
    const gateway = await createCheckedGateway({ typeDefs: sdl, resolvers: {}, mongoClient: client, db: db.databaseName, validateDatabase: true, onWarning: (warning) => warnings.push(warning), listen: false });
    try {
      const result = await gateway.execute({ query: '{ invoices { total sequence lines } }' });
      expect([result.errors, warnings]).toEqual([undefined, []]);
      expect(result.data).toEqual({ invoices: [{ total: '19.99', sequence: '9007199254740993', lines: 2 }, { total: '0.10', sequence: '7', lines: 1 }] });
    } finally {
      await gateway.stop();
      await client.close();
    }
  });
});

describe('the draft against the database it came from', () => {
  let client: Awaited<ReturnType<typeof connectMongo>>;
  let gateway: Gateway;
  const warnings: string[] = [];
  beforeAll(async () => {
    client = await connectMongo(mongo.uri);
    gateway = await createCheckedGateway({
      typeDefs: blogDraft(dbName),
      resolvers: { DateTime: DateTimeScalar },
      mongoClient: client,
      db: dbName,
      validateDatabase: true,
      onWarning: (warning) => warnings.push(warning),
      listen: false,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await client?.close();
  });

  it('passes the startup check, warning only of the order tie-break its index leaves to memory', () => {
    expect(warnings).toEqual([BLOG_ORDER_WARNING]);
  });

  it('serves the snapshot from the copy and the reverse join in one batched read', async () => {
    const result = await gateway.execute({ query: '{ posts { title author { firstName lastName } comments { comment createdAt } } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      posts: [
        { title: 'Notes', author: { firstName: 'Ada', lastName: 'Lovelace' }, comments: [{ comment: 'Indeed.', createdAt: '2026-01-05T09:30:00.000Z' }, { comment: 'Splendid.', createdAt: '2026-01-04T09:30:00.000Z' }] },
        { title: 'Bernoulli numbers', author: { firstName: 'Ada', lastName: 'Lovelace' }, comments: [{ comment: 'Note G!', createdAt: '2026-01-06T09:30:00.000Z' }] },
        { title: 'Compilers', author: { firstName: 'Grace', lastName: 'Hopper' }, comments: [{ comment: 'Useful.', createdAt: '2026-01-07T09:30:00.000Z' }] },
      ],
    });
    expect(result.cost?.roundTrips).toBe(2);
  });

  it('falls back to the join for fields the snapshot lacks, and joins comments to their post', async () => {
    const result = await gateway.execute({ query: `{ post(id: "${ids.numbers.toHexString()}") { author { email } } comments(first: 2) { comment post { title } } }` });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      post: { author: { email: 'ada@example.com' } },
      comments: [
        { comment: 'Splendid.', post: { title: 'Notes' } },
        { comment: 'Indeed.', post: { title: 'Notes' } },
      ],
    });
    expect(result.cost?.roundTrips).toBe(4);
  });

  it('joins an array of references in order, serves embedded arrays, and finds by the unique index', async () => {
    const result = await gateway.execute({ query: '{ people { firstName addresses { city } tasks { description done } } personByEmail(email: "grace@example.com") { nickname } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      people: [
        { firstName: 'Ada', addresses: [{ city: 'London' }], tasks: [{ description: 'Write the notes', done: true }, { description: 'Review the numbers', done: false }] },
        { firstName: 'Grace', addresses: [], tasks: [{ description: 'Ship the compiler', done: false }] },
        { firstName: 'Alan', addresses: [{ city: 'Milton Keynes' }, { city: 'Cambridge' }], tasks: [] },
      ],
      personByEmail: { nickname: 'Amazing Grace' },
    });
    expect(result.cost?.roundTrips).toBe(3);
  });
});
