import { demoProjectOptions } from '../support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../../src/config/config';
import { connectMongo, type CostReport, type Gateway, type MongoClient } from 'docjoin';
import { startDemoGateway, type DemoGateway } from '../integration/gateway/support/demo-gateway';
import { createCheckedGateway } from '../support/checked-gateway';

/** extensions.cost over HTTP: the same numbers as executeOperation, the debug view, and the limits. */
let demo: DemoGateway;
/** The same data behind a production-configured gateway (no debug view, no overrides), with a low round-trip limit. */
let production: { gateway: Gateway; client: MongoClient };
beforeAll(async () => {
  demo = await startDemoGateway({ listen: true });
  const client = await connectMongo(demo.mongo.uri);
  const config = loadConfig({ PORT: '0', NODE_ENV: 'production', DOCJOIN_MAX_ROUND_TRIPS: '3' });
  production = { client, gateway: await createCheckedGateway({ db: client.db(demo.dbName), mongoClient: client, mongoKind: 'embedded', ...demoProjectOptions(), ...gatewaySettingsOf(config), limitOrigins: config.limitOrigins, validateDatabase: false }) };
}, 120_000);
afterAll(async () => {
  await production?.gateway.stop();
  await production?.client.close();
  await demo?.stop();
});

async function post(url: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: response.status, json: (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: Record<string, unknown> }>; extensions: { cost: CostReport } } };
}

function withoutDurations(cost: CostReport) {
  const { durationMs: _ms, commands, ...rest } = cost;
  return { ...rest, ...(commands && { commands: commands.map(({ durationMs: _d, ...command }) => command) }) };
}

describe('both transports', () => {
  it.each([
    ['{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }', ''],
    ['{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }', 'Book.authors=join'],
    ['{ people(first: 100) { holdings { stock { symbol } } tasks { description owner { lastName } } } }', ''],
    ['{ hosts(first: 3) { name logs(first: 5) { message host { name } } } }', 'LogMessage.host=join'],
    ['{ posts(first: 10) { recentComments { author } } }', 'Post.recentComments=join'],
  ])('report the same extensions.cost (all but durations): %s %s', async (query, strategy) => {
    const http = await post(demo.gateway.url!, query, strategy ? { 'x-docjoin-strategy': strategy } : {});
    const local = await demo.gateway.execute({ query }, { strategyHeader: strategy });
    expect(http.status).toBe(200);
    expect(http.json.data).toEqual(local.data);
    expect(withoutDurations(http.json.extensions.cost)).toEqual(withoutDurations(local.cost!));
    expect(http.json.extensions.cost.estimatedRoundTrips).toBeGreaterThanOrEqual(http.json.extensions.cost.roundTrips);
    expect(typeof http.json.extensions.cost.durationMs).toBe('number');
  });
});

describe('x-docjoin-cost: commands', () => {
  it('lists every command with its collection, name, filter shape (no values), documents and duration', async () => {
    const query = '{ hosts(first: 3) { name logs(first: 5) { message } } }';
    const { json } = await post(demo.gateway.url!, query, { 'x-docjoin-cost': 'commands' });
    const commands = json.extensions.cost.commands!;
    expect(commands.map(({ durationMs: _ms, ...command }) => command)).toEqual([
      { collection: 'hosts', command: 'find', filter: {}, fields: ['Query.hosts'], documents: 3 },
      // one $unionWith branch per host, each with its own $match: an $or of the three
      { collection: 'logMessages', command: 'aggregate', filter: { $or: [{ 'host.id': '?' }, { 'host.id': '?' }, { 'host.id': '?' }] }, fields: ['Host.logs'], documents: 15 },
    ]);
    for (const command of commands) expect(command.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(commands)).not.toMatch(/[0-9a-f]{24}/); // no ids leak
    const local = await demo.gateway.execute({ query }, { costHeader: 'commands' });
    expect(withoutDurations(local.cost!)).toEqual(withoutDurations(json.extensions.cost));
  });

  it('shows the page filter of a reverse join as keys and operators', async () => {
    const { json } = await post(demo.gateway.url!, '{ hosts(first: 1) { logs(first: 2, before: "2020-01-01T00:00:00.000Z") { message } } }', { 'x-docjoin-cost': 'commands' });
    expect(json.extensions.cost.commands![1]!.filter).toEqual({ $and: [{ 'host.id': '?' }, { time: { $lt: '?' } }] });
  });

  it('is absent without the header, and ignored in production, whatever its value (as x-docjoin-strategy is)', async () => {
    const query = '{ posts(first: 2) { title } }';
    expect((await post(demo.gateway.url!, query)).json.extensions.cost.commands).toBeUndefined();
    const { json } = await post(production.gateway.url!, query, { 'x-docjoin-cost': 'commands' });
    expect(json.extensions.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1, naiveRoundTrips: 1 });
    expect(json.extensions.cost.commands).toBeUndefined();
    const garbage = await post(production.gateway.url!, query, { 'x-docjoin-cost': 'everything please', 'x-docjoin-strategy': 'nonsense' });
    expect([garbage.status, garbage.json.errors, (garbage.json.data as { posts: unknown[] }).posts.length]).toEqual([200, undefined, 2]);
  });
});

describe('limits over HTTP', () => {
  it('answer 400 COST_LIMIT_EXCEEDED with the estimate, and send nothing to MongoDB', async () => {
    const started: string[] = [];
    const listener = (event: { commandName: string }) => started.push(event.commandName);
    production.client.on('commandStarted', listener);
    const { status, json } = await post(production.gateway.url!, '{ a: books(first: 5) { publisher { name } } b: books(first: 5) { publisher { name } } }');
    production.client.off('commandStarted', listener);
    expect(started).toEqual([]);
    expect(status).toBe(400);
    expect(json.data).toBeUndefined();
    expect(json.errors).toEqual([
      {
        message:
          'Operation rejected before execution: its estimated cost of 4 round trips exceeds the limit of 3 (set by DOCJOIN_MAX_ROUND_TRIPS in the environment). Query.books accounts for the most (2 round trips): select it in fewer places (aliases, repeated levels).',
        extensions: { code: 'COST_LIMIT_EXCEEDED', cost: { estimated: 4, max: 3, limit: 'roundTrips', field: 'Query.books', fieldShare: 2 } },
      },
    ]);
    expect(json.extensions.cost).toEqual({ roundTrips: 0, documents: 0, bytes: 0, durationMs: 0, estimatedRoundTrips: 4, estimatedDocuments: 5 + 5 + 5 + 5, naiveRoundTrips: 0, fields: {}, collections: {} });
  });
});
