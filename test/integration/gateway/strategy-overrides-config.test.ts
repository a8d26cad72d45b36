import { demoProjectOptions } from '../../support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, type CostReport, type Gateway, type MongoClient } from 'docjoin';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * DOCJOIN_STRATEGY_OVERRIDES decides whether x-docjoin-strategy is read at all, whatever NODE_ENV says:
 * off in development ignores the header (even a malformed one), on in production honours it (and still
 * reports errors without stack traces).
 */
let off: DemoGateway;
/** The same data behind a production gateway that turns the overrides back on. */
let productionOn: { gateway: Gateway; client: MongoClient };
beforeAll(async () => {
  off = await startDemoGateway({ listen: true, env: { NODE_ENV: 'development', DOCJOIN_STRATEGY_OVERRIDES: 'off' } });
  const client = await connectMongo(off.mongo.uri);
  const config = loadConfig({ PORT: '0', NODE_ENV: 'production', DOCJOIN_STRATEGY_OVERRIDES: 'true' });
  productionOn = { client, gateway: await createCheckedGateway({ db: client.db(off.dbName), mongoClient: client, mongoKind: 'embedded', ...demoProjectOptions(), ...gatewaySettingsOf(config), validateDatabase: false }) };
}, 120_000);
afterAll(async () => {
  await productionOn?.gateway.stop();
  await productionOn?.client.close();
  await off?.stop();
});

const QUERY = '{ books(first: 5) { name authors { name } } }';

interface HttpResult {
  status: number;
  json: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }>; extensions?: { cost: CostReport } };
}

async function post(gateway: Gateway, query: string, strategy: string): Promise<HttpResult> {
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-docjoin-strategy': strategy }, body: JSON.stringify({ query }) });
  return { status: response.status, json: (await response.json()) as HttpResult['json'] };
}

describe('DOCJOIN_STRATEGY_OVERRIDES=off in development', () => {
  it('ignores the header: the SDL default (snapshot) serves the field', async () => {
    const result = await off.gateway.execute({ query: QUERY }, { strategyHeader: 'Book.authors=join' });
    expect(result.errors).toBeUndefined();
    expect(result.cost).toMatchObject({ roundTrips: 1, fields: { 'Book.authors': { strategy: 'snapshot' } } });
    const http = await post(off.gateway, QUERY, 'Book.authors=join');
    expect([http.status, http.json.errors, http.json.extensions!.cost.roundTrips]).toEqual([200, undefined, 1]);
  });

  it('does not even parse it: a malformed header is no error', async () => {
    for (const strategy of ['Book.nope=join', 'Book.authors=fastest', 'not a header']) {
      const http = await post(off.gateway, QUERY, strategy);
      expect([strategy, http.status, http.json.errors]).toEqual([strategy, 200, undefined]);
      expect(http.json.data).toEqual((await off.gateway.execute({ query: QUERY })).data);
      await expect(off.gateway.execute({ query: QUERY }, { strategyHeader: strategy })).resolves.toMatchObject({ errors: undefined });
    }
  });

  it('development errors still carry stack traces (the contrast to production below)', async () => {
    const http = await post(off.gateway, '{ book(id: "x") { name } }', '');
    expect(http.json.errors![0]!.extensions!.stacktrace).toEqual(expect.arrayContaining([expect.stringContaining('id must be a 24-character hexadecimal ObjectId')]));
  });
});

describe('DOCJOIN_STRATEGY_OVERRIDES=true with NODE_ENV=production', () => {
  it('honours the header', async () => {
    const http = await post(productionOn.gateway, QUERY, 'Book.authors=join');
    const local = await productionOn.gateway.execute({ query: QUERY }, { strategyHeader: 'Book.authors=join' });
    for (const cost of [http.json.extensions!.cost, local.cost!]) expect(cost).toMatchObject({ roundTrips: 2, fields: { 'Book.authors': { strategy: 'join' } } });
    expect(http.json.data).toEqual((await off.gateway.execute({ query: QUERY })).data);
  });

  it('rejects a bad header with 400 BAD_USER_INPUT, without a stack trace', async () => {
    const http = await post(productionOn.gateway, QUERY, 'Book.nope=join');
    expect(http.status).toBe(400);
    expect(http.json.errors).toEqual([
      {
        message:
          'x-docjoin-strategy: unknown field "Book.nope". Fields with a choice of strategy: Person.tasks=join|lookup, Holding.stock=join|lookup, Task.owner=join|lookup, ' +
          'Post.recentComments=embedded|join|lookup, Post.comments=join|lookup, Comment.post=join|lookup, Publisher.books=join|lookup, Book.publisher=join|lookup, ' +
          'Book.authors=join|snapshot|lookup, Author.books=join|lookup, Product.parts=join|snapshot|lookup, Host.recentLogs=embedded|join|lookup, Host.logs=join|lookup, LogMessage.host=join|snapshot|lookup',
        extensions: { code: 'BAD_USER_INPUT', header: 'x-docjoin-strategy' },
      },
    ]);
  });

  it('reports execution errors without a stack trace', async () => {
    const http = await post(productionOn.gateway, '{ book(id: "x") { name } }', 'Book.authors=join');
    expect([http.status, http.json]).toEqual([
      200,
      {
        data: { book: null },
        errors: [{ message: 'id must be a 24-character hexadecimal ObjectId, got "x"', locations: [{ line: 1, column: 3 }], path: ['book'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'id' } }],
        extensions: { cost: expect.objectContaining({ roundTrips: 0 }) },
      },
    ]);
  });
});
