import type { CommandStartedEvent } from 'mongodb';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/** What the refusal of a missing `after` item adds (page-request.ts). */
const ANCHOR_GONE = " (deleted since its page was read, or never in this list): a page starts after an item that still exists; start again from the first page, or page by a connection's cursor, which keeps its place without the item";

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

const db = () => demo.mongo.client.db(demo.dbName);

/** Runs `query` on the gateway and returns the result with the commands its own client sent meanwhile. */
async function withCommands(query: string, variables?: Record<string, unknown>) {
  const started: CommandStartedEvent[] = [];
  const listener = (event: CommandStartedEvent) => started.push(event);
  demo.client.on('commandStarted', listener);
  try {
    const result = await demo.gateway.execute({ query, ...(variables && { variables }) });
    return { ...result, commands: started.map((event) => ({ name: event.commandName, command: event.command })) };
  } finally {
    demo.client.off('commandStarted', listener);
  }
}

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

  it('a long bad value is quoted cut, with its length, not echoed whole', async () => {
    const id = 'z'.repeat(100_000);
    const { code, message } = await errorOf('query ($id: ID!) { book(id: $id) { name } }', { variables: { id } });
    expect(code).toBe('BAD_USER_INPUT');
    expect(message).toBe(`id must be a 24-character hexadecimal ObjectId, got "${'z'.repeat(80)}…" (100,000 characters)`);
    const after = await errorOf(`{ books(first: 1, after: "${'b'.repeat(5000)}") { name } }`);
    expect(after.message).toBe(`after must be the id of the last item you received, an ObjectId of 24 hexadecimal characters (a list of documents whose ids are no ObjectIds cannot be paged after: read it with first alone), got "${'b'.repeat(80)}…" (5,000 characters)`);
    // graphql-js's own coercion errors repeat a variable's value whole: the formatted error cuts it the same way.
    const dueBefore = await errorOf('query ($d: DateTime!) { tasks(dueBefore: $d) { description } }', { variables: { d: 'x'.repeat(100_000) } });
    expect(dueBefore.code).toBe('BAD_USER_INPUT');
    expect(dueBefore.message).toBe(`Variable "$d" got invalid value "${'x'.repeat(80)}…" (100,000 characters); DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "${'x'.repeat(80)}…" (100,000 characters)`);
  });

  it('a bad scalar literal is placed where the operation wrote it, as graphql-js places its own scalars\' refusals', async () => {
    const result = await demo.gateway.execute({ query: '{\n  tasks(dueBefore: "next week") { description }\n  hosts(first: 1) { logs(before: 5) { message } }\n}' });
    expect(result.data).toBeUndefined();
    expect(result.errors!.map((error) => ({ code: error.extensions?.code, message: error.message, locations: error.locations }))).toEqual([
      { code: 'BAD_USER_INPUT', message: 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "next week"', locations: [{ line: 2, column: 20 }] },
      { code: 'BAD_USER_INPUT', message: 'DateTime must be an ISO-8601 string, got 5', locations: [{ line: 3, column: 34 }] },
    ]);
  });

  it('first over the cap, at the root and on a nested reverse join', async () => {
    expect(await errorOf('{ books(first: 101) { name } }')).toMatchObject({ code: 'BAD_USER_INPUT', message: 'first must be between 0 and 100, got 101' });
    expect(await errorOf('{ hosts(first: 1) { logs(first: 500) { message } } }')).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'first must be between 0 and 100, got 500',
    });
    expect(await errorOf('{ books(first: -1) { name } }')).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('an unknown strategy or field in the override header is an answer with the valid choices, as over HTTP (execute() does not reject)', async () => {
    const result = await demo.gateway.execute({ query: '{ books { name } }' }, { strategyHeader: 'Book.authors=fastest' });
    expect(result.data).toBeUndefined();
    expect(result.cost).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.message).toContain('unknown strategy "fastest" for Book.authors; choose join, snapshot or lookup');
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(result.errors![0]!.extensions).not.toHaveProperty('http');
    expect(await errorOf('{ books { name } }', { strategyHeader: 'Book.nothing=join' })).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('unknown field "Book.nothing"') });
    const next = await demo.gateway.execute({ query: '{ books(first: 1) { name } }' });
    expect(next.errors).toBeUndefined();
    expect(next.data?.books).toHaveLength(1);
  });

  it('a DateTime that is not ISO-8601, as a literal or a variable', async () => {
    expect(await errorOf('{ tasks(dueBefore: "next tuesday") { description } }')).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await errorOf('query ($d: DateTime) { tasks(dueBefore: $d) { description } }', { variables: { d: 'nope' } })).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('an after that is not an id, at the root and on a nested reverse join, names the argument and the value', async () => {
    const message = (value: string) => `after must be the id of the last item you received, an ObjectId of 24 hexadecimal characters (a list of documents whose ids are no ObjectIds cannot be paged after: read it with first alone), got ${JSON.stringify(value)}`;
    expect(await errorOf('{ books(after: "bm90IGEgY3Vyc29y") { name } }')).toEqual({ code: 'BAD_USER_INPUT', message: message('bm90IGEgY3Vyc29y'), data: null });
    const post = await db().collection('posts').findOne({}, { sort: { _id: 1 } });
    const query = `query ($after: ID) { post(id: "${post!._id.toHexString()}") { comments(first: 3, after: $after) { id } } }`;
    for (const after of ['', '65a00000000000000000001', '{"$gt":""}']) {
      const result = await demo.gateway.execute({ query, variables: { after } });
      expect(result.errors!.map((error) => [error.extensions?.code, error.message])).toEqual([['BAD_USER_INPUT', message(after)]]);
      expect(result.data).toEqual({ post: null });
      expect(result.cost!.roundTrips).toBe(1); // the post; nothing for the comments
    }
  });

  it('an after naming no comment is BAD_USER_INPUT, not an empty page (Post.comments is ordered by createdAt)', async () => {
    const post = await db().collection('posts').findOne({ commentCount: { $gte: 3 } }, { sort: { _id: 1 } });
    const result = await demo.gateway.execute({ query: `{ post(id: "${post!._id.toHexString()}") { comments(first: 3, after: "00000000000000000000000A") { id } } }` });
    expect(result.errors!.map((error) => [error.extensions?.code, error.message, error.path])).toEqual([
      ['BAD_USER_INPUT', `after: no Comment with id "00000000000000000000000a"${ANCHOR_GONE}`, ['post', 'comments']],
    ]);
    expect(result.data).toEqual({ post: null });
    expect(result.cost!.roundTrips).toBe(2); // the post, the anchor; no aggregate
    // The id of a document of another collection is no Comment either.
    const postAsAnchor = await demo.gateway.execute({ query: `{ post(id: "${post!._id.toHexString()}") { comments(after: "${post!._id.toHexString()}") { id } } }` });
    expect(postAsAnchor.errors!.map((error) => error.message)).toEqual([`after: no Comment with id "${post!._id.toHexString()}"${ANCHOR_GONE}`]);
  });
});

