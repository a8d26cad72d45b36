import { demoProjectOptions } from '../../support/demo-project';
import { BSON, MongoClient, type CommandStartedEvent, type CommandSucceededEvent, type Document } from 'mongodb';
import { CostLedger, type CostReport } from '../../../src/gateway/request/cost/cost-ledger';
import { MongoFunnel } from '../../../src/gateway/request/mongo/mongo-funnel';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import { asOnTheWire } from '../../support/reply-on-the-wire';
import { createCheckedGateway } from '../../support/checked-gateway';
import { startWireProxy } from '../../support/wire-proxy';
import { DatabaseFailure, OperationStopped } from '../../../src/gateway/errors/internal-errors';
import type { OperationDeadline } from '../../../src/gateway/operation/limits/operation-deadline';

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ listen: true });
}, 120_000);
afterAll(() => demo?.stop());

/**
 * The cost minus what may differ between runs: durations, and the order of the debug view's commands
 * (they are listed as their replies arrive; two batches sent in the same tick may finish either way).
 */
function withoutTiming(cost: CostReport) {
  const { durationMs: _duration, commands, ...rest } = cost;
  return { ...rest, ...(commands && { commands: commands.map(({ durationMs: _ms, ...command }) => JSON.stringify(command)).sort() }) };
}

