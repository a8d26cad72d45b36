import { Decimal128, Double, Long, ObjectId } from 'mongodb';
import type { GraphQLObjectType } from 'graphql';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * `@aggregate` on the demo (comments per post, tasks done per person), every figure computed again from
 * the documents the raw driver reads and every round trip exact; and sums that stay exact over
 * Decimal128 and Long values.
 */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 0.05 });
}, 120_000);
afterAll(() => demo?.stop());

const db = () => demo.mongo.client.db(demo.dbName);

async function run(query: string) {
  const result = await demo.gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  return { data: result.data as Record<string, unknown>, cost: result.cost! };
}

describe('comments per post', () => {
  it('reads a bare count from Post.commentCount: no command beyond the posts', async () => {
    const posts = await db().collection('posts').find({}, { sort: { _id: 1 }, limit: 5 }).toArray();
    const comments = await db().collection('comments').find({ postId: { $in: posts.map((post) => post._id) } }).toArray();
    const { data, cost } = await run('{ posts(first: 5) { title commentsAggregate { count } } }');
    expect(data).toEqual({ posts: posts.map((post) => ({ title: post.title, commentsAggregate: { count: comments.filter((comment) => comment.postId.equals(post._id)).length } })) });
    expect(cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(cost.fields['Post.commentsAggregate']).toEqual({ strategy: 'embedded', roundTrips: 0, documents: 0, keys: 0 });
  });

  it('computes the newest comment and the most active commenters of every post in ONE aggregate', async () => {
    const posts = await db().collection('posts').find({}, { sort: { _id: 1 }, limit: 5 }).toArray();
    const comments = await db().collection('comments').find({ postId: { $in: posts.map((post) => post._id) } }).toArray();
    expect(comments.length).toBeGreaterThan(5);
    const { data, cost } = await run('{ posts(first: 5) { commentsAggregate { count max { createdAt } groupBy(by: [AUTHOR], first: 2, order: COUNT_DESC) { key { author } count } } } }');
    expect(data).toEqual({
      posts: posts.map((post) => {
        const own = comments.filter((comment) => comment.postId.equals(post._id));
        const perAuthor = new Map<string, number>();
        for (const comment of own) perAuthor.set(comment.author, (perAuthor.get(comment.author) ?? 0) + 1);
        const newest = own.map((comment) => comment.createdAt as Date).sort((a, b) => b.getTime() - a.getTime())[0];
        return {
          commentsAggregate: {
            count: own.length,
            max: { createdAt: newest ? newest.toISOString() : null },
            groupBy: [...perAuthor]
              .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))
              .slice(0, 2)
              .map(([author, count]) => ({ key: { author }, count })),
          },
        };
      }),
    });
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    // One command: per post with comments, one document of figures and one of groups.
    const commented = posts.filter((post) => comments.some((comment) => comment.postId.equals(post._id))).length;
    expect(cost.collections.comments).toEqual({ roundTrips: 1, documents: 2 * commented });
  });

  it('sends the figures in the same command as the level\'s page of the list they cover', async () => {
    const posts = await db().collection('posts').find({}, { sort: { _id: 1 }, limit: 3 }).toArray();
    const comments = await db().collection('comments').find({ postId: { $in: posts.map((post) => post._id) } }, { sort: { createdAt: -1, _id: -1 } }).toArray();
    const { data, cost } = await run('{ posts(first: 3) { comments(first: 2) { comment } commentsAggregate { max { createdAt } } } }');
    expect(data).toEqual({
      posts: posts.map((post) => {
        const own = comments.filter((comment) => comment.postId.equals(post._id));
        return { comments: own.slice(0, 2).map((comment) => ({ comment: comment.comment })), commentsAggregate: { max: { createdAt: own[0] ? (own[0].createdAt as Date).toISOString() : null } } };
      }),
    });
    // The posts, then one aggregate on comments: the pages and the figures are branches of it.
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(cost.collections.comments!.roundTrips).toBe(1);
  });
});

