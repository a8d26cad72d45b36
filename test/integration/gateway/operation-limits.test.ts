import { connect, type Socket } from 'node:net';
import { ObjectId, type CommandStartedEvent, type MongoClient } from 'mongodb';
import { connectMongo, type Gateway } from 'docjoin';
import { ApolloServer } from '@apollo/server';
import { GraphQLScalarType } from 'graphql';
import { OperationDeadline } from '../../../src/gateway/operation/limits/operation-deadline';
import { BODY_BYTES_IN_FLIGHT } from '../../../src/gateway/http/admission';
import { MAX_BODY_BYTES } from '../../../src/gateway/http/read-json-body';
import { capturedLogger } from '../../support/captured-logger';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { startWireProxy } from '../../support/wire-proxy';
import { createCheckedGateway, createCheckedDocjoin } from '../../support/checked-gateway';

/**
 * The limits on one operation: its time limit (reads stop, MongoDB gets maxTimeMS, one error answers),
 * its client leaving, and the response size.
 */
const SDL = /* GraphQL */ `
  type Query { teams(first: Int = 10): [Team!]! @list }
  type Mutation { createTeam(input: TeamInput!): Team! @create }
  input TeamInput { name: String! }
  type Team @collection(name: "teams") {
    id: ID!
    name: String!
    players(first: Int = 10): [Player!]! @join(localField: "_id", foreignField: "teamId", sort: "name")
  }
  type Player @collection(name: "players") {
    id: ID!
    name: String!
    team: Team @join(localField: "teamId")
  }
`;
const QUERY = '{ teams { name players { name team { name players { name } } } } }';

const teams = Array.from({ length: 3 }, (_, i) => ({ _id: new ObjectId(`65c00000000000000000000${i + 1}`), name: `Team ${i}` }));
const players = Array.from({ length: 6 }, (_, i) => ({ _id: new ObjectId(`65d00000000000000000000${i + 1}`), name: `Player ${i}`, teamId: teams[i % 3]!._id }));

let mongo: TestMongo;
let client: MongoClient;
let dbName: string;
const started: CommandStartedEvent[] = [];
beforeAll(async () => {
  // Each command takes 30 ms on the embedded server, so a client's leaving is seen between two levels.
  mongo = await startTestMongo({ latencyMs: 30 });
  const db = mongo.freshDb('limits');
  dbName = db.databaseName;
  await db.collection('teams').insertMany(teams);
  await db.collection('players').insertMany(players);
  await db.collection('players').createIndex({ teamId: 1, name: 1, _id: 1 });
  client = await connectMongo(mongo.uri);
  client.on('commandStarted', (event) => started.push(event));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

async function gatewayWith(options: Record<string, unknown> = {}): Promise<Gateway> {
  return createCheckedGateway({ typeDefs: SDL, db: dbName, mongoClient: client, mongoKind: 'embedded', port: 0, host: '127.0.0.1', ...options });
}

const post = (url: string, query: string, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }), ...init });

