import { MongoClient, type Db } from 'mongodb';
import { seedDemoData } from '../../../seed/seed-database';
import { DEMO_CONFIG } from '../../support/demo-project';
import { startGateway, startMongo, type GatewayProcess, type MongoProcess } from './processes';

/** The embedded MongoDB in its own process, seeded with the demo (database `faults`), and `docjoin serve` on it. */
export interface DemoStack {
  mongo: MongoProcess;
  readonly gateway: GatewayProcess;
  /** The test's own client of that MongoDB, and the demo database. */
  readonly client: MongoClient;
  readonly db: Db;
  stop(): Promise<void>;
}

export async function startDemoStack(options: { mongoArgs?: readonly string[]; gatewayEnv?: NodeJS.ProcessEnv } = {}): Promise<DemoStack> {
  const mongo = await startMongo({ args: options.mongoArgs ?? [] });
  const client = await MongoClient.connect(mongo.uri, { serverSelectionTimeoutMS: 20_000 });
  const db = client.db('faults');
  await seedDemoData(db, { scale: 1 });
  const gateway = await startGateway({ config: DEMO_CONFIG, mongoUri: mongo.uri, db: 'faults', env: options.gatewayEnv ?? {} });
  const stack: DemoStack = {
    mongo,
    gateway,
    client,
    db,
    async stop() {
      await gateway.stop();
      await client.close();
      await stack.mongo.stop();
    },
  };
  return stack;
}
