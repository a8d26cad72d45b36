import { ServerResponse } from 'node:http';
import type { MongoClient } from 'mongodb';
import pino from 'pino';
import { connectMongo, type Gateway } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from 'docjoin/embedded-mongo';
import { capturedLogger } from '../../support/captured-logger';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * The gateway's logs (pino, one JSON line per request; slow operations; MongoDB outages and recoveries)
 * and its Prometheus metrics at /metrics, scraped over HTTP.
 */
const SDL = /* GraphQL */ `
  type Query { shelves(first: Int = 20): [Shelf!]! @list shelf(id: ID!): Shelf @find }
  type Shelf @collection(name: "shelves") {
    id: ID!
    name: String!
    books: [Book!]! @snapshot(path: "books", fields: ["id", "title"]) @join(localField: "books.id") @read(strategy: SNAPSHOT)
  }
  type Book @collection(name: "books") { id: ID! title: String! year: Int! }
  type Mutation { updateBook(id: ID!, input: BookPatch!): Book! @update }
  input BookPatch { title: String }
`;

let mongo: EmbeddedMongo;
let client: MongoClient;
let gateway: Gateway;
let port: number;
const { logger, lines } = capturedLogger();

beforeAll(async () => {
  mongo = await startEmbeddedMongo();
  port = Number(new URL(mongo.uri).port);
  client = await connectMongo(`${mongo.uri}&heartbeatFrequencyMS=500`, { serverSelectionTimeoutMS: 500 });
  const db = client.db('observability');
  const books = [{ title: 'A', year: 2001 }, { title: 'B', year: 2002 }];
  const { insertedIds } = await db.collection('books').insertMany(books);
  await db.collection('shelves').insertOne({ name: 'one', books: books.map((book, i) => ({ id: insertedIds[i], title: book.title })) });
  gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'observability', port: 0, logger, slowOperationMs: 60_000, limits: { maxRoundTrips: 4 } });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await response.json()) as { errors?: Array<{ extensions: { code: string } }> };
};
const scrape = async () => (await fetch(gateway.url!.replace('/graphql', '/metrics'))).text();
const metric = (text: string, series: string) => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

it('logs one line per request: operation, duration, measured and estimated round trips, error codes; never variables', async () => {
  lines.length = 0;
  await post({ query: 'query Shelf($id: ID!) { shelf(id: $id) { name books { title year } } }', variables: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, operationName: 'Shelf' });
  await post({ query: 'query Shelves { shelves { name books { title } } }', operationName: 'Shelves' });
  await post({ query: 'query Bad { shelves(first: 1000) { name } }', operationName: 'Bad' });
  expect(lines.map(({ msg, operation, type, roundTrips, estimatedRoundTrips, errorCodes }) => ({ msg, operation, type, roundTrips, estimatedRoundTrips, errorCodes }))).toEqual([
    { msg: 'operation', operation: 'Shelf', type: 'query', roundTrips: 1, estimatedRoundTrips: 2, errorCodes: undefined },
    { msg: 'operation', operation: 'Shelves', type: 'query', roundTrips: 1, estimatedRoundTrips: 1, errorCodes: undefined },
    { msg: 'operation', operation: 'Bad', type: 'query', roundTrips: 0, estimatedRoundTrips: 0, errorCodes: ['BAD_USER_INPUT'] },
  ]);
  for (const line of lines) expect(typeof line.durationMs).toBe('number');
  expect(JSON.stringify(lines)).not.toContain('aaaaaaaaaaaaaaaaaaaaaaaa');
});

it('writes the log line after the answer, off the request\'s latency', async () => {
  lines.length = 0;
  const answered = jest.spyOn(ServerResponse.prototype, 'end');
  const logged = jest.spyOn(lines, 'push');
  try {
    await post({ query: 'query Shelves { shelves { name } }', operationName: 'Shelves' });
    expect([answered.mock.calls.length, logged.mock.calls.length]).toEqual([1, 1]);
    expect(answered.mock.invocationCallOrder[0]).toBeLessThan(logged.mock.invocationCallOrder[0]!);
  } finally {
    answered.mockRestore();
    logged.mockRestore();
  }
  expect(lines).toEqual([expect.objectContaining({ msg: 'operation', operation: 'Shelves' })]);
});

it("logs a mutation with its fan-out: the documents it modified per collection, its copies' included", async () => {
  const shelf = await client.db('observability').collection('shelves').findOne({ name: 'one' });
  const bookId = String((shelf!.books as Array<{ id: unknown }>)[0]!.id);
  lines.length = 0;
  await post({ query: 'mutation Rename($id: ID!) { updateBook(id: $id, input: { title: "A2" }) { title } }', variables: { id: bookId }, operationName: 'Rename' });
  expect(lines).toEqual([expect.objectContaining({ msg: 'operation', operation: 'Rename', type: 'mutation', fanOut: { books: 1, shelves: 1 } })]);
});