describe('an unknown enum value (TaskStatus)', () => {
  it('inline is rejected by validation: GRAPHQL_VALIDATION_FAILED, nothing sent', async () => {
    const { errors, data, cost, commands } = await withCommands('{ tasks(status: PENDING) { id } }');
    expect(errors!.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['GRAPHQL_VALIDATION_FAILED', 'Value "PENDING" does not exist in "TaskStatus" enum.'],
    ]);
    expect([data, cost!.roundTrips, commands]).toEqual([undefined, 0, []]);
  });

  it('as a variable is rejected by variable coercion: BAD_USER_INPUT, nothing sent', async () => {
    const { errors, data, cost, commands } = await withCommands('query ($s: TaskStatus) { tasks(status: $s) { id } }', { s: 'PENDING' });
    expect(errors!.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['BAD_USER_INPUT', 'Variable "$s" got invalid value "PENDING"; Value "PENDING" does not exist in "TaskStatus" enum.'],
    ]);
    expect([data, cost!.roundTrips, commands]).toEqual([undefined, 0, []]);
  });

  it('a known value filters on the stored done flag', async () => {
    for (const [status, done] of [['DONE', true], ['OPEN', false]] as const) {
      const expected = await db().collection('tasks').find({ done }, { sort: { _id: 1 }, limit: 30 }).toArray();
      expect(expected).toHaveLength(30);
      const { data, errors, commands } = await withCommands(`{ tasks(first: 30, status: ${status}) { id done } }`);
      expect(errors).toBeUndefined();
      expect(data).toEqual({ tasks: expected.map((task) => ({ id: task._id.toHexString(), done })) });
      expect(commands.map((command) => command.command.filter)).toEqual([{ done }]);
    }
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

  it('an operator object sent as a String! or ID! variable fails variable coercion: BAD_USER_INPUT, nothing sent', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['query ($s: String!) { stock(symbol: $s) { symbol } }', { s: { $gt: '' } }, 'Variable "$s" got invalid value { $gt: "" }; String cannot represent a non string value: { $gt: "" }'],
      ['query ($id: ID!) { book(id: $id) { name } }', { id: { $ne: null } }, 'Variable "$id" got invalid value { $ne: null }; ID cannot represent value: { $ne: null }'],
    ];
    for (const [query, variables, message] of cases) {
      const { errors, data, cost, commands } = await withCommands(query, variables);
      expect(errors!.map((error) => [error.extensions?.code, error.message])).toEqual([['BAD_USER_INPUT', message]]);
      expect([data, cost!.roundTrips, commands]).toEqual([undefined, 0, []]);
    }
  });

  it('an operator-looking string is sent as a literal equality', async () => {
    const { data, errors, commands } = await withCommands('query ($s: String!) { stock(symbol: $s) { symbol } }', { s: '{"$gt": ""}' });
    expect([data, errors]).toEqual([{ stock: null }, undefined]);
    expect(commands.map(({ name, command }) => [name, command.find, command.filter])).toEqual([['find', 'stocks', { symbol: '{"$gt": ""}' }]]);
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
    const next = await demo.gateway.execute({ query: `{ books(first: 5, after: "${all[4]!.id}") { id name } }` });
    expect(next.data!.books).toEqual(all.slice(5, 10));
    expect(next.cost!.roundTrips).toBe(1);
  });

  it('on a list ordered by _id, an id that names no document is a position, not an error (the last item may since be deleted)', async () => {
    const first = await demo.gateway.execute({ query: '{ books(first: 3) { id } }' });
    const result = await demo.gateway.execute({ query: '{ books(first: 3, after: "000000000000000000000000") { id } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(first.data);
  });

  it('Post.comments pages newest first with after; Host.logs pages with before', async () => {
    const post = await db().collection('posts').findOne({ commentCount: { $gte: 6 } }, { sort: { _id: 1 } });
    const comments = await db().collection('comments').find({ postId: post!._id }, { sort: { createdAt: -1, _id: -1 }, limit: 6 }).toArray();
    const page = await demo.gateway.execute({ query: `{ post(id: "${post!._id.toHexString()}") { comments(first: 3, after: "${comments[2]!._id.toHexString()}") { id } } }` });
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
