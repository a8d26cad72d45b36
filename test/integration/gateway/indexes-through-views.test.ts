import { indexesThroughViews } from '../../../src/gateway';
import { IndexCatalog } from '../../../src/advise/statistics/index-catalog';
import { mongoForFile } from '../../support/test-mongo';

/**
 * The indexes startup and advise read of a collection: a view's are its collection's, and a collection
 * MongoDB has not made yet (it makes one on its first write) has none, rather than failing the command.
 */
const file = mongoForFile();

it("lists a collection's indexes, a view's through its collection, and none for a collection not made yet", async () => {
  const db = file.mongo.freshDb('indexes_through_views');
  await db.collection('invoices').createIndex({ currencyCode: 1 });
  await db.createCollection('recentInvoices', { viewOn: 'invoices', pipeline: [{ $sort: { _id: -1 } }] });
  await db.createCollection('viewOfView', { viewOn: 'recentInvoices', pipeline: [] });
  const keys = async (collection: string) => {
    const { indexes, source } = await indexesThroughViews(db, collection);
    return { keys: indexes.map((index) => index.key).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), source };
  };
  expect(await keys('invoices')).toEqual({ keys: [{ _id: 1 }, { currencyCode: 1 }], source: undefined });
  expect(await keys('viewOfView')).toEqual({ keys: [{ _id: 1 }, { currencyCode: 1 }], source: 'invoices' });
  expect(await keys('currencies')).toEqual({ keys: [], source: undefined });
  // advise asks which paths an index leads with: none, on a collection not made yet.
  const catalog = new IndexCatalog(db);
  expect([await catalog.servesEquality('invoices', 'currencyCode'), await catalog.servesEquality('currencies', 'code')]).toEqual([true, false]);
});
