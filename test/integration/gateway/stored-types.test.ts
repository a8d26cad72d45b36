import { ObjectId } from 'bson';
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
      'Post.publishedAt is DateTime!, but "publishedAt" holds a string ("2026-11-21T09:30:00Z") in 1 of 2 sampled posts documents, not a BSON date: ordering by it sorts those as strings, before every date, range filters on it (given dates) never match them, and its min/max rank them apart from the dates; convert them: db.posts.updateMany({ "publishedAt": { $type: "string" } }, [{ $set: { "publishedAt": { $toDate: "$publishedAt" } } }])',
      'Post.status is Status!, but "status" holds "PUBLISHED" in 1 of 2 sampled posts documents, which is not a value of Status (DRAFT stored as "draft", PUBLISHED stored as "published"): filters on it will not match those documents, and reading it there fails',
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

describe('an ID field that is not a reference', () => {
  const ID_SDL = /* GraphQL */ `
    type Query { tickets(first: Int = 20, assignee: ID, watcher: ID @filter(field: "watchers")): [Ticket!]! @list }
    type Mutation {
      createTicket(input: TicketInput!): Ticket! @create
      updateTicket(id: ID!, input: TicketPatch!): Ticket! @update
    }
    type Ticket @collection(name: "tickets") { id: ID! title: String! assignee: ID watchers: [ID!]! }
    input TicketInput { title: String! assignee: ID watchers: [ID!]! }
    input TicketPatch { assignee: ID }
  `;
  const alice = '64b0000000000000000000a1';
  const bob = '64b0000000000000000000b2';

  it('is stored as the ObjectId its filters compare with, by creates and updates, and a value that is not one is BAD_USER_INPUT', async () => {
    const db = file.mongo.freshDb('stored_ids');
    await db.collection('tickets').createIndex({ assignee: 1 });
    await db.collection('tickets').createIndex({ watchers: 1 });
    const warnings: string[] = [];
    const gateway = await createCheckedGateway({ typeDefs: ID_SDL, mongoClient: file.client, db: db.databaseName, listen: false, onWarning: (message) => warnings.push(message) });
    try {
      const created = (await run(gateway, `mutation { createTicket(input: { title: "Leak", assignee: "${alice.toUpperCase()}", watchers: ["${bob}"] }) { id assignee watchers } }`)) as { createTicket: { id: string } };
      expect(created).toEqual({ createTicket: { id: created.createTicket.id, assignee: alice, watchers: [bob] } });
      const raw = await file.mongo.client.db(db.databaseName).collection('tickets').findOne({});
      expect(raw).toEqual({ _id: expect.anything(), title: 'Leak', assignee: new ObjectId(alice), watchers: [new ObjectId(bob)] });
      expect(await run(gateway, `{ byAssignee: tickets(assignee: "${alice}") { title } byWatcher: tickets(watcher: "${bob}") { title } }`)).toEqual({ byAssignee: [{ title: 'Leak' }], byWatcher: [{ title: 'Leak' }] });

      await run(gateway, `mutation { updateTicket(id: "${created.createTicket.id}", input: { assignee: "${bob}" }) { id } }`);
      expect((await file.mongo.client.db(db.databaseName).collection('tickets').findOne({}))!.assignee).toEqual(new ObjectId(bob));
      expect(await run(gateway, `{ tickets(assignee: "${bob}") { title } }`)).toEqual({ tickets: [{ title: 'Leak' }] });

      for (const mutation of [
        'mutation { createTicket(input: { title: "Bad", assignee: "alice", watchers: [] }) { id } }',
        `mutation { createTicket(input: { title: "Bad", watchers: ["${bob}", "bob"] }) { id } }`,
        `mutation { updateTicket(id: "${created.createTicket.id}", input: { assignee: "alice" }) { id } }`,
      ]) {
        const refused = await gateway.execute({ query: mutation });
        expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
          ['BAD_USER_INPUT', expect.stringMatching(/^input\.(assignee|watchers\[1\]) must be a 24-character hexadecimal ObjectId, got "(alice|bob)"$/)],
        ]);
      }
      expect(await file.mongo.client.db(db.databaseName).collection('tickets').countDocuments()).toBe(1);
      expect((await file.mongo.client.db(db.databaseName).collection('tickets').findOne({}))!.assignee).toEqual(new ObjectId(bob));
    } finally {
      await gateway.stop();
    }
    expect(warnings).toEqual([]);

    await db.collection('tickets').insertOne({ title: 'Ported', assignee: alice, watchers: [] });
    const later: string[] = [];
    await (await createCheckedGateway({ typeDefs: ID_SDL, mongoClient: file.client, db: db.databaseName, listen: false, onWarning: (message) => later.push(message) })).stop();
    expect(later).toEqual([
      `Ticket.assignee is ID, but "assignee" holds "${alice}" in 1 of 2 sampled tickets documents, not an ObjectId: filters and access rules compare an ID field with ObjectIds and generated writes store ObjectIds, so they never match those documents; store ObjectIds, or make Ticket.assignee a String`,
    ]);
  });
});
