import { GraphQLScalarType, Kind } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import type { Db } from 'mongodb';
import type { Gateway } from 'docjoin';
import { mongoForFile } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Stored types as the schema declares them. `DateTime` is used but not declared, and no resolver is
 * given for it: docjoin provides the scalar, so generated writes store BSON dates (and a Float a
 * double, an enum its internal value), and the newest-first order and the range filter compare dates.
 * A DateTime of the user's own wins. The startup sample warns about documents that hold something else.
 */
const SDL = /* GraphQL */ `
  type Query {
    posts(first: Int = 20, since: DateTime @filter(field: "publishedAt", op: GTE)): [Post!]! @list(sort: "-publishedAt")
  }
  type Mutation {
    createPost(input: PostInput!): Post! @create
    updatePost(id: ID!, input: PostPatch!): Post! @update
  }
  enum Status { DRAFT PUBLISHED }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    publishedAt: DateTime!
    views: Int!
    rating: Float!
    status: Status!
  }
  input PostInput { title: String! publishedAt: DateTime! views: Int! rating: Float! status: Status! }
  input PostPatch { publishedAt: DateTime rating: Float }
`;

/** The enum's values as the documents hold them. */
const STATUS_RESOLVERS = { Status: { DRAFT: 'draft', PUBLISHED: 'published' } };

const file = mongoForFile();

async function freshDb(): Promise<Db> {
  const db = file.mongo.freshDb('stored_types');
  await db.createCollection('posts');
  await db.collection('posts').createIndex({ publishedAt: -1, _id: -1 });
  return db;
}

async function start(db: Db, resolvers: IResolvers, warnings: string[] = []): Promise<Gateway> {
  return createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: db.databaseName, listen: false, onWarning: (message) => warnings.push(message) });
}

async function run(gateway: Gateway, query: string): Promise<unknown> {
  const result = await gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  return result.data;
}

const create = (title: string, publishedAt: string) =>
  `mutation { createPost(input: { title: "${title}", publishedAt: "${publishedAt}", views: 3, rating: 4, status: PUBLISHED }) { id publishedAt status } }`;

