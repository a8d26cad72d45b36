import { capturedLogger } from '../../support/captured-logger';
import { mongoForFile } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Stopping a listening gateway (what SIGTERM does): no new connections, the requests in flight finish
 * within shutdownGraceMs, and those still running after it are cut off and logged. And admission: past
 * maxConcurrentOperations running and maxQueuedOperations waiting, a request gets 503 at once.
 */
const SDL = /* GraphQL */ `
  type Query { wait(ms: Int!): String! }
`;
/** Told when a `wait` starts: the request is then in flight (a fixed pause before stopping could pass before it even connects on a loaded machine). */
let waitStarted: () => void = () => undefined;
/** The `ms` of every `wait` that has run to its end (earlier tests' cut-off ones end later too). */
const waitsFinished: number[] = [];
const resolvers = {
  Query: {
    wait: async (_parent: unknown, args: { ms: number }) => {
      waitStarted();
      await new Promise((resolve) => setTimeout(resolve, args.ms));
      waitsFinished.push(args.ms);
      return `waited ${args.ms} ms`;
    },
  },
};
const nextWaitStarts = () => new Promise<void>((resolve) => (waitStarted = resolve));

const file = mongoForFile();
const { logger, lines } = capturedLogger();

const start = (shutdownGraceMs: number, shutdownDelayMs?: number) =>
  createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'shutdown', port: 0, logger, shutdownGraceMs, ...(shutdownDelayMs !== undefined && { shutdownDelayMs }), validateDatabase: false });
