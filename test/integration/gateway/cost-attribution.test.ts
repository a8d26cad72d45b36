import type { CommandStartedEvent } from 'mongodb';
import { MongoClient } from 'mongodb';
import { CostLedger, type CostReport } from '../../../src/gateway/cost/cost-ledger';
import { MongoFunnel } from '../../../src/gateway/mongo/mongo-funnel';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

function withoutTiming(cost: CostReport) {
  const { durationMs: _duration, ...rest } = cost;
  return rest;
}

describe('the mongo funnel', () => {
  it('counts every getMore as a round trip, and the driver tags getMore with the find\'s comment', async () => {
    const db = demo.client.db(demo.dbName);
    await db.collection('funnelProbe').insertMany([1, 2, 3, 4, 5].map((n) => ({ n })));
    const started: CommandStartedEvent[] = [];
    const listener = (event: CommandStartedEvent) => started.push(event);
    demo.client.on('commandStarted', listener);
    const funnel = new MongoFunnel(demo.client, db);
    const ledger = new CostLedger();
    try {
      const documents = await funnel.find({ ledger, fields: ['Probe.n'] }, 'funnelProbe', {}, { projection: { n: 1 }, sort: { n: 1 }, batchSize: 2 });
      expect(documents.map((d) => d.n)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      demo.client.off('commandStarted', listener);
      funnel.detach();
    }
    const commands = started.filter((event) => event.commandName === 'find' || event.commandName === 'getMore');
    expect(commands.map((event) => event.commandName)).toEqual(['find', 'getMore', 'getMore']);
    const comment = (commands[0]!.command as { comment?: string }).comment;
    expect(comment).toMatch(/^docjoin:\d+$/);
    expect(commands.map((event) => (event.command as { comment?: string }).comment)).toEqual([comment, comment, comment]);
    expect(ledger.commands.map((c) => [c.commandName, c.documents, c.fields])).toEqual([
      ['find', 2, ['Probe.n']],
      ['getMore', 2, ['Probe.n']],
      ['getMore', 1, ['Probe.n']],
    ]);
    expect(ledger.report()).toMatchObject({ roundTrips: 3, documents: 5, collections: { funnelProbe: { roundTrips: 3, documents: 5 } } });
  });

  it('agrees with raw command monitoring for a whole operation', async () => {
    const started: CommandStartedEvent[] = [];
    const listener = (event: CommandStartedEvent) => started.push(event);
    demo.client.on('commandStarted', listener);
    let cost: CostReport;
    try {
      cost = (await demo.gateway.execute({ query: '{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }' })).cost!;
    } finally {
      demo.client.off('commandStarted', listener);
    }
    const byCollection: Record<string, number> = {};
    for (const event of started) {
      const collection = (event.command as Record<string, unknown>)[event.commandName] as string;
      byCollection[collection] = (byCollection[collection] ?? 0) + 1;
    }
    expect(started).toHaveLength(cost.roundTrips);
    expect(byCollection).toEqual(Object.fromEntries(Object.entries(cost.collections).map(([name, c]) => [name, c.roundTrips])));
  });

  it('refuses a client that does not monitor commands', async () => {
    const plain = new MongoClient(demo.mongo.uri);
    expect(() => new MongoFunnel(plain, plain.db('x'))).toThrow('MongoFunnel needs a MongoClient created with { monitorCommands: true }');
    await plain.close();
  });
});

describe('attribution under concurrency', () => {
  const SHAPES: ReadonlyArray<{ query: string; header?: string }> = [
    { query: '{ books(first: 20) { name publisher { name } authors { name thumbnailUrl } } }' },
    { query: '{ books(first: 20) { name publisher { name } authors { name thumbnailUrl } } }', header: 'Book.authors=join' },
    { query: '{ people(first: 30) { holdings { stock { symbol } } tasks { description owner { lastName } } } }' },
    { query: '{ hosts(first: 5) { name logs(first: 3) { message host { name } } } }', header: 'LogMessage.host=join' },
    { query: '{ posts(first: 10) { recentComments { author } } }', header: 'Post.recentComments=join' },
    { query: '{ products(first: 10) { parts { name price } } }' },
  ];

  it('gives each of 60 concurrent requests exactly the cost it has alone', async () => {
    const alone: Array<ReturnType<typeof withoutTiming>> = [];
    for (const shape of SHAPES) alone.push(withoutTiming((await demo.gateway.execute({ query: shape.query }, { strategyHeader: shape.header })).cost!));
    const requests = Array.from({ length: 60 }, (_, i) => SHAPES[i % SHAPES.length]!);
    const results = await Promise.all(requests.map((shape) => demo.gateway.execute({ query: shape.query }, { strategyHeader: shape.header })));
    results.forEach((result, i) => {
      expect(result.errors).toBeUndefined();
      expect(withoutTiming(result.cost!)).toEqual(alone[i % SHAPES.length]);
    });
  }, 60_000);
});