describe('the time limit', () => {
  it('answers under the longest a Node timer waits (2^31 − 1 ms): its overrun backstop does not fire at once', async () => {
    const gateway = await gatewayWith({ listen: false, operationTimeoutMs: 2_147_483_647 });
    try {
      const { errors, data } = await gateway.execute({ query: '{ teams { name } }' });
      expect([errors, (data as { teams: unknown[] }).teams.length > 0]).toEqual([undefined, true]);
    } finally {
      await gateway.stop();
    }
  });

  it('sends each read with the time left as maxTimeMS', async () => {
    const gateway = await gatewayWith({ listen: false, operationTimeoutMs: 20_000 });
    try {
      started.length = 0;
      const { errors, cost } = await gateway.execute({ query: QUERY });
      expect(errors).toBeUndefined();
      const reads = started.filter((event) => event.commandName === 'find' || event.commandName === 'aggregate');
      expect(reads).toHaveLength(cost!.roundTrips);
      for (const read of reads) {
        expect(read.command.maxTimeMS).toBeGreaterThan(0);
        expect(read.command.maxTimeMS).toBeLessThanOrEqual(20_000);
      }
    } finally {
      await gateway.stop();
    }
  });

  it('stops a query whose deadline passes between two levels: no further read, one OPERATION_TIMEOUT error, data null, the cost so far', async () => {
    const docjoin = await createCheckedDocjoin({ typeDefs: SDL, db: dbName, mongoClient: client, mongoKind: 'embedded' });
    const apollo = new ApolloServer({ schema: docjoin.schema, plugins: [...docjoin.plugins], formatError: docjoin.formatError });
    await apollo.start();
    const deadline = new OperationDeadline(60_000);
    // The deadline passes as soon as the root read is answered.
    const stopAfterRoot = (event: { commandName: string }) => event.commandName === 'find' && deadline.stop('timeout');
    client.on('commandSucceeded', stopAfterRoot);
    try {
      started.length = 0;
      const response = await apollo.executeOperation({ query: QUERY }, { contextValue: docjoin.createContext({ deadline }) });
      expect(response.http.status).toBe(504);
      expect(response.body.kind).toBe('single');
      const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
      expect(result?.data).toBeNull();
      expect(result?.errors).toEqual([
        {
          message: 'The operation did not finish within its time limit of 60000 ms (DOCJOIN_OPERATION_TIMEOUT_MS); ask for less, or page through it',
          extensions: expect.objectContaining({ code: 'OPERATION_TIMEOUT' }),
        },
      ]);
      expect(started.map((event) => event.commandName)).toEqual(['find']);
      expect(result?.extensions?.cost).toMatchObject({ roundTrips: 1, documents: 3 });
    } finally {
      client.off('commandSucceeded', stopAfterRoot);
      await apollo.stop();
      docjoin.close();
    }
  });

  it('answers 504 over HTTP when the time limit passes, and keeps serving', async () => {
    // Four levels at 30 ms a read cannot finish within 50 ms.
    const gateway = await gatewayWith({ operationTimeoutMs: 50 });
    try {
      const response = await post(gateway.url!, QUERY);
      expect(response.status).toBe(504);
      const body = (await response.json()) as { data: unknown; errors: Array<{ extensions: { code: string } }> };
      expect(body.data).toBeNull();
      expect(body.errors.map((error) => error.extensions.code)).toEqual(['OPERATION_TIMEOUT']);
      const quick = await post(gateway.url!, '{ __typename }');
      expect(await quick.json()).toEqual({ data: { __typename: 'Query' }, extensions: expect.anything() });
    } finally {
      await gateway.stop();
    }
  });
});

/**
 * A raw connection that sends a POST's headers and the first bytes of a body it never finishes; `answer`
 * resolves with all it got once the server closes it.
 */
function stalledUpload(url: string, declaredBytes = 100): { answer: Promise<string>; received: Promise<void>; socket: Socket } {
  return rawPost(url, `content-length: ${declaredBytes}`, '{"que');
}

/**
 * A raw POST to /graphql with `framing` (its content-length or transfer-encoding header) and the start
 * of its body. It asks for `100 Continue`, which Node's server sends once it has the request: `received`
 * resolves then. `answer` resolves with the rest of what the server sent, once it closes the connection.
 */