it('logs and counts a request refused for a bad x-docjoin-* header, naming the header and not its value', async () => {
  const before = await scrape();
  lines.length = 0;
  const refused = await post({ query: '{ shelves { name } }' }, { 'x-docjoin-strategy': 'Shelf.books=sideways' });
  expect(refused.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_USER_INPUT'], header: 'x-docjoin-strategy' })]);
  expect(JSON.stringify(lines)).not.toContain('sideways');
  const after = await scrape();
  expect((metric(after, 'docjoin_requests_total{operation="anonymous",outcome="BAD_USER_INPUT"}') ?? 0) - (metric(before, 'docjoin_requests_total{operation="anonymous",outcome="BAD_USER_INPUT"}') ?? 0)).toBe(1);
});

it('logs and counts a request whose body is refused before Apollo sees it (not JSON)', async () => {
  const series = 'docjoin_requests_total{operation="anonymous",outcome="BAD_REQUEST"}';
  const before = metric(await scrape(), series) ?? 0;
  lines.length = 0;
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
  expect(response.status).toBe(400);
  expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_REQUEST'] })]);
  expect((metric(await scrape(), series) ?? 0) - before).toBe(1);
});

it.each([
  ['a text/plain body, blocked as a possible cross-site request forgery', { 'content-type': 'text/plain' }, '{ shelves { name } }', 'Cross-Site Request Forgery'],
  ['JSON whose variables are not an object', { 'content-type': 'application/json' }, JSON.stringify({ query: '{ shelves { name } }', variables: 'none' }), '`variables` in a POST body'],
])('logs and counts a request Apollo refuses before any operation starts, with its reason: %s', async (_case, headers, body, reason) => {
  const series = 'docjoin_requests_total{operation="anonymous",outcome="BAD_REQUEST"}';
  const before = metric(await scrape(), series) ?? 0;
  lines.length = 0;
  const response = await fetch(gateway.url!, { method: 'POST', headers, body });
  const answer = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
  expect([response.status, answer.errors.map((error) => error.extensions.code)]).toEqual([400, ['BAD_REQUEST']]);
  expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_REQUEST'], reason: expect.stringContaining(reason) })]);
  expect((metric(await scrape(), series) ?? 0) - before).toBe(1);
});

it('logs and counts once a GET Apollo answers 406 for its Accept header after running its query', async () => {
  const series = 'docjoin_requests_total{operation="Shelves",outcome="BAD_REQUEST"}';
  const before = metric(await scrape(), series) ?? 0;
  lines.length = 0;
  const response = await fetch(`${gateway.url!}?query=${encodeURIComponent('query Shelves { shelves { name } }')}`, { headers: { accept: 'text/plain', 'apollo-require-preflight': 'true' } });
  expect(response.status).toBe(406);
  await response.text();
  expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'operation', operation: 'Shelves', errorCodes: ['BAD_REQUEST'] })]);
  expect((metric(await scrape(), series) ?? 0) - before).toBe(1);
});

it('refuses a POST whose Accept header allows no JSON before running it (a mutation writes nothing), and logs and counts it', async () => {
  const series = 'docjoin_requests_total{operation="anonymous",outcome="BAD_REQUEST"}';
  const before = metric(await scrape(), series) ?? 0;
  const book = await client.db('observability').collection('books').findOne({});
  lines.length = 0;
  const mutation = `mutation Rename { updateBook(id: "${String(book!._id)}", input: { title: "renamed" }) { title } }`;
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/plain, text/html;q=0.9' }, body: JSON.stringify({ query: mutation }) });
  expect(response.status).toBe(406);
  expect(((await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> }).errors.map((error) => [error.extensions.code, error.message])).toEqual([
    ['BAD_REQUEST', "An 'accept' header was provided for this request which does not accept application/json or application/graphql-response+json; nothing was run"],
  ]);
  expect(await client.db('observability').collection('books').countDocuments({ title: 'renamed' })).toBe(0);
  expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_REQUEST'] })]);
  expect((metric(await scrape(), series) ?? 0) - before).toBe(1);
  // Any JSON type, with a charset or Apollo Router's callback parameters, a wildcard, or an empty header, is answered.
  for (const accept of ['application/graphql-response+json', 'application/json;charset=UTF-8', 'application/graphql-response+json; charset=utf-8', 'application/json;callbackSpec=1.0', 'text/plain, */*;q=0.1', 'application/*', '']) {
    const answered = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query: '{ shelves { name } }' }) });
    expect([accept, answered.status]).toEqual([accept, 200]);
    await answered.text();
  }
});

