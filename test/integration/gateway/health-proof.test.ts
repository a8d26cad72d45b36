import { CostLedger } from '../../../src/gateway/request/cost/cost-ledger';
import { connectMongo, MongoFunnel, type MongoClient } from '../../../src/gateway/request/mongo/mongo-funnel';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { startWireProxy, type WireProxy } from '../../support/wire-proxy';

/**
 * /health's ping under load: the ping may wait behind the requests' commands, and any answer of the
 * server proves it is up as well as the ping's would. A wire proxy holds the ping, so the order is sure.
 */
let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
}, 60_000);
afterAll(() => mongo?.stop());

interface HeldPing {
  readonly proxy: WireProxy;
  readonly client: MongoClient;
  readonly funnel: MongoFunnel;
}

async function withHeldPing(test: (held: HeldPing) => Promise<void>): Promise<void> {
  const proxy = await startWireProxy(mongo.uri, (command) => command.ping !== undefined);
  const client = await connectMongo(proxy.uri);
  const funnel = new MongoFunnel(client, client.db(mongo.freshDb('health').databaseName));
  try {
    await test({ proxy, client, funnel });
  } finally {
    funnel.detach();
    await client.close();
    await proxy.close();
  }
}

describe('MongoFunnel.pingOrAnyAnswer', () => {
  it('settles while its ping is held, as soon as the server answers another command of the client', async () => {
    await withHeldPing(async ({ proxy, funnel }) => {
      let settled = false;
      const proof = funnel.pingOrAnyAnswer().then(() => {
        settled = true;
      });
      expect((await proxy.held).ping).toBe(1);
      expect(settled).toBe(false);
      const ledger = new CostLedger();
      await funnel.find({ ledger, fields: [] }, 'probe', {}, { projection: { _id: 1 } });
      await proof;
      expect(settled).toBe(true);
      expect(ledger.report().roundTrips).toBe(1);
    });
  });

  it('fails when its ping fails before anything else is answered', async () => {
    await withHeldPing(async ({ proxy, funnel }) => {
      const proof = funnel.pingOrAnyAnswer();
      await proxy.held;
      // The held ping's connection is cut: the ping fails, and no other command was answered.
      await proxy.close();
      await expect(proof).rejects.toThrow();
    });
  });
});
