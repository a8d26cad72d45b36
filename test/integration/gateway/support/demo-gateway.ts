import { demoProjectOptions } from '../../../support/demo-project';
import type { MongoClient } from 'mongodb';
import { gatewaySettingsOf, loadConfig, type DocjoinConfig } from '../../../../src/config/config';
import { connectMongo, type Gateway } from 'docjoin';
import { seedDemoData } from '../../../../seed/seed-database';
import { startTestMongo, type TestMongo } from '../../../support/test-mongo';
import { createCheckedGateway } from '../../../support/checked-gateway';

export interface DemoGateway {
  readonly gateway: Gateway;
  readonly mongo: TestMongo;
  /** The gateway's own client (created with monitorCommands). */
  readonly client: MongoClient;
  readonly dbName: string;
  stop(): Promise<void>;
}

/**
 * A gateway over a fresh database seeded with the demo data (scale 1 unless told), in-process
 * (no HTTP unless `listen`). One per test file: seeding ~100k documents takes a while.
 */
export async function startDemoGateway(options: { scale?: number; env?: Record<string, string>; listen?: boolean; seed?: boolean } = {}): Promise<DemoGateway> {
  const mongo = await startTestMongo();
  const seedDb = mongo.freshDb('gateway');
  if (options.seed ?? true) await seedDemoData(seedDb, { scale: options.scale ?? 1 });
  const client = await connectMongo(mongo.uri);
  const config: DocjoinConfig = loadConfig({ PORT: '0', ...options.env });
  let gateway: Gateway;
  try {
    gateway = await createCheckedGateway({
      db: client.db(seedDb.databaseName),
      mongoClient: client,
      mongoKind: mongo.isEmbedded ? 'embedded' : 'external',
      mongoUri: mongo.uri,
      ...demoProjectOptions(), ...gatewaySettingsOf(config),
      // As docjoin serve passes them: a rejection names where its limit was set.
      limitOrigins: config.limitOrigins,
      listen: options.listen ?? false,
      validateDatabase: options.seed ?? true,
    });
  } catch (error) {
    await client.close();
    await mongo.stop();
    throw error;
  }
  return {
    gateway,
    mongo,
    client,
    dbName: seedDb.databaseName,
    async stop() {
      await gateway.stop();
      await client.close();
      await mongo.stop();
    },
  };
}