describe('tasks done per person (the @inverse of Task.owner)', () => {
  it('counts each person\'s tasks, filtered and grouped, from the tasks that name them as owner: one aggregate for both aliases', async () => {
    const people = await db().collection('people').find({}, { sort: { _id: 1 }, limit: 10 }).toArray();
    const tasks = await db().collection('tasks').find({ ownerId: { $in: people.map((person) => person._id) } }).toArray();
    expect(new Set(tasks.map((task) => task.done))).toEqual(new Set([true, false]));
    const { data, cost } = await run('{ people(first: 10) { firstName done: tasksAggregate(done: true) { count } all: tasksAggregate { count min { due } groupBy(by: [DONE]) { key { done } count } } } }');
    expect(data).toEqual({
      people: people.map((person) => {
        const own = tasks.filter((task) => task.ownerId.equals(person._id));
        const due = own.map((task) => task.due as Date).sort((a, b) => a.getTime() - b.getTime())[0];
        return {
          firstName: person.firstName,
          done: { count: own.filter((task) => task.done).length },
          all: {
            count: own.length,
            min: { due: due ? due.toISOString() : null },
            groupBy: [false, true].filter((done) => own.some((task) => task.done === done)).map((done) => ({ key: { done }, count: own.filter((task) => task.done === done).length })),
          },
        };
      }),
    });
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(cost.collections.tasks).toEqual({ roundTrips: 1, documents: expect.any(Number) });
  });

  it('sends nothing for a selection of __typename only', async () => {
    const { data, cost } = await run('{ people(first: 2) { tasksAggregate { __typename } } }');
    expect(data).toEqual({ people: [{ tasksAggregate: { __typename: 'TaskAggregate' } }, { tasksAggregate: { __typename: 'TaskAggregate' } }] });
    expect(cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });
});

describe('exact sums', () => {
  let ledger: SdlGateway;
  beforeAll(async () => {
    ledger = await startSdlGateway({
      dbPrefix: 'aggregate_sums',
      typeDefs: /* GraphQL */ `
        type Query {
          entries(first: Int = 20, after: ID, minPrice: Decimal @filter(field: "price", op: GTE), serial: Long): [Entry!]! @list
          entriesAggregate: EntryAggregate! @aggregate(of: "entries", fields: ["amount", "units", "price", "serial"], groupBy: ["units"])
        }
        type Entry @collection(name: "entries") {
          id: ID!
          amount: Float!
          units: Int!
          price: Decimal!
          serial: Long!
        }
      `,
      prepare: async (db) => {
        await db.collection('entries').insertMany(
          [0, 1, 2].map((index) => ({
            _id: new ObjectId(),
            amount: Decimal128.fromString('0.1'),
            units: Long.fromNumber(2 ** 31 - 1),
            price: Decimal128.fromString(`1234567890123456789.0123456789012${index}`),
            serial: Long.fromBigInt(2n ** 53n + BigInt(index)),
          })),
        );
        await db.collection('entries').createIndex({ price: 1 });
        await db.collection('entries').createIndex({ serial: 1 });
      },
    });
  }, 60_000);
  afterAll(() => ledger?.stop());

  it('adds Decimal128 and Long values in MongoDB, exactly, and rounds the total once', async () => {
    const result = await ledger.gateway.execute({ query: '{ entriesAggregate { count sum { amount units } avg { amount } } }' });
    expect(result.errors).toBeUndefined();
    // In doubles, 0.1 + 0.1 + 0.1 is 0.30000000000000004; three int32 maxima overflow int32.
    expect(result.data).toEqual({ entriesAggregate: { count: 3, sum: { amount: 0.3, units: 3 * (2 ** 31 - 1) }, avg: { amount: 0.1 } } });
    expect(0.1 + 0.1 + 0.1).not.toBe(0.3);
  });

  it('gives the figures of a Decimal or a Long field in its own scalar, as strings, with every digit', async () => {
    const result = await ledger.gateway.execute({ query: '{ entriesAggregate { sum { price serial } avg { price } min { price serial } max { serial } groupBy(by: [UNITS]) { sum { serial } } } }' });
    expect(result.errors).toBeUndefined();
    // 33 significant digits each (a double holds about 16); 2^53 + 0, + 1 and + 2 (a double holds none of the odd ones).
    expect(result.data).toEqual({
      entriesAggregate: {
        sum: { price: '3703703670370370367.03703703670363', serial: '27021597764222979' },
        avg: { price: expect.stringMatching(/^1234567890123456789\.01234567890121(0*)$/) },
        min: { price: '1234567890123456789.01234567890120', serial: '9007199254740992' },
        max: { serial: '9007199254740994' },
        groupBy: [{ sum: { serial: '27021597764222979' } }],
      },
    });
    // Filters compare Decimal and Long values in MongoDB, past a double's precision.
    const filtered = await ledger.gateway.execute({ query: 'query($min: Decimal) { entries(minPrice: $min) { price } bySerial: entries(serial: "9007199254740993") { serial } }', variables: { min: '1234567890123456789.01234567890121' } });
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data).toEqual({ entries: [{ price: '1234567890123456789.01234567890121' }, { price: '1234567890123456789.01234567890122' }], bySerial: [{ serial: '9007199254740993' }] });
    const sums = ledger.gateway.schema.getType('EntrySums') as GraphQLObjectType;
    expect(Object.fromEntries(Object.values(sums.getFields()).map((field) => [field.name, String(field.type)]))).toEqual({ amount: 'Float!', units: 'Float!', price: 'Decimal!', serial: 'Long!' });
  });
});