function rawPost(url: string, framing: string, bodyStart: string): { answer: Promise<string>; received: Promise<void>; socket: Socket } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  let heard!: () => void;
  const received = new Promise<void>((resolve) => (heard = resolve));
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.startsWith('HTTP/1.1 100 ')) heard();
  });
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))));
  socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n${framing}\r\nexpect: 100-continue\r\n\r\n${bodyStart}`);
  return { answer, received, socket };
}

describe('a request body that arrives slowly', () => {

  it('holds no admission slot while it arrives, is answered 504 at its overrun with its connection closed, and leaves the server serving', async () => {
    const gateway = await gatewayWith({ operationTimeoutMs: 300, maxConcurrentOperations: 1, maxQueuedOperations: 0 });
    try {
      const stalled = [stalledUpload(gateway.url!), stalledUpload(gateway.url!)];
      // With one slot and no queue, a stalled upload holding the slot would make this 503 OVERLOADED.
      const meanwhile = await post(gateway.url!, '{ __typename }');
      expect([meanwhile.status, ((await meanwhile.json()) as { data: unknown }).data]).toEqual([200, { __typename: 'Query' }]);
      for (const { answer } of stalled) {
        const text = await answer;
        expect(text).toMatch(/^HTTP\/1\.1 504 /);
        expect(text.toLowerCase()).toContain('connection: close');
        expect(text).toContain('"code":"OPERATION_TIMEOUT"');
      }
      const after = await post(gateway.url!, '{ __typename }');
      expect(after.status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });

  it('holds only the bytes it sent: uploads declaring the largest bodies and stalling do not shut out other requests', async () => {
    const gateway = await gatewayWith({ operationTimeoutMs: 2_000 });
    try {
      // More than BODY_BYTES_IN_FLIGHT would hold, were each declared body reserved whole.
      const stalled = Array.from({ length: BODY_BYTES_IN_FLIGHT / MAX_BODY_BYTES + 16 }, () => stalledUpload(gateway.url!, MAX_BODY_BYTES));
      const meanwhile = await post(gateway.url!, '{ __typename }');
      expect([meanwhile.status, ((await meanwhile.json()) as { data: unknown }).data]).toEqual([200, { __typename: 'Query' }]);
      for (const { answer } of stalled) expect(await answer).toMatch(/^HTTP\/1\.1 504 /);
    } finally {
      await gateway.stop();
    }
  });

  it('is answered 503 at once, its body unread and its connection closed, when every slot and place is taken', async () => {
    const gateway = await gatewayWith({ maxConcurrentOperations: 1, maxQueuedOperations: 0 });
    const reading = new Promise<void>((resolve) => client.once('commandStarted', () => resolve()));
    try {
      const running = post(gateway.url!, QUERY);
      await reading;
      const text = await stalledUpload(gateway.url!).answer;
      expect(text).toMatch(/^HTTP\/1\.1 503 /);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(text).toContain('"code":"OVERLOADED"');
      expect((await running).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe("a request's headers that arrive slowly", () => {
  it('are answered 408 with the connection closed once the operation time limit passes, logged, and the server keeps serving', async () => {
    const { logger, lines } = capturedLogger();
    const gateway = await gatewayWith({ operationTimeoutMs: 300, logger });
    try {
      const { hostname, port } = new URL(gateway.url!);
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: appl`);
      await closed;
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toContain('"code":"OPERATION_TIMEOUT"');
      expect(lines).toEqual([expect.objectContaining({ msg: 'request refused', errorCodes: ['OPERATION_TIMEOUT'], reason: "Node's HTTP parser refused it (408 Request Timeout)" })]);
      const after = await post(gateway.url!, '{ __typename }');
      expect(after.status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe("a request Node's HTTP parser refuses", () => {
  it('is answered with a GraphQL error and a stable code, logged and counted: a GET whose URL passes the header limit (431), bytes that are no HTTP (400)', async () => {
    const { logger, lines } = capturedLogger();
    const gateway = await gatewayWith({ logger });
    try {
      const long = await fetch(`${gateway.url!}?${new URLSearchParams({ query: '{ __typename }', variables: JSON.stringify({ pad: 'x'.repeat(20_000) }) })}`, { headers: { 'apollo-require-preflight': 'true' } });
      expect([long.status, await long.json()]).toEqual([
        431,
        { errors: [{ message: "The request's headers, its URL and query string included, are longer than the server takes (16 KB); send a long operation or long variables in a POST body", extensions: { code: 'BAD_REQUEST' } }] },
      ]);
      const { hostname, port } = new URL(gateway.url!);
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('NOT HTTP AT ALL\r\n\r\n');
      await closed;
      expect(received).toMatch(/^HTTP\/1\.1 400 /);
      expect(received).toContain('{"errors":[{"message":"The request is not well-formed HTTP/1.1","extensions":{"code":"BAD_REQUEST"}}]}');
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_REQUEST'], reason: "Node's HTTP parser refused it (431 Request Header Fields Too Large)" }),
        expect.objectContaining({ level: 40, msg: 'request refused', errorCodes: ['BAD_REQUEST'], reason: "Node's HTTP parser refused it (400 Bad Request)" }),
      ]);
      const metrics = await (await fetch(new URL('/metrics', gateway.url!))).text();
      expect(metrics).toMatch(/^docjoin_requests_total\{operation="anonymous",outcome="BAD_REQUEST"\} 2$/m);
      expect((await post(gateway.url!, '{ __typename }')).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe('a request the server ends itself', () => {
  it('is not also logged as abandoned by its client: a body Node cannot parse, and a shutdown cutting an upload', async () => {
    const { logger, lines } = capturedLogger();
    const gateway = await gatewayWith({ logger, shutdownGraceMs: 100 });
    const malformed = rawPost(gateway.url!, 'transfer-encoding: chunked', '5\r\n{"que\r\n');
    await malformed.received;
    malformed.socket.write('ZZZ\r\nnot a chunk\r\n');
    expect(await malformed.answer).toMatch(/^HTTP\/1\.1 400 /);
    const upload = stalledUpload(gateway.url!);
    await upload.received;
    await gateway.stop();
    await upload.answer;
    const requestLines = lines.filter((line) => String(line.msg).startsWith('request'));
    expect(requestLines.map((line) => [line.msg, line.errorCodes])).toEqual([['request refused', ['BAD_REQUEST']]]);
    expect(lines.map((line) => line.msg)).toContain('cut off 1 request(s) still running after the grace period');
  });
});

describe('a client that goes away', () => {
  it('stops its operation: no read after the client left, logged as OPERATION_CANCELLED', async () => {
    const { logger, lines } = capturedLogger();
    const gateway = await gatewayWith({ logger });
    const controller = new AbortController();
    // The client leaves while the root read runs.
    const leave = (event: CommandStartedEvent) => event.commandName === 'find' && controller.abort();
    client.on('commandStarted', leave);
    try {
      started.length = 0;
      await expect(post(gateway.url!, QUERY, { signal: controller.signal })).rejects.toThrow();
      client.off('commandStarted', leave);
      while (!lines.some((line) => line.msg === 'operation' || line.msg === 'operation failed')) await new Promise((resolve) => setTimeout(resolve, 20));
      // A client leaving is not the server's failure: an info line.
      const line = lines.find((entry) => entry.msg === 'operation');
      expect(line).toMatchObject({ errorCodes: ['OPERATION_CANCELLED'], roundTrips: 1 });
      expect(started.map((event) => event.commandName)).toEqual(['find']);
    } finally {
      client.off('commandStarted', leave);
      await gateway.stop();
    }
  });

  const cancelled = 'docjoin_requests_total{operation="anonymous",outcome="OPERATION_CANCELLED"}';
  const scrape = async (gateway: Gateway, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(await (await fetch(new URL('/metrics', gateway.url!))).text())?.[1] ?? 0);
  const until = async (condition: () => Promise<boolean> | boolean) => {
    while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('is logged and counted when it leaves while its request waits for a slot', async () => {
    const { logger, lines } = capturedLogger();
    let open!: (value: string) => void;
    const gate = new Promise<string>((resolve) => (open = resolve));
    let holding = false;
    const hold = () => {
      holding = true;
      return gate;
    };
    const gateway = await gatewayWith({ logger, typeDefs: SDL.replace('type Query {', 'type Query { hold: String!'), resolvers: { Query: { hold } }, maxConcurrentOperations: 1, maxQueuedOperations: 5 });
    try {
      const running = post(gateway.url!, '{ hold }');
      await until(() => holding);
      const controller = new AbortController();
      const queued = post(gateway.url!, '{ teams { name } }', { signal: controller.signal }).catch((error: Error) => error.name);
      await until(async () => (await scrape(gateway, 'docjoin_operations{state="queued"}')) === 1);
      controller.abort();
      expect(await queued).toBe('AbortError');
      await until(() => lines.length > 0);
      expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request abandoned by its client', errorCodes: ['OPERATION_CANCELLED'], reason: 'the client closed the connection while its request waited for a slot' })]);
      expect(await scrape(gateway, cancelled)).toBe(1);
      open('done');
      expect((await running).status).toBe(200);
    } finally {
      open('done');
      await gateway.stop();
    }
  });

  it('is logged and counted when it leaves while sending its request body', async () => {
    const { logger, lines } = capturedLogger();
    const gateway = await gatewayWith({ logger });
    try {
      const upload = stalledUpload(gateway.url!);
      await upload.received;
      upload.socket.destroy();
      await until(() => lines.length > 0);
      expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request abandoned by its client', errorCodes: ['OPERATION_CANCELLED'], reason: 'the client closed the connection while sending its request body' })]);
      expect(await scrape(gateway, cancelled)).toBe(1);
    } finally {
      await gateway.stop();
    }
  });
});

describe('the document budget', () => {
  it('runs two operations one after the other when their estimates do not fit the budget together', async () => {
    // Each estimate takes the whole budget of 1 document: the second waits for the first's answer.
    const gateway = await gatewayWith({ listen: false, maxDocumentsInFlight: 1 });
    const events: Array<{ kind: 'started' | 'done'; small: boolean }> = [];
    const small = (command: Record<string, unknown>) => command.limit === 2 || command.limit === 3;
    const ids = new Map<number, boolean>();
    const onStarted = (event: CommandStartedEvent) => {
      if (event.commandName !== 'find' && event.commandName !== 'aggregate') return;
      ids.set(event.requestId, small(event.command));
      events.push({ kind: 'started', small: small(event.command) });
    };
    const onDone = (event: { requestId: number }) => {
      const isSmall = ids.get(event.requestId);
      if (isSmall !== undefined) events.push({ kind: 'done', small: isSmall });
    };
    client.on('commandStarted', onStarted);
    client.on('commandSucceeded', onDone);
    try {
      const [large, smallOne] = await Promise.all([gateway.execute({ query: QUERY }), gateway.execute({ query: '{ teams(first: 2) { name } }' })]);
      expect(large.errors).toBeUndefined();
      expect(smallOne.data).toEqual({ teams: [{ name: 'Team 0' }, { name: 'Team 1' }] });
      expect(events.filter((event) => event.small)).toHaveLength(2);
      expect(events.filter((event) => !event.small)).toHaveLength(2 * large.cost!.roundTrips);
      // No overlap: the small operation's read runs entirely before or entirely after the large one's reads.
      const smallAt = events.findIndex((event) => event.small);
      expect(events[smallAt + 1]).toEqual({ kind: 'done', small: true });
      expect(smallAt === 0 || smallAt === events.length - 2).toBe(true);
    } finally {
      client.off('commandStarted', onStarted);
      client.off('commandSucceeded', onDone);
      await gateway.stop();
    }
  });

  it("answers a query whose time runs out while it waits for the budget with OPERATION_TIMEOUT, no data and no read, and gives its client's points back", async () => {
    const docjoin = await createCheckedDocjoin({ typeDefs: SDL, db: dbName, mongoClient: client, mongoKind: 'embedded', maxDocumentsInFlight: 1, budget: { capacity: 1_000, restoreRate: 0.001 } });
    const apollo = new ApolloServer({ schema: docjoin.schema, plugins: [...docjoin.plugins, docjoin.compiledExecution()], formatError: docjoin.formatError });
    await apollo.start();
    try {
      // The first takes the whole budget for its four levels of reads; the second's 20 ms run out in the queue.
      const waiting = docjoin.createContext({ deadline: new OperationDeadline(20) });
      const [first, second] = await Promise.all([
        apollo.executeOperation({ query: QUERY }, { contextValue: docjoin.createContext() }),
        apollo.executeOperation({ query: '{ teams(first: 2) { name } }' }, { contextValue: waiting }),
      ]);
      expect(first.body.kind === 'single' && first.body.singleResult.errors).toBeUndefined();
      expect(second.http.status).toBe(504);
      const result = second.body.kind === 'single' ? second.body.singleResult : undefined;
      expect(result && 'data' in result).toBe(false);
      expect(result?.errors?.map((error) => error.extensions?.code)).toEqual(['OPERATION_TIMEOUT']);
      expect(result?.extensions?.cost).toMatchObject({ roundTrips: 0 });
      // The same (anonymous) client's bucket holds all but what the first and this one spend: the second's estimate came back.
      const after = await apollo.executeOperation({ query: '{ teams(first: 2) { name } }' }, { contextValue: docjoin.createContext() });
      const spent = [first, after].map((answer) => (answer.body.kind === 'single' ? (answer.body.singleResult.extensions?.cost as { actualPoints: number }).actualPoints : 0));
      const afterCost = after.body.kind === 'single' ? (after.body.singleResult.extensions?.cost as { throttleStatus: { currentlyAvailable: number } }) : undefined;
      expect(afterCost?.throttleStatus.currentlyAvailable).toBeCloseTo(1_000 - spent[0]! - spent[1]!, 0);
    } finally {
      await apollo.stop();
      docjoin.close();
    }
  });
});

describe('admission and the document budget together', () => {
  it('gives the slot of an operation waiting for documents to a small query, which runs while the heavy ones wait', async () => {
    // The first heavy query's root read is held on the wire: it keeps its documents of the budget until released.
    const proxy = await startWireProxy(mongo.uri, (command) => command.find === 'teams' && command.limit === 10 && typeof command.comment === 'string');
    const proxied = await connectMongo(proxy.uri);
    const estimate = async () => {
      const probe = await gatewayWith({ listen: false });
      try {
        return (await probe.execute({ query: QUERY })).cost!.estimatedDocuments;
      } finally {
        await probe.stop();
      }
    };
    const heavy = await estimate();
    // Room for one heavy query and 50 documents more: a second heavy one waits, a query of one document is small and fits.
    const gateway = await createCheckedGateway({
      typeDefs: SDL,
      db: dbName,
      mongoClient: proxied,
      mongoKind: 'embedded',
      port: 0,
      host: '127.0.0.1',
      maxConcurrentOperations: 2,
      maxQueuedOperations: 4,
      queueTimeoutMs: 20_000,
      maxDocumentsInFlight: heavy + 50,
    });
    const operations = async () => {
      const text = await (await fetch(new URL('/metrics', gateway.url!))).text();
      return Object.fromEntries([...text.matchAll(/^docjoin_operations\{state="(\w+)"\} (\d+)$/gm)].map(([, state, count]) => [state!, Number(count)]));
    };
    try {
      const first = post(gateway.url!, QUERY);
      await proxy.held;
      const second = post(gateway.url!, QUERY);
      // The second takes the other slot, does not fit the budget, and lends its slot while it waits.
      while ((await operations()).awaiting_documents !== 1) await new Promise((resolve) => setImmediate(resolve));
      expect(await operations()).toEqual({ running: 1, queued: 0, awaiting_documents: 1 });
      const small = await post(gateway.url!, '{ teams(first: 1) { name } }');
      expect(small.status).toBe(200);
      expect(await small.json()).toMatchObject({ data: { teams: [{ name: 'Team 0' }] } });
      // Released, the first read is sent again on another connection; both heavy queries then answer.
      proxy.dropHeld();
      const answers = await Promise.all([first, second]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      for (const answer of answers) expect(((await answer.json()) as { errors?: unknown }).errors).toBeUndefined();
      expect(await operations()).toEqual({ running: 0, queued: 0, awaiting_documents: 0 });
    } finally {
      await gateway.stop();
      await proxied.close();
      await proxy.close();
    }
  }, 30_000);
});

describe('the response size limit', () => {
  it('replaces a body over maxResponseBytes by RESPONSE_TOO_LARGE, and serves smaller ones', async () => {
    const gateway = await gatewayWith({ maxResponseBytes: 600 });
    try {
      const large = await post(gateway.url!, QUERY);
      expect(large.status).toBe(400);
      const body = (await large.json()) as { errors: Array<{ message: string; extensions: { code: string; bytes: number; maxBytes: number } }> };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'RESPONSE_TOO_LARGE', maxBytes: 600 });
      expect(body.errors[0]!.extensions.bytes).toBeGreaterThan(600);
      expect(body.errors[0]!.message).toMatch(/^The response would be [\d,]+ bytes, over the limit of 600 \(DOCJOIN_MAX_RESPONSE_BYTES\); select fewer fields or ask for smaller pages$/);
      const small = await post(gateway.url!, '{ teams(first: 1) { name } }');
      expect(small.status).toBe(200);
      expect(((await small.json()) as { data: unknown }).data).toEqual({ teams: [{ name: 'Team 0' }] });
    } finally {
      await gateway.stop();
    }
  });

  it('answers a mutation whose answer is over it 200 with data null, its cost and word that it ran: a 400 would read as nothing written', async () => {
    const gateway = await gatewayWith({ maxResponseBytes: 600 });
    const name = 'n'.repeat(700);
    try {
      const written = await post(gateway.url!, `mutation { createTeam(input: { name: "${name}" }) { id name } }`);
      expect(written.status).toBe(200);
      const body = (await written.json()) as { data: unknown; errors: Array<{ message: string; extensions: { code: string } }>; extensions: { cost: { writes: { documentsModified: number } } } };
      expect(body.data).toBeNull();
      expect(body.errors.map((error) => error.extensions.code)).toEqual(['RESPONSE_TOO_LARGE']);
      expect(body.errors[0]!.message).toMatch(/; select fewer fields or ask for smaller pages\. The mutation ran \(extensions\.cost\.writes says what it wrote\): read before retrying it$/);
      expect(body.extensions.cost.writes.documentsModified).toBe(1);
      expect(await client.db(dbName).collection('teams').countDocuments({ name })).toBe(1);
    } finally {
      await client.db(dbName).collection('teams').deleteMany({ name });
      await gateway.stop();
    }
    // Without a cost report there is none to point at.
    const unreported = await gatewayWith({ maxResponseBytes: 600, costReport: false });
    try {
      const written = await post(unreported.url!, `mutation { createTeam(input: { name: "${name}" }) { id name } }`);
      expect(written.status).toBe(200);
      const body = (await written.json()) as { data: unknown; errors: Array<{ message: string }>; extensions?: unknown };
      expect([body.data, body.extensions]).toEqual([null, undefined]);
      expect(body.errors[0]!.message).toMatch(/; select fewer fields or ask for smaller pages\. The mutation ran: read before retrying it$/);
    } finally {
      await client.db(dbName).collection('teams').deleteMany({ name });
      await unreported.stop();
    }
  });
});

describe('a response too long to be a string at all', () => {
  it('is answered 400 RESPONSE_TOO_LARGE, not 500, and the server keeps serving', async () => {
    // A value whose JSON fails as V8 fails a string past its longest (a long alias on many rows does that, at ~512 MiB).
    const unwritable = { toJSON: () => { throw new RangeError('Invalid string length'); } };
    const gateway = await createCheckedGateway({
      typeDefs: `scalar Blob\n${SDL.replace('type Query {', 'type Query { blob: Blob ')}`,
      resolvers: { Blob: new GraphQLScalarType({ name: 'Blob', serialize: () => unwritable }), Query: { blob: () => 'anything' } },
      db: dbName, mongoClient: client, mongoKind: 'embedded', port: 0, host: '127.0.0.1', maxResponseBytes: 100_000,
    });
    try {
      const response = await post(gateway.url!, '{ blob }');
      expect(response.status).toBe(400);
      const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string; maxBytes: number } }> };
      expect(body.errors.map((error) => [error.extensions.code, error.extensions.maxBytes, error.message])).toEqual([
        ['RESPONSE_TOO_LARGE', 100_000, 'The response is too large to write, over the limit of 100,000 bytes (DOCJOIN_MAX_RESPONSE_BYTES); select fewer fields or ask for smaller pages'],
      ]);
      expect((await post(gateway.url!, '{ __typename }')).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe('the depth limit', () => {
  it('judges each request by its own @include values, whatever was estimated before', async () => {
    const gateway = await gatewayWith({ listen: false, limits: { maxDepth: 3 } });
    try {
      // With first: 0 nothing is read, so the estimate reads only $n; the depth still depends on $deep.
      const query = 'query ($n: Int!, $deep: Boolean!) { teams(first: $n) { name ... @include(if: $deep) { players { team { players { name } } } } } }';
      const run = async (deep: boolean) => (await gateway.execute({ query, variables: { n: 0, deep } })).errors?.map((error) => error.extensions?.code);
      expect(await run(true)).toEqual(['COST_LIMIT_EXCEEDED']);
      expect(await run(false)).toBeUndefined();
      expect(await run(true)).toEqual(['COST_LIMIT_EXCEEDED']);
    } finally {
      await gateway.stop();
    }
  });
});