describe('the mongo funnel', () => {
  it("reads an answer past one reply again through the driver's cursor, after killing the first cursor; every command carries the comment and counts", async () => {
    const db = demo.client.db(demo.dbName);
    // 20 documents of 1 MB: a reply stops at 16 MiB, so the whole answer does not fit in one.
    const blob = 'x'.repeat(1_000_000);
    await db.collection('funnelLarge').insertMany(Array.from({ length: 20 }, (_, i) => ({ n: i + 1, blob })));
    const ledger = new CostLedger();
    const killReplies: Document[] = [];
    const onSucceeded = (event: CommandSucceededEvent) => {
      if (event.commandName === 'killCursors') killReplies.push(event.reply as Document);
    };
    demo.client.on('commandSucceeded', onSucceeded);
    try {
      const started = await commandsStartedWhile(async (funnel) => {
        const documents = await funnel.find({ ledger, fields: ['Probe.n'] }, 'funnelLarge', {}, { projection: { n: 1, blob: 1 }, sort: { n: 1 } });
        expect(documents.map((d) => d.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      });
      const commands = started.filter((event) => ['find', 'getMore', 'killCursors'].includes(event.commandName));
      expect(commands.map((event) => event.commandName).sort()).toEqual(['find', 'find', 'getMore', 'killCursors']);
      const comment = (commands[0]!.command as { comment?: string }).comment;
      expect(comment).toMatch(/^docjoin:[0-9a-f]{8}:\d+$/);
      expect(commands.map((event) => (event.command as { comment?: string }).comment)).toEqual([comment, comment, comment, comment]);
      expect(killReplies.map((reply) => [(reply.cursorsKilled as unknown[]).length, (reply.cursorsNotFound as unknown[]).length])).toEqual([[1, 0]]);
      const firstReply = ledger.commands[0]!;
      expect([firstReply.commandName, firstReply.documents > 0 && firstReply.documents < 20]).toEqual(['find', true]);
      expect(ledger.report()).toMatchObject({ roundTrips: 4, documents: 20 + firstReply.documents });
    } finally {
      demo.client.off('commandSucceeded', onSucceeded);
      await db.collection('funnelLarge').drop();
    }
  });

  it.each([
    { retryReads: true, outcome: 'sends it once more, and counts both', finds: 2 },
    { retryReads: false, outcome: 'fails it, as the driver would without retryable reads', finds: 1 },
  ])('a read that lost its connection, with retryReads $retryReads: $outcome', async ({ retryReads, finds: expectedFinds }) => {
    const collection = `funnelRetried_${retryReads}`;
    await demo.client.db(demo.dbName).collection(collection).insertMany([1, 2, 3].map((n) => ({ n })));
    const proxy = await startWireProxy(demo.mongo.uri, (command) => command.find === collection);
    const client = new MongoClient(proxy.uri, { monitorCommands: true, retryReads });
    const funnel = new MongoFunnel(client, client.db(demo.dbName));
    const finds: CommandStartedEvent[] = [];
    client.on('commandStarted', (event) => event.commandName === 'find' && finds.push(event));
    try {
      await client.connect();
      void proxy.held.then(() => proxy.dropHeld());
      const ledger = new CostLedger();
      const read = funnel.find({ ledger, fields: ['Probe.n'] }, collection, {}, { projection: { n: 1 }, sort: { n: 1 } });
      if (retryReads) expect((await read).map((d) => d.n)).toEqual([1, 2, 3]);
      else await expect(read).rejects.toBeInstanceOf(DatabaseFailure);
      expect(finds).toHaveLength(expectedFinds);
      expect(ledger.report()).toMatchObject({ roundTrips: expectedFinds, documents: retryReads ? 3 : 0 });
    } finally {
      funnel.detach();
      await client.close();
      await proxy.close();
    }
  });

  it('sends a read that loses its connection every time twice, as retryable reads do, then fails it', async () => {
    const collection = 'funnelAlwaysLost';
    await demo.client.db(demo.dbName).collection(collection).insertOne({ n: 1 });
    const proxy = await startWireProxy(demo.mongo.uri, () => false, (command) => command.find === collection || command.aggregate === collection);
    const client = new MongoClient(proxy.uri, { monitorCommands: true, retryReads: true });
    const funnel = new MongoFunnel(client, client.db(demo.dbName));
    const reads: CommandStartedEvent[] = [];
    client.on('commandStarted', (event) => (event.commandName === 'find' || event.commandName === 'aggregate') && reads.push(event));
    try {
      await client.connect();
      const ledger = new CostLedger();
      await expect(funnel.find({ ledger, fields: ['Probe.n'] }, collection, {}, { projection: { n: 1 } })).rejects.toBeInstanceOf(DatabaseFailure);
      expect(reads.map((event) => event.commandName)).toEqual(['find', 'find']);
      expect(ledger.report()).toMatchObject({ roundTrips: 2, documents: 0 });
    } finally {
      funnel.detach();
      await client.close();
      await proxy.close();
    }
  });

  it('ends a read with an error MongoDB will give again, without reading again', async () => {
    const ledger = new CostLedger();
    const started = await commandsStartedWhile(async (funnel) => {
      await expect(funnel.aggregate({ ledger, fields: ['Probe.n'] }, 'funnelProbe', [{ $noSuchStage: {} }])).rejects.toThrow(/noSuchStage/);
    });
    expect(started.filter((event) => event.commandName === 'aggregate')).toHaveLength(1);
    expect(ledger.report()).toMatchObject({ roundTrips: 1, documents: 0 });
  });

  it('does not read again a read stopped while MongoDB had it', async () => {
    const client = new MongoClient(demo.mongo.uri, { monitorCommands: true });
    await client.connect();
    const funnel = new MongoFunnel(client, client.db(demo.dbName));
    const overrun = new AbortController();
    const stopped = new OperationStopped('timeout', 50);
    // Only what the funnel reads of a deadline: its overrun signal aborts once the find is sent.
    const deadline = { throwIfStopped: () => undefined, remainingMs: () => 60_000, overrunSignal: overrun.signal, stop: () => undefined } as unknown as OperationDeadline;
    const finds: CommandStartedEvent[] = [];
    client.on('commandStarted', (event) => {
      if (event.commandName !== 'find') return;
      finds.push(event);
      overrun.abort(stopped);
    });
    try {
      await expect(funnel.find({ ledger: new CostLedger(), deadline, fields: ['Probe.n'] }, 'funnelProbe', {}, { projection: { n: 1 } })).rejects.toBe(stopped);
      expect(finds).toHaveLength(1);
    } finally {
      funnel.detach();
      await client.close();
    }
  });

  // db.command alone would send neither: the driver's cursors take both from the Db.
  it.each([
    { setting: 'read concern', options: { readConcern: { level: 'local' } }, field: 'readConcern', sent: { level: 'local' } },
    { setting: 'read preference', options: { readPreference: 'secondaryPreferred' }, field: '$readPreference', sent: { mode: 'secondaryPreferred' } },
  ] as const)("sends the database's $setting with every find and aggregate, as the driver's cursors would", async ({ options, field, sent }) => {
    const client = new MongoClient(demo.mongo.uri, { monitorCommands: true, ...options });
    await client.connect();
    const started: CommandStartedEvent[] = [];
    client.on('commandStarted', (event) => started.push(event));
    const funnel = new MongoFunnel(client, client.db(demo.dbName));
    try {
      const ledger = new CostLedger();
      await funnel.find({ ledger, fields: ['Probe.n'] }, 'funnelProbe', {}, { projection: { n: 1 } });
      await funnel.aggregate({ ledger, fields: ['Probe.n'] }, 'funnelProbe', [{ $project: { n: 1 } }]);
      const reads = started.filter((event) => event.commandName === 'find' || event.commandName === 'aggregate');
      expect(reads.map((event) => [event.commandName, event.command[field]])).toEqual([
        ['find', sent],
        ['aggregate', sent],
      ]);
    } finally {
      funnel.detach();
      await client.close();
    }
  });

  it("decodes the raw documents it reads with the client's own BSON options", async () => {
    const client = new MongoClient(demo.mongo.uri, { monitorCommands: true, useBigInt64: true });
    await client.connect();
    const db = client.db(demo.dbName);
    const funnel = new MongoFunnel(client, db);
    try {
      await db.collection('funnelLongs').insertOne({ n: BSON.Long.fromString('9007199254740993') });
      const ledger = new CostLedger();
      const [found] = await funnel.find({ ledger, fields: ['Probe.n'] }, 'funnelLongs', {}, { projection: { n: 1 } });
      const [aggregated] = await funnel.aggregate({ ledger, fields: ['Probe.n'] }, 'funnelLongs', [{ $project: { n: 1 } }]);
      expect([found!.n, aggregated!.n]).toEqual([9007199254740993n, 9007199254740993n]);
    } finally {
      funnel.detach();
      await client.close();
    }
  });

  it('asks for the whole answer in one reply, so no answer that fits needs a getMore', async () => {
    await demo.client.db(demo.dbName).collection('funnelProbe').insertMany([1, 2, 3, 4, 5].map((n) => ({ n })));
    const ledger = new CostLedger();
    const started = await commandsStartedWhile(async (funnel) => {
      await funnel.find({ ledger, fields: ['Probe.n'] }, 'funnelProbe', {}, { projection: { n: 1 }, batchSize: 5 });
      await funnel.aggregate({ ledger, fields: ['Probe.n'] }, 'funnelProbe', [{ $match: { n: { $gt: 0 } } }], { batchSize: 5 });
    });
    expect(started.map((event) => [event.commandName, (event.command as { batchSize?: number; cursor?: { batchSize?: number } }).batchSize ?? (event.command as { cursor: { batchSize: number } }).cursor.batchSize])).toEqual([
      ['find', 2 ** 31 - 1],
      ['aggregate', 2 ** 31 - 1],
    ]);
    expect(ledger.commands.map((c) => [c.commandName, c.documents, c.filter])).toEqual([
      ['find', 5, {}],
      ['aggregate', 5, { n: { $gt: '?' } }],
    ]);
  });

  it.each([
    ['{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }', ''],
    ['{ people(first: 100) { holdings { stock { symbol } } tasks { description owner { lastName } } } }', ''],
    ['{ hosts(first: 2) { name logs(first: 3) { message host { name ipaddr } } recentLogs { message } } }', 'Host.recentLogs=join,LogMessage.host=join'],
  ])('agrees with raw command monitoring, command by command: %s', async (query, strategyHeader) => {
    const started = new Map<number, CommandStartedEvent>();
    const succeeded: CommandSucceededEvent[] = [];
    const onStarted = (event: CommandStartedEvent) => started.set(event.requestId, event);
    const onSucceeded = (event: CommandSucceededEvent) => succeeded.push(event);
    demo.client.on('commandStarted', onStarted);
    demo.client.on('commandSucceeded', onSucceeded);
    let cost: CostReport;
    try {
      cost = (await demo.gateway.execute({ query }, { strategyHeader, costHeader: 'commands' })).cost!;
    } finally {
      demo.client.off('commandStarted', onStarted);
      demo.client.off('commandSucceeded', onSucceeded);
    }
    const raw = succeeded.map((event) => {
      const command = started.get(event.requestId)!.command as Record<string, unknown>;
      const collection = (event.commandName === 'getMore' ? command.collection : command[event.commandName]) as string;
      const reply = asOnTheWire(event.reply as Document);
      const cursor = reply.cursor as { firstBatch?: unknown[]; nextBatch?: unknown[] };
      return {
        collection,
        command: event.commandName,
        documents: (cursor.firstBatch ?? cursor.nextBatch)!.length,
        bytes: BSON.calculateObjectSize(reply),
        durationMs: event.duration,
      };
    });
    // The ledger records each command when its reply's event fires, so its list is in raw's order, one to one.
    const roundedMs = (ms: number) => Math.round(ms * 1000) / 1000;
    expect(cost.commands!.map(({ collection, command, documents, durationMs }) => ({ collection, command, documents, durationMs }))).toEqual(
      raw.map(({ collection, command, documents, durationMs }) => ({ collection, command, documents, durationMs: roundedMs(durationMs) })),
    );
    expect(cost.roundTrips).toBe(raw.length);
    expect(cost.documents).toBe(raw.reduce((sum, command) => sum + command.documents, 0));
    expect(cost.bytes).toBe(raw.reduce((sum, command) => sum + command.bytes, 0));
    const collections: Record<string, { roundTrips: number; documents: number }> = {};
    for (const command of raw) {
      const entry = (collections[command.collection] ??= { roundTrips: 0, documents: 0 });
      entry.roundTrips += 1;
      entry.documents += command.documents;
    }
    expect(cost.collections).toEqual(collections);
    // durationMs is the sum of the commands' own durations (the driver's `duration` of each reply, summed
    // in reply order, rounded to µs): concurrent commands overlap, so it can exceed the wall-clock wait.
    expect(cost.durationMs).toBe(roundedMs(raw.reduce((sum, command) => sum + command.durationMs, 0)));
    // Each field's roundTrips is the number of those commands that served it (a shared batch counts for each).
    const perField: Record<string, number> = {};
    for (const command of cost.commands!) for (const field of command.fields) if (field in cost.fields) perField[field] = (perField[field] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(cost.fields).map(([field, entry]) => [field, entry.roundTrips]))).toEqual(
      Object.fromEntries(Object.keys(cost.fields).map((field) => [field, perField[field] ?? 0])),
    );
    expect(Object.keys(perField).length).toBeGreaterThan(0);
  });

  it('refuses a client that does not monitor commands', async () => {
    const plain = new MongoClient(demo.mongo.uri);
    expect(() => new MongoFunnel(plain, plain.db('x'))).toThrow('MongoFunnel needs a MongoClient created with { monitorCommands: true }');
    await plain.close();
  });
});

describe('attribution under concurrency', () => {
  const SHAPES: ReadonlyArray<{ query: string; header?: string; costHeader?: string }> = [
    { query: '{ books(first: 5) { name publisher { name } authors { name thumbnailUrl } } }' },
    { query: '{ books(first: 5) { name publisher { name } authors { name thumbnailUrl } } }', header: 'Book.authors=join', costHeader: 'commands' },
    { query: '{ people(first: 10) { holdings { stock { symbol } } tasks { description owner { lastName } } } }' },
    { query: '{ products(first: 5) { name parts { name } } }', header: 'Product.parts=join' },
    { query: '{ posts(first: 3) { recentComments { author } } }', header: 'Post.recentComments=join' },
    { query: '{ products(first: 5) { parts { name price } } }', costHeader: 'commands' },
    { query: '{ authors(first: 3) { name books { name publisher { location } } } }' },
    { query: '{ posts(first: 10) { title recentComments { author } } }' },
  ];

  async function overHttp(shape: (typeof SHAPES)[number]) {
    const response = await fetch(demo.gateway.url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(shape.header && { 'x-docjoin-strategy': shape.header }),
        ...(shape.costHeader && { 'x-docjoin-cost': shape.costHeader }),
      },
      body: JSON.stringify({ query: shape.query }),
    });
    const json = (await response.json()) as { data: unknown; errors?: unknown; extensions: { cost: CostReport } };
    return { data: json.data, errors: json.errors, cost: json.extensions.cost };
  }

  const inProcess = (shape: (typeof SHAPES)[number]) => demo.gateway.execute({ query: shape.query }, { strategyHeader: shape.header, costHeader: shape.costHeader });

  it('gives each of 200 concurrent requests (HTTP and executeOperation mixed) exactly the cost it has alone', async () => {
    const alone: Array<{ data: unknown; cost: ReturnType<typeof withoutTiming> }> = [];
    for (const shape of SHAPES) {
      const result = await inProcess(shape);
      alone.push({ data: result.data, cost: withoutTiming(result.cost!) });
    }
    expect(new Set(alone.map((result) => result.cost.roundTrips)).size).toBeGreaterThanOrEqual(4);
    const requests = Array.from({ length: 200 }, (_, i) => ({ shape: SHAPES[i % SHAPES.length]!, index: i % SHAPES.length, http: i % 3 === 0 }));
    const results = await Promise.all(requests.map(({ shape, http }) => (http ? overHttp(shape) : inProcess(shape))));
    results.forEach((result, i) => {
      const { index } = requests[i]!;
      expect(result.errors).toBeUndefined();
      expect({ index, cost: withoutTiming(result.cost!) }).toEqual({ index, cost: alone[index]!.cost });
      expect(result.data).toEqual(alone[index]!.data);
    });
  }, 60_000);
});