describe("docjoin's DateTime, used but not declared", () => {
  it('stores BSON dates, a Float as a double and the enum value the resolvers map, and orders and filters by date', async () => {
    const db = await freshDb();
    const warnings: string[] = [];
    const gateway = await start(db, STATUS_RESOLVERS, warnings);
    try {
      // As strings, "2026-11-21T23:00:00-05:00" would sort before "2026-11-22T01:00:00Z"; as dates it is 3 hours later.
      const late = (await run(gateway, create('Late evening in Lima', '2026-11-21T23:00:00-05:00'))) as { createPost: { id: string } };
      expect(late).toEqual({ createPost: { id: late.createPost.id, publishedAt: '2026-11-22T04:00:00.000Z', status: 'PUBLISHED' } });
      await run(gateway, create('Early morning in London', '2026-11-22T01:00:00Z'));
      await run(gateway, create('A day before', '2026-11-21'));

      const raw = await file.mongo.client.db(db.databaseName).collection('posts').find({}, { sort: { _id: 1 } }).toArray();
      expect(raw.map((document) => document.publishedAt instanceof Date)).toEqual([true, true, true]);
      expect(raw.map((document) => (document.publishedAt as Date).toISOString())).toEqual(['2026-11-22T04:00:00.000Z', '2026-11-22T01:00:00.000Z', '2026-11-21T00:00:00.000Z']);
      const types = await file.mongo.client
        .db(db.databaseName)
        .collection('posts')
        .aggregate([{ $sort: { _id: 1 } }, { $limit: 1 }, { $project: { _id: 0, publishedAt: { $type: '$publishedAt' }, views: { $type: '$views' }, rating: { $type: '$rating' }, status: 1 } }])
        .toArray();
      expect(types).toEqual([{ publishedAt: 'date', views: 'int', rating: 'double', status: 'published' }]);

      expect(await run(gateway, '{ posts { title publishedAt } }')).toEqual({
        posts: [
          { title: 'Late evening in Lima', publishedAt: '2026-11-22T04:00:00.000Z' },
          { title: 'Early morning in London', publishedAt: '2026-11-22T01:00:00.000Z' },
          { title: 'A day before', publishedAt: '2026-11-21T00:00:00.000Z' },
        ],
      });
      expect(await run(gateway, '{ posts(since: "2026-11-22T00:00:00+01:00") { title } }')).toEqual({ posts: [{ title: 'Late evening in Lima' }, { title: 'Early morning in London' }] });

      await run(gateway, `mutation { updatePost(id: "${late.createPost.id}", input: { publishedAt: "2026-11-20T12:00:00Z", rating: 5 }) { id } }`);
      const updated = await file.mongo.client.db(db.databaseName).collection('posts').findOne({}, { sort: { _id: 1 } });
      expect(updated!.publishedAt).toBeInstanceOf(Date);
      expect((updated!.publishedAt as Date).toISOString()).toBe('2026-11-20T12:00:00.000Z');
      const rating = await file.mongo.client.db(db.databaseName).collection('posts').countDocuments({ _id: updated!._id, rating: { $type: 'double' } });
      expect(rating).toBe(1);
      expect(warnings).toEqual([]);
    } finally {
      await gateway.stop();
    }
  });

  it('warns at startup about dates held as strings and enum values that are not the enum’s, and the suggested update fixes the dates', async () => {
    const db = await freshDb();
    await db.collection('posts').insertMany([
      { title: 'Stored right', publishedAt: new Date('2026-11-20T00:00:00Z'), views: 1, rating: 1.5, status: 'published' },
      { title: 'Ported', publishedAt: '2026-11-21T09:30:00Z', views: 2, rating: 2.5, status: 'PUBLISHED' },
    ]);
    const warnings: string[] = [];
    await (await start(db, STATUS_RESOLVERS, warnings)).stop();
    expect(warnings).toEqual([
      'Post.publishedAt is DateTime, but "publishedAt" holds a string ("2026-11-21T09:30:00Z") in 1 of 2 sampled posts documents, not a BSON date: ordering by it sorts those as strings, apart from the dates, and range filters on it (given dates) never match them; convert them: db.posts.updateMany({ "publishedAt": { $type: "string" } }, [{ $set: { "publishedAt": { $toDate: "$publishedAt" } } }])',
      'Post.status is Status, but "status" holds "PUBLISHED" in 1 of 2 sampled posts documents, which is not a value of Status (DRAFT stored as "draft", PUBLISHED stored as "published"): filters on it will not match those documents, and reading it there fails',
    ]);

    await db.collection('posts').updateMany({ publishedAt: { $type: 'string' } }, [{ $set: { publishedAt: { $toDate: '$publishedAt' } } }]);
    await db.collection('posts').updateMany({ status: 'PUBLISHED' }, { $set: { status: 'published' } });
    const after: string[] = [];
    await (await start(db, STATUS_RESOLVERS, after)).stop();
    expect(after).toEqual([]);
  });
});

describe('a DateTime resolver of your own', () => {
  /** Calendar days as "YYYY-MM-DD" strings, in GraphQL and in MongoDB. */
  const CalendarDay = new GraphQLScalarType<string, string>({
    name: 'DateTime',
    serialize: (value) => String(value),
    parseValue: (value) => String(value).slice(0, 10),
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new TypeError('a calendar day is a string');
      return ast.value.slice(0, 10);
    },
  });

  it('wins over docjoin’s: writes store what it parses, and the startup sample takes its values', async () => {
    const db = await freshDb();
    const warnings: string[] = [];
    const gateway = await start(db, { ...STATUS_RESOLVERS, DateTime: CalendarDay }, warnings);
    try {
      expect(await run(gateway, create('Day only', '2026-11-21T23:00:00-05:00'))).toMatchObject({ createPost: { publishedAt: '2026-11-21' } });
      const raw = await file.mongo.client.db(db.databaseName).collection('posts').findOne({});
      expect(raw!.publishedAt).toBe('2026-11-21');
    } finally {
      await gateway.stop();
    }
    await (await start(db, { ...STATUS_RESOLVERS, DateTime: CalendarDay }, warnings)).stop();
    expect(warnings).toEqual([]);
  });
});
