import type { Db } from 'mongodb';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { expectedWrites, serverSupportsTransactions } from './support/expected-writes';

/**
 * The expensive write the seeds warn about, at its real size: 100 hosts with 100,000 log messages,
 * each keeping a snapshot of its host. Renaming one host rewrites its 1,000 messages.
 */
let demo: DemoGateway;
let db: Db;
let transactions: boolean;
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 1 });
  db = demo.mongo.client.db(demo.dbName);
  transactions = await serverSupportsTransactions(demo.mongo.client);
}, 120_000);
afterAll(() => demo?.stop());

it('updateHost at scale 1 modifies 1,000 log messages, and its cost says so', async () => {
  expect(await db.collection('logMessages').countDocuments()).toBe(100_000);
  const host = (await db.collection('hosts').findOne({}, { sort: { _id: 1 } }))!;
  const started = performance.now();
  const result = await demo.gateway.execute({ query: `mutation { updateHost(id: "${host._id.toHexString()}", name: "big.example.com", ipaddr: "10.98.0.1") { name } }` });
  const elapsedMs = performance.now() - started;
  expect(result.errors).toBeUndefined();
  // One statement on the host (its fields and the host copies inside its recentLogs), one updateMany on logMessages, commit.
  expect(result.cost!.writes).toEqual(expectedWrites(transactions, { roundTrips: 3, documentsModified: 1_001, fanOut: { hosts: 1, logMessages: 1_000 } }));
  expect(await db.collection('logMessages').countDocuments({ 'host.id': host._id, 'host.name': 'big.example.com' })).toBe(1_000);
  // The cheap write for comparison: one document.
  const stock = (await db.collection('stocks').findOne({}))!;
  const cheap = await demo.gateway.execute({ query: `mutation { updateStockPrice(symbol: "${stock.symbol}", open: 1, high: 2, low: 0.5) { symbol } }` });
  expect(cheap.cost!.writes).toEqual(expectedWrites(transactions, { roundTrips: 2, documentsModified: 1, fanOut: { stocks: 1 } }));
  process.stdout.write(`updateHost at scale 1: ${elapsedMs.toFixed(0)} ms, ${result.cost!.durationMs} ms waiting on MongoDB\n`);
});