const ask = (url: string, ms: number) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ wait(ms: ${ms}) }` }) }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));

it('lets a request in flight finish, and takes no new connection meanwhile', async () => {
  const gateway = await start(5000);
  const url = gateway.url!;
  const started = nextWaitStarts();
  const inFlight = ask(url, 400);
  await started;
  lines.length = 0;
  const stopped = gateway.stop();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await expect(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ wait(ms: 1) }"}' })).rejects.toThrow();
  expect(await inFlight).toEqual({ status: 200, body: { data: { wait: 'waited 400 ms' }, extensions: expect.anything() } });
  await stopped;
  expect(lines.map((line) => line.msg)).toEqual(['stopping: finishing the requests in flight', 'operation']);
});

it('a second stop() while the first still waits for a request (SIGINT after SIGTERM) ends with the first, and rejects nothing', async () => {
  const gateway = await start(5000);
  const started = nextWaitStarts();
  const inFlight = ask(gateway.url!, 300);
  await started;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const stops = await Promise.allSettled([gateway.stop(), gateway.stop()]);
    expect({ stops: stops.map((stop) => stop.status), answer: (await inFlight).status, afterwards: await gateway.stop().then(() => 'fulfilled') }).toEqual({ stops: ['fulfilled', 'fulfilled'], answer: 200, afterwards: 'fulfilled' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

it('drains first when asked (SIGTERM): /health answers 503 draining while new requests are still answered, with connection: close', async () => {
  const gateway = await start(5000, 1500);
  const url = gateway.url!;
  expect(await (await fetch(url.replace('/graphql', '/health'))).json()).toEqual({ status: 'ok', mongo: expect.anything() });
  lines.length = 0;
  const stopped = gateway.stop({ drainFirst: true });
  const health = await fetch(url.replace('/graphql', '/health'));
  expect([health.status, await health.json()]).toEqual([503, { status: 'draining' }]);
  const during = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ wait(ms: 1) }"}' });
  expect([during.status, during.headers.get('connection'), ((await during.json()) as { data: unknown }).data]).toEqual([200, 'close', { wait: 'waited 1 ms' }]);
  await stopped;
  await expect(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ wait(ms: 1) }"}' })).rejects.toThrow();
  expect(lines.map((line) => line.msg)).toEqual(['draining: /health answers 503 while requests are still taken', 'operation', 'stopping: finishing the requests in flight']);
});

it('cuts off a request still running after the grace period, and says so', async () => {
  const gateway = await start(100);
  const started = nextWaitStarts();
  const inFlight = ask(gateway.url!, 1000).catch((error: unknown) => error);
  await started;
  lines.length = 0;
  await gateway.stop();
  expect(String(await inFlight)).toBe('TypeError: fetch failed');
  expect(lines.map((line) => [line.level, line.msg, line.cut])).toEqual([
    [30, 'stopping: finishing the requests in flight', undefined],
    [40, 'cut off 1 request(s) still running after the grace period', 1],
  ]);
});

it('runs maxConcurrentOperations at once, queues maxQueuedOperations, refuses the rest with 503 and Retry-After, counted and logged; /health still answers', async () => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'shutdown', port: 0, logger, validateDatabase: false, maxConcurrentOperations: 1, maxQueuedOperations: 1 });
  try {
    const url = gateway.url!;
    const started = nextWaitStarts();
    const running = ask(url, 1500);
    await started;
    const queued = ask(url, 1);
    // Time for the queued request's body to arrive and take the one place in the queue.
    await new Promise((resolve) => setTimeout(resolve, 200));
    lines.length = 0;
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ wait(ms: 1) }' }) });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
    expect(((await refused.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('OVERLOADED');
    expect(lines.map((line) => [line.level, line.msg, line.errorCodes])).toEqual([[40, 'request refused', ['OVERLOADED']]]);
    const metrics = await (await fetch(url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toMatch(/^docjoin_requests_total\{operation="[^"]*",outcome="OVERLOADED"\} 1$/m);
    expect((await fetch(url.replace('/graphql', '/health'))).status).toBe(200);
    expect(await running).toMatchObject({ status: 200, body: { data: { wait: 'waited 1500 ms' } } });
    expect(await queued).toMatchObject({ status: 200, body: { data: { wait: 'waited 1 ms' } } });
  } finally {
    await gateway.stop();
  }
});

it('answers a request that waited queueTimeoutMs for a slot 503 OVERLOADED, long before its operation timeout; the slot then goes to the next', async () => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'shutdown', port: 0, logger, validateDatabase: false, maxConcurrentOperations: 1, maxQueuedOperations: 4, queueTimeoutMs: 300, operationTimeoutMs: 30_000 });
  try {
    const url = gateway.url!;
    const started = nextWaitStarts();
    const running = ask(url, 1500);
    await started;
    const waited = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ wait(ms: 1) }' }) });
    expect([waited.status, waited.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await waited.json()).toEqual({
      errors: [{ message: 'docjoin is at capacity (1 operations running, 4 waiting, each at most 300 ms); retry shortly', extensions: { code: 'OVERLOADED' } }],
    });
    expect(await running).toMatchObject({ status: 200, body: { data: { wait: 'waited 1500 ms' } } });
    // The queue is empty again, and its one slot free.
    expect(await ask(url, 1)).toMatchObject({ status: 200, body: { data: { wait: 'waited 1 ms' } } });
  } finally {
    await gateway.stop();
  }
});

it('answers 504 when the deadline overruns while a resolver still runs, keeps its slot until it ends, and a stop waits for it', async () => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'shutdown', port: 0, validateDatabase: false, operationTimeoutMs: 200, maxConcurrentOperations: 1, maxQueuedOperations: 0, shutdownGraceMs: 10_000 });
  const overran = await ask(gateway.url!, 3001);
  expect(overran).toEqual({
    status: 504,
    body: {
      errors: [{ message: expect.stringMatching(/^The operation did not finish within its time limit of 200 ms .*A mutation's writes may still be running/), extensions: { code: 'OPERATION_TIMEOUT' } }],
      data: null,
      // What it cost until the answer: the resolver still running has sent nothing.
      extensions: { cost: expect.objectContaining({ roundTrips: 0, documents: 0, estimatedRoundTrips: 1 }) },
    },
  });
  // One answer only, and the work goes on holding its slot: with no queue, the next request is refused.
  expect(await ask(gateway.url!, 1)).toMatchObject({ status: 503, body: { errors: [{ extensions: { code: 'OVERLOADED' } }] } });
  expect(waitsFinished).not.toContain(3001);
  await gateway.stop();
  expect(waitsFinished).toContain(3001);
});
