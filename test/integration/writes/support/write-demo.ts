import type { Db } from 'mongodb';
import { startDemoGateway, type DemoGateway } from '../../gateway/support/demo-gateway';
import { serverSupportsTransactions } from './expected-writes';

/** What the write tests start with: a gateway over the demo data at scale 0.1, its database, and whether it runs transactions. */
export interface WriteDemo {
  readonly demo: DemoGateway;
  readonly db: Db;
  readonly transactions: boolean;
}

export async function startWriteDemo(): Promise<WriteDemo> {
  const demo = await startDemoGateway({ scale: 0.1 });
  return { demo, db: demo.mongo.client.db(demo.dbName), transactions: await serverSupportsTransactions(demo.mongo.client) };
}
