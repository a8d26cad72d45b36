import { encodeCursor } from '../../../src/gateway/planning/cursor';
import { parseSort } from '../../../src/gateway/storage-map/parse-sort';
import type { SortKey } from '../../../src/gateway/storage-map/storage-map-types';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

const db = () => demo.mongo.client.db(demo.dbName);

async function errorOf(query: string, options: { variables?: Record<string, unknown>; strategyHeader?: string } = {}) {
  const result = await demo.gateway.execute({ query, variables: options.variables }, { strategyHeader: options.strategyHeader });
  expect(result.errors).toHaveLength(1);
  const [error] = result.errors!;
  return { code: error!.extensions?.code, message: error!.message, data: result.data };
}

describe('bad input is BAD_USER_INPUT', () => {
  it('an invalid id names the value', async () => {
    expect(await errorOf('{ book(id: "123") { name } }')).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'id must be a 24-character hexadecimal ObjectId, got "123"',
      data: { book: null },
    });
  });

  it('first over the cap, at the root and on a nested reverse join', async () => {
    expect(await errorOf('{ books(first: 101) { name } }')).toMatchObject({ code: 'BAD_USER_INPUT', message: 'first must be between 0 and 100, got 101' });
    expect(await errorOf('{ hosts(first: 1) { logs(first: 500) { message } } }')).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'first must be between 0 and 100, got 500',
    });
    expect(await errorOf('{ books(first: -1) { name } }')).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('an unknown strategy or field in the override header, with the valid choices', async () => {
    await expect(demo.gateway.execute({ query: '{ books { name } }' }, { strategyHeader: 'Book.authors=fastest' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('unknown strategy "fastest" for Book.authors; choose join or snapshot'),
    });
  });

  it('a DateTime that is not ISO-8601, as a literal or a variable', async () => {
    expect(await errorOf('{ tasks(dueBefore: "next tuesday") { description } }')).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await errorOf('query ($d: DateTime) { tasks(dueBefore: $d) { description } }', { variables: { d: 'nope' } })).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('a cursor that was not issued by the list', async () => {
    expect(await errorOf('{ books(after: "bm90IGEgY3Vyc29y") { name } }')).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'after: "bm90IGEgY3Vyc29y" is not a cursor of this list',
    });
  });
});

describe('missing documents and inert operators', () => {
  it('a missing document is null, without an error', async () => {
    const result = await demo.gateway.execute({ query: '{ book(id: "000000000000000000000000") { name } stock(symbol: "NOPE") { symbol } }' });
    expect(result).toMatchObject({ data: { book: null, stock: null }, errors: undefined });
    expect(result.cost!.roundTrips).toBe(2);
  });

  it('$ operators in string arguments are looked up literally', async () => {
    const query = 'query ($s: String!) { stock(symbol: $s) { symbol } product(catalogNumber: $s) { name } host(ipaddr: $s) { name } }';
    for (const s of ['{"$gt": ""}', '$where', '{"$ne": null}']) {
      const result = await demo.gateway.execute({ query, variables: { s } });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ stock: null, product: null, host: null });
    }
  });

  it('finds a real document by its natural key', async () => {
    const stock = await db().collection('stocks').findOne({}, { sort: { _id: 1 } });
    const result = await demo.gateway.execute({ query: `{ stock(symbol: "${stock!.symbol}") { id symbol pe } }` });
    expect(result.data).toEqual({ stock: { id: stock!._id.toHexString(), symbol: stock!.symbol, pe: stock!.pe } });
  });
});

describe('filters and pages', () => {
  it('tasks(dueBefore) returns tasks due strictly before, in _id order', async () => {
    const cut = new Date('2026-06-01T00:00:00.000Z');
    const expected = await db().collection('tasks').find({ due: { $lt: cut } }, { sort: { _id: 1 }, limit: 100 }).toArray();
    const result = await demo.gateway.execute({ query: `{ tasks(first: 100, dueBefore: "${cut.toISOString()}") { id due } }` });
    expect(result.data).toEqual({ tasks: expected.map((task) => ({ id: task._id.toHexString(), due: task.due.toISOString() })) });
  });

  it('after continues a root list where the previous page ended', async () => {
    const all = (await demo.gateway.execute({ query: '{ books(first: 10) { id name } }' })).data!.books as Array<{ id: string }>;
    const fifth = await db().collection('books').findOne({}, { sort: { _id: 1 }, skip: 4 });
    const cursor = encodeCursor(fifth!, parseSort('_id') as SortKey[]);
    const next = await demo.gateway.execute({ query: `{ books(first: 5, after: "${cursor}") { id name } }` });
    expect(next.data!.books).toEqual(all.slice(5, 10));
  });

  it('Post.comments pages newest first with after; Host.logs pages with before', async () => {
    const post = await db().collection('posts').findOne({ commentCount: { $gte: 6 } }, { sort: { _id: 1 } });
    const comments = await db().collection('comments').find({ postId: post!._id }, { sort: { createdAt: -1, _id: -1 }, limit: 6 }).toArray();
    const cursor = encodeCursor(comments[2]!, parseSort('-createdAt') as SortKey[]);
    const page = await demo.gateway.execute({ query: `{ post(id: "${post!._id.toHexString()}") { comments(first: 3, after: "${cursor}") { id } } }` });
    expect(page.data).toEqual({ post: { comments: comments.slice(3, 6).map((c) => ({ id: c._id.toHexString() })) } });

    const host = await db().collection('hosts').findOne({}, { sort: { _id: 1 } });
    const logs = await db().collection('logMessages').find({ 'host.id': host!._id }, { sort: { time: -1, _id: -1 }, limit: 8 }).toArray();
    const before = logs[4]!.time as Date;
    const older = logs.filter((log) => log.time < before).slice(0, 3);
    const result = await demo.gateway.execute({ query: `{ host(ipaddr: "${host!.ipaddr}") { logs(first: 3, before: "${before.toISOString()}") { id } } }` });
    expect(result.data).toEqual({ host: { logs: older.map((log) => ({ id: log._id.toHexString() })) } });
  });

  it('first: 0 returns an empty list without a query', async () => {
    const result = await demo.gateway.execute({ query: '{ books(first: 0) { name } }' });
    expect(result.data).toEqual({ books: [] });
    expect(result.cost!.roundTrips).toBe(0);
  });
});