it('logs an operation without a name with a short hash of its text, the same for the same text', async () => {
  lines.length = 0;
  await post({ query: '{ shelves { name } }' });
  await post({ query: '{ shelves { name } }' });
  await post({ query: '{ shelves(first: 1) { name } }' });
  await post({ query: 'query Named { shelves { name } }' });
  const hashes = lines.map((line) => line.queryHash);
  expect(hashes[0]).toMatch(/^[0-9a-f]{12}$/);
  expect(hashes[1]).toBe(hashes[0]);
  expect(hashes[2]).toMatch(/^[0-9a-f]{12}$/);
  expect(hashes[2]).not.toBe(hashes[0]);
  // A named operation is told apart by its name.
  expect(lines[3]).toMatchObject({ operation: 'Named' });
  expect(lines[3]).not.toHaveProperty('queryHash');
});

it('serves Prometheus metrics: requests by operation and outcome, per field and strategy, snapshots, rejections, the process', async () => {
  const before = await scrape();
  await post({ query: 'query Shelves { shelves { name books { title } } }', operationName: 'Shelves' });
  await post({ query: 'query Shelves { shelves { name books { title year } } }', operationName: 'Shelves' }, { 'x-docjoin-strategy': 'Shelf.books=join' });
  const rejected = await post({ query: '{ a: shelves { books { year } } b: shelves { books { year } } c: shelves { books { year } } }' });
  expect(rejected.errors?.[0]?.extensions.code).toBe('COST_LIMIT_EXCEEDED');
  const after = await scrape();
  const grew = (series: string) => (metric(after, series) ?? 0) - (metric(before, series) ?? 0);
  expect(grew('docjoin_requests_total{operation="Shelves",outcome="ok"}')).toBe(2);
  expect(grew('docjoin_requests_total{operation="anonymous",outcome="COST_LIMIT_EXCEEDED"}')).toBe(1);
  expect(grew('docjoin_cost_limit_rejections_total{limit="roundTrips"}')).toBe(1);
  expect(grew('docjoin_snapshot_hits_total{field="Shelf.books"}')).toBe(2);
  expect(grew('docjoin_field_round_trips_total{field="Shelf.books",strategy="join"}')).toBe(1);
  expect(grew('docjoin_field_documents_total{field="Shelf.books",strategy="join"}')).toBe(2);
  expect(grew('docjoin_request_duration_seconds_count{operation="Shelves"}')).toBe(2);
  expect(grew('docjoin_request_mongo_round_trips_sum{operation="Shelves"}')).toBe(1 + 2);
  expect(grew('docjoin_request_estimated_round_trips_sum{operation="Shelves"}')).toBe(1 + 2);
  expect(metric(after, 'docjoin_mongo_up')).toBe(1);
  expect(after).toContain('# TYPE process_cpu_user_seconds_total counter');
});

it('labels by operation name only names an operation of which has run, and only short ones; the log line cuts a long one', async () => {
  const before = await scrape();
  const long = `L${'x'.repeat(5_000)}`;
  lines.length = 0;
  await post({ query: `query ${long} { shelves { name } }`, operationName: long });
  // Refused before it ran: not a label, whatever its name; then run: a label from then on, its refusals too.
  await post({ query: '{ a: shelves { books { year } } b: shelves { books { year } } c: shelves { books { year } } }'.replace('{', 'query Junk {'), operationName: 'Junk' });
  await post({ query: 'query Junk { shelves { name } }', operationName: 'Junk' });
  await post({ query: 'query Junk { a: shelves { books { year } } b: shelves { books { year } } c: shelves { books { year } } }', operationName: 'Junk' });
  const after = await scrape();
  const grew = (series: string) => (metric(after, series) ?? 0) - (metric(before, series) ?? 0);
  expect([grew('docjoin_requests_total{operation="other",outcome="ok"}'), grew('docjoin_requests_total{operation="other",outcome="COST_LIMIT_EXCEEDED"}')]).toEqual([1, 1]);
  expect([grew('docjoin_requests_total{operation="Junk",outcome="ok"}'), grew('docjoin_requests_total{operation="Junk",outcome="COST_LIMIT_EXCEEDED"}')]).toEqual([1, 1]);
  expect(after).not.toContain('xxxxxxxxxx');
  expect(lines[0]).toMatchObject({ operation: `L${'x'.repeat(99)}… (5,001 characters)`, queryHash: expect.stringMatching(/^[0-9a-f]+$/) });
});

