import type { ResponsePath } from 'graphql';
import { CostLedger } from '../../../src/gateway/request/cost/cost-ledger';
import { DocumentLoader } from '../../../src/gateway/request/loaders/document-loader';
import { projectionOf } from '../../../src/gateway/operation/planning/projection';
import { MongoFunnel } from '../../../src/gateway/request/mongo/mongo-funnel';
import { mongoForFile } from '../../support/test-mongo';

const file = mongoForFile();

const ROOT: ResponsePath = { prev: undefined, key: 'probes', typename: 'Query' };
const at = (index: number, key: string): ResponsePath => ({ prev: { prev: ROOT, key: index, typename: undefined }, key, typename: 'Probe' });

describe('DocumentLoader', () => {
  it("serves one key's loads and one parent's list of keys from the same find, in key order, null where none has the key", async () => {
    const db = file.client.db(file.mongo.freshDb('loader').databaseName);
    await db.collection('loaderProbe').insertMany([
      { _id: 'a', name: 'A' },
      { _id: 'b', name: 'B' },
      { _id: 'c', name: 'C' },
    ] as never[]);
    const funnel = new MongoFunnel(file.client, db);
    const ledger = new CostLedger();
    try {
      const loader = new DocumentLoader(funnel, { ledger }, 'loaderProbe', '_id');
      const projection = projectionOf([['name', 1]]);
      const listCost = ledger.field('Probe.friends', 'join');
      const singleCost = ledger.field('Probe.best', 'join');
      const [friends, noFriends, best] = await Promise.all([
        loader.loadMany({ keys: ['c', 'missing', 'a', 'c'], projection, path: at(0, 'friends'), field: 'Probe.friends', cost: listCost, isReference: true }),
        loader.loadMany({ keys: [], projection, path: at(1, 'friends'), field: 'Probe.friends', cost: listCost, isReference: true }),
        loader.load({ key: 'b', projection, path: at(0, 'best'), field: 'Probe.best', cost: singleCost, isReference: true }),
      ]);
      expect(friends.map((document) => document?.name ?? null)).toEqual(['C', null, 'A', 'C']);
      expect(noFriends).toEqual([]);
      expect(best).toMatchObject({ _id: 'b', name: 'B' });
      const report = ledger.report();
      expect(report.roundTrips).toBe(1);
      expect(report.collections).toEqual({ loaderProbe: { roundTrips: 1, documents: 3 } });
      // A document counts once per field however many keys asked for it; the missing key is dangling.
      expect(report.fields!['Probe.friends']).toMatchObject({ documents: 2, dangling: 1 });
      expect(report.fields!['Probe.best']).toMatchObject({ documents: 1 });
      expect(report.fields!['Probe.best']!.dangling).toBeUndefined();
    } finally {
      funnel.detach();
    }
  });
});