describe("a field's documents", () => {
  it.each(['join', 'lookup'] as const)(
    'counts the documents a reverse join read for a field, a parent met under several books once (%s counts what was sent)',
    async (strategy) => {
      const query = '{ books(first: 30) { publisher { id books(first: 3) { id } } } }';
      const result = await demo.gateway.execute({ query }, { strategyHeader: `Publisher.books=${strategy}` });
      expect(result.errors).toBeUndefined();
      const publishers = (result.data as { books: Array<{ publisher: { id: string; books: unknown[] } | null }> }).books.flatMap((book) => (book.publisher ? [book.publisher] : []));
      const distinct = new Map(publishers.map((publisher) => [publisher.id, publisher.books.length]));
      // The demo's books share publishers: the same parent asks for its children more than once.
      expect(distinct.size).toBeLessThan(publishers.length);
      // By lookup too: the books are looked up in the publishers' command, which the join reads once per publisher.
      const sent = [...distinct.values()];
      expect(result.cost!.fields['Publisher.books']!.documents).toBe(sent.reduce((sum, count) => sum + count, 0));
      // Looked-up documents count under the collection they came from, as a join's do.
      expect(result.cost!.collections.books!.documents).toBe(30 + result.cost!.fields['Publisher.books']!.documents);
      expect(sumOfCollections(result.cost!)).toBe(result.cost!.documents);
    },
  );

  it('lists a collection reached only by lookup with no round trip and the documents it sent', async () => {
    const query = '{ books(first: 5) { publisher { name } } }';
    const result = await demo.gateway.execute({ query }, { strategyHeader: 'Book.publisher=lookup' });
    expect(result.errors).toBeUndefined();
    const withPublisher = (result.data as { books: Array<{ publisher: unknown }> }).books.filter((book) => book.publisher !== null).length;
    expect(result.cost!.roundTrips).toBe(1);
    expect(result.cost!.collections).toEqual({ books: { roundTrips: 1, documents: 5 }, publishers: { roundTrips: 0, documents: withPublisher } });
    expect(sumOfCollections(result.cost!)).toBe(result.cost!.documents);
  });
});