describe("figures past their type's range", () => {
  let huge: SdlGateway;
  beforeAll(async () => {
    huge = await startSdlGateway({
      dbPrefix: 'aggregate_overflow',
      typeDefs: /* GraphQL */ `
        type Query { readings(first: Int = 20): [Reading!]! @list readingsAggregate: ReadingAggregate! @aggregate(of: "readings", fields: ["value", "ticks", "peak", "drift", "serial", "stock"]) }
        type Reading @collection(name: "readings") { id: ID! value: Float! ticks: Long! peak: Float! drift: Float! serial: Long stock: Long }
      `,
      prepare: async (db) => {
        await db.collection('readings').insertMany([
          { value: Number.MAX_VALUE, ticks: Long.fromBigInt(2n ** 62n), peak: 1, drift: Number.POSITIVE_INFINITY, serial: Long.fromBigInt(2n ** 53n + 1n), stock: Long.fromNumber(2) },
          { value: Number.MAX_VALUE, ticks: Long.fromBigInt(2n ** 62n), peak: Number.POSITIVE_INFINITY, drift: Number.NEGATIVE_INFINITY, serial: new Double(2), stock: Decimal128.fromString('1.5') },
          { value: 1, ticks: Long.fromNumber(1), peak: 2, drift: 1, stock: Decimal128.fromString('3') },
        ]);
      },
    });
  }, 60_000);
  afterAll(() => huge?.stop());

  it('answers an error at the figure saying so, and the other figures: MongoDB adds them up to Infinity, which Float cannot hold', async () => {
    const result = await huge.gateway.execute({ query: '{ readingsAggregate { count max { value } } mean: readingsAggregate { avg { value } } }' });
    expect(result.data).toEqual({ readingsAggregate: { count: 3, max: { value: Number.MAX_VALUE } }, mean: { avg: { value: null } } });
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is Infinity: the values add up past the largest double (±1.8e308); aggregate a Decimal field for figures this large', ['mean', 'avg', 'value'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });

  it('refuses a Long sum past 64 bits, which MongoDB turns into a double, with the same code', async () => {
    const result = await huge.gateway.execute({ query: '{ readingsAggregate { count } total: readingsAggregate { sum { ticks } } }' });
    // Long!, the sums and the aggregate are non-null: the error nulls them all the way up to data.
    expect(result.data).toBeNull();
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ["the figure is about 9.22e+18: the values add up past a Long's range (±9.2e18); aggregate a Decimal field for figures this large", ['total', 'sum', 'ticks'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });

  it('refuses a Long sum MongoDB added as a double because a stored value is one, past 2^53 where doubles round', async () => {
    const result = await huge.gateway.execute({ query: '{ readingsAggregate { count sum { serial } } }' });
    // The exact sum is 2^53 + 3, which no double holds.
    expect(result.data).toBeNull();
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is about 9.01e+15, added by MongoDB as a double because some stored values are doubles, so it is not exact as a Long; store them as Longs, or aggregate a Decimal field', ['readingsAggregate', 'sum', 'serial'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });

  it('refuses a Long figure MongoDB gives as a Decimal128 no Long holds (a decimal stored in the field), and gives one that is a whole number', async () => {
    const extremes = await huge.gateway.execute({ query: '{ top: readingsAggregate { max { stock } } low: readingsAggregate { min { stock } } }' });
    expect(extremes.data).toEqual({ top: { max: { stock: '3' } }, low: { min: { stock: null } } });
    expect(extremes.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is 1.5, a stored Decimal128, not a whole number a Long holds; store them as Longs, or declare the field Decimal', ['low', 'min', 'stock'], 'VALUE_OUT_OF_RANGE'],
    ]);
    const total = await huge.gateway.execute({ query: '{ readingsAggregate { sum { stock } } }' });
    expect(total.data).toBeNull();
    expect(total.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is 6.5, added by MongoDB as a Decimal128 because some stored values are Decimal128s, not a whole number a Long holds; store them as Longs, or declare the field Decimal', ['readingsAggregate', 'sum', 'stock'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });

  it('says a stored infinity is one, not a sum, with the same code', async () => {
    const result = await huge.gateway.execute({ query: '{ readingsAggregate { min { peak } } top: readingsAggregate { max { peak } } }' });
    expect(result.data).toEqual({ readingsAggregate: { min: { peak: 1 } }, top: { max: { peak: null } } });
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is Infinity, a stored value Float cannot hold (JSON has no infinity)', ['top', 'max', 'peak'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });

  it('says a NaN figure comes from a NaN or from infinities of both signs, not from a sum too large', async () => {
    const result = await huge.gateway.execute({ query: '{ readingsAggregate { count } net: readingsAggregate { avg { drift } } }' });
    expect(result.data).toEqual({ readingsAggregate: { count: 3 }, net: { avg: { drift: null } } });
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions?.code])).toEqual([
      ['the figure is NaN: the values include a stored NaN, or infinities of both signs (JSON has no NaN)', ['net', 'avg', 'drift'], 'VALUE_OUT_OF_RANGE'],
    ]);
  });
});

describe('access rules', () => {
  let payroll: SdlGateway;
  const ANN = new ObjectId('0000000000000000000000a1');
  const BOB = new ObjectId('0000000000000000000000b1');
  const clerk: Viewer = { role: 'clerk', roles: ['clerk'], anonymous: false, subject: ANN.toHexString(), claims: { sub: ANN.toHexString() } };
  const admin: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: {} };
  beforeAll(async () => {
    payroll = await startSdlGateway({
      dbPrefix: 'aggregate_access',
      typeDefs: /* GraphQL */ `
        type Query {
          staff(first: Int = 20, after: ID, team: String, maxSalary: Float @filter(field: "salary", op: LTE)): [Staff!]! @list
          staffAggregate(team: String, maxSalary: Float): StaffAggregate! @aggregate(of: "staff", fields: ["salary", "age"], groupBy: ["team", "grade", "office"])
          "The same figures, under the salary cap its default sets."
          capped(maxSalary: Float = 50): StaffAggregate! @aggregate(of: "staff")
          offices: [Office!]! @list
        }
        type Office @collection(name: "offices")
          @access(roles: ["clerk"], allow: [READ], where: [{ field: "id", claim: "sub" }], hide: ["staff"])
          @access(roles: ["admin"], allow: [READ]) {
          id: ID!
          staff(first: Int = 20, after: ID): [Staff!]! @join(localField: "_id", foreignField: "officeId")
          staffAggregate: StaffAggregate! @aggregate(of: "staff")
        }
        type Staff @collection(name: "staff")
          @access(roles: ["clerk"], allow: [READ], where: [{ field: "office", claim: "sub" }], hide: ["salary", "grade"])
          @access(roles: ["admin"], allow: [READ]) {
          id: ID!
          office: Office @join(localField: "officeId")
          team: String!
          grade: Int!
          age: Int!
          salary: Float!
        }
      `,
      prepare: async (db) => {
        await db.collection('offices').insertMany([{ _id: ANN }, { _id: BOB }]);
        await db.collection('staff').insertMany([
          { officeId: ANN, team: 'a', grade: 1, age: 30, salary: 10 },
          { officeId: ANN, team: 'b', grade: 2, age: 40, salary: 20 },
          { officeId: BOB, team: 'a', grade: 3, age: 50, salary: 90 },
        ]);
        for (const key of ['officeId', 'team', 'salary']) await db.collection('staff').createIndex({ [key]: 1 });
      },
      gateway: { auth: { authenticate: () => clerk }, onWarning: () => undefined },
    });
  }, 60_000);
  afterAll(() => payroll?.stop());

  it('sends nothing for groups of none, and reads first: null as the default', async () => {
    const none = await payroll.gateway.execute({ query: '{ staffAggregate { groupBy(by: [TEAM], first: 0) { count } } }' }, { viewer: admin });
    expect(none.data).toEqual({ staffAggregate: { groupBy: [] } });
    expect(none.cost).toMatchObject({ roundTrips: 0, estimatedRoundTrips: 0 });
    const byDefault = await payroll.gateway.execute({ query: '{ staffAggregate { groupBy(by: [OFFICE], first: null) { key { office } count } } }' }, { viewer: admin });
    expect(byDefault.data).toEqual({ staffAggregate: { groupBy: [{ key: { office: ANN.toHexString() }, count: 2 }, { key: { office: BOB.toHexString() }, count: 1 }] } });
    expect(byDefault.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  });

  it('adds up only the rows the role reads, filtered inside MongoDB', async () => {
    const mine = await payroll.gateway.execute({ query: '{ staffAggregate { count avg { age } groupBy(by: [TEAM]) { key { team } count } } }' }, { viewer: clerk });
    expect(mine.errors).toBeUndefined();
    expect(mine.data).toEqual({ staffAggregate: { count: 2, avg: { age: 35 }, groupBy: [{ key: { team: 'a' }, count: 1 }, { key: { team: 'b' }, count: 1 }] } });
    // Both rules pin the office to the clerk's claim: a group by it shows only the office the clerk reads.
    const byOffice = await payroll.gateway.execute({ query: '{ staffAggregate { groupBy(by: [OFFICE]) { key { office } count } } }' }, { viewer: clerk });
    expect([byOffice.errors, byOffice.data]).toEqual([undefined, { staffAggregate: { groupBy: [{ key: { office: ANN.toHexString() }, count: 2 }] } }]);
    const all = await payroll.gateway.execute({ query: '{ staffAggregate { count sum { salary } } }' }, { viewer: admin });
    expect(all.data).toEqual({ staffAggregate: { count: 3, sum: { salary: 120 } } });
  });

  it.each([
    ['{ staffAggregate { sum { salary } } }', 'Query.staffAggregate reads Staff.salary, which is hidden from role "clerk"'],
    ['{ staffAggregate { max { salary } } }', 'Query.staffAggregate reads Staff.salary, which is hidden from role "clerk"'],
    ['{ staffAggregate { groupBy(by: [GRADE]) { count } } }', 'Query.staffAggregate groups by Staff.grade, which is hidden from role "clerk"'],
    ['{ staffAggregate { groupBy(by: TEAM) { key { grade } } } }', 'Query.staffAggregate reads Staff.grade, which is hidden from role "clerk"'],
    ['{ staffAggregate { groupBy(by: [TEAM]) { avg { salary } } } }', 'Query.staffAggregate reads Staff.salary, which is hidden from role "clerk"'],
    ['query Q($by: [StaffGroupField!]!) { staffAggregate { groupBy(by: $by) { count } } }', 'Query.staffAggregate may group (by: a variable) by Staff.grade, which is hidden from role "clerk"'],
    ['{ staffAggregate(maxSalary: 50) { count } }', 'Query.staffAggregate(maxSalary:) filters by Staff.salary, which is hidden from role "clerk"'],
    ['{ capped { count } }', 'Query.capped(maxSalary:) filters by Staff.salary, which is hidden from role "clerk"'],
    ['{ offices { staffAggregate { count } } }', 'Office.staffAggregate adds up Office.staff, which is hidden from role "clerk"'],
  ])('refuses %s before anything runs: a figure shows its values as a selection does', async (query, message) => {
    const result = await payroll.gateway.execute({ query, variables: { by: ['TEAM'] } }, { viewer: clerk });
    expect(result.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([[message, 'FORBIDDEN']]);
    expect(result.cost).toMatchObject({ roundTrips: 0 });
  });
});