it('counts the plan cache: a query sent again is planned once, another strategy or directive value is planned anew', async () => {
  const query = 'query Titles($withYear: Boolean!) { shelves { name books { title year @include(if: $withYear) } } }';
  const before = await scrape();
  await post({ query, variables: { withYear: true } });
  await post({ query, variables: { withYear: true } });
  await post({ query, variables: { withYear: false } });
  await post({ query, variables: { withYear: false } }, { 'x-docjoin-strategy': 'Shelf.books=join' });
  await post({ query, variables: { withYear: true } });
  const after = await scrape();
  const grew = (series: string) => (metric(after, series) ?? 0) - (metric(before, series) ?? 0);
  expect(grew('docjoin_plan_cache_lookups_total{outcome="miss"}')).toBe(3);
  expect(grew('docjoin_plan_cache_lookups_total{outcome="hit"}')).toBe(2);
  expect(grew('docjoin_plan_cache_plans')).toBe(3);
  expect(after).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
});

it("keeps a request's answer and connection when its log line cannot be written, and warns", async () => {
  const failing = pino({ level: 'info' }, {
    write: (line: string) => {
      if (line.includes('"msg":"operation"')) throw new Error('log destination gone');
    },
  });
  const gateway = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'observability', port: 0, logger: failing, metrics: false });
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ shelves { name } }' }) });
      expect([response.status, await response.json()]).toEqual([200, expect.objectContaining({ data: { shelves: [{ name: 'one' }] } })]);
    }
    expect(warn.mock.calls.map(([warning]) => (warning as Error).message)).toEqual(['log destination gone', 'log destination gone']);
  } finally {
    warn.mockRestore();
    await gateway.stop();
  }
});

it('logs a slow operation as a warning', async () => {
  const slow = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'observability', listen: false, logger, slowOperationMs: 0, metrics: false });
  try {
    lines.length = 0;
    await slow.execute({ query: '{ shelves { name } }' });
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'slow operation', slowOperationMs: 0, roundTrips: 1 })]);
  } finally {
    await slow.stop();
  }
});

it('logs a MongoDB outage once and its recovery once, and docjoin_mongo_up follows; a failed request is an error however slow', async () => {
  // Every operation is slow for this one (its own log): its failures must still be logged at error.
  const slowLog = capturedLogger();
  const slow = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'observability', listen: false, logger: slowLog.logger, slowOperationMs: 0, metrics: false });
  lines.length = 0;
  await mongo.stop();
  const down = await post({ query: '{ shelves { name } }' });
  expect(down.errors?.[0]?.extensions.code).toBe('DATABASE_UNAVAILABLE');
  const slowDown = await slow.execute({ query: '{ shelves { name } }' });
  await slow.stop();
  expect(slowDown.errors?.[0]?.extensions?.code).toBe('DATABASE_UNAVAILABLE');
  expect(slowLog.lines.filter((line) => line.msg === 'operation failed' || line.msg === 'slow operation').map((line) => [line.level, line.msg, line.errorCodes])).toEqual([[50, 'operation failed', ['DATABASE_UNAVAILABLE']]]);
  await post({ query: '{ shelves { name } }' });
  expect(metric(await scrape(), 'docjoin_mongo_up')).toBe(0);
  mongo = await startEmbeddedMongo({ port });
  for (let attempt = 0; attempt < 40 && !lines.some((line) => line.msg === 'MongoDB is reachable again'); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
  const outage = lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('MongoDB is'));
  expect(outage.map((line) => [line.level, line.msg])).toEqual([
    [50, 'MongoDB is unreachable; requests fail with DATABASE_UNAVAILABLE until it is back'],
    [30, 'MongoDB is reachable again'],
  ]);
  expect(metric(await scrape(), 'docjoin_mongo_up')).toBe(1);
}, 30_000);

it('warns at startup about a NODE_ENV it does not know, which runs as development', async () => {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'prod';
  lines.length = 0;
  try {
    const typo = await createCheckedGateway({ typeDefs: SDL, mongoClient: client, db: 'observability', listen: false, logger, validateDatabase: false, metrics: false });
    expect(typo.settings.production).toBe(false);
    await typo.stop();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  expect(lines.map((line) => [line.level, line.msg])).toEqual([
    [40, 'NODE_ENV="prod" is not production, development or test; docjoin runs as in development (stack traces in errors, debug headers on). Set NODE_ENV=production for production'],
  ]);
});