function sumOfCollections(cost: { collections: Record<string, { documents: number }> }): number {
  return Object.values(cost.collections).reduce((sum, collection) => sum + collection.documents, 0);
}

describe('two gateways sharing one MongoClient', () => {
  it('keep their ledgers apart: each reports exactly its own round trips', async () => {
    const second = await createCheckedGateway({
      db: demo.client.db(demo.dbName),
      mongoClient: demo.client,
      mongoKind: 'embedded',
      ...demoProjectOptions(), ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
      listen: false,
    });
    try {
      const query = '{ books(first: 5) { name publisher { name } } }';
      const alone = await demo.gateway.execute({ query });
      expect(alone.cost?.roundTrips).toBe(2);
      const results = await Promise.all([...Array(10)].map((_, i) => (i % 2 === 0 ? demo.gateway : second).execute({ query })));
      for (const result of results) expect(withoutTiming(result.cost!)).toEqual(withoutTiming(alone.cost!));
    } finally {
      await second.stop();
    }
  });
});

/** The commands the demo's client started while `run` read through a funnel of its own over the demo database. */
async function commandsStartedWhile(run: (funnel: MongoFunnel) => Promise<void>): Promise<CommandStartedEvent[]> {
  const started: CommandStartedEvent[] = [];
  const listener = (event: CommandStartedEvent) => started.push(event);
  demo.client.on('commandStarted', listener);
  const funnel = new MongoFunnel(demo.client, demo.client.db(demo.dbName));
  try {
    await run(funnel);
  } finally {
    demo.client.off('commandStarted', listener);
    funnel.detach();
  }
  return started;
}
