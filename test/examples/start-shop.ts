import { resolve } from 'node:path';
import type { Db, MongoClient } from 'mongodb';
import { connectMongo, loadProject, type Gateway } from 'docjoin';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

export const SHOP_CONFIG = resolve(__dirname, '../../examples/shop/docjoin.config.ts');

export interface ShopGateway {
  readonly mongo: TestMongo;
  readonly client: MongoClient;
  readonly db: Db;
  readonly gateway: Gateway;
  stop(): Promise<void>;
}

/** The shop example's gateway over a fresh database its seed filled at scale 1; a startup warning fails the test. */
export async function startShopGateway(dbPrefix: string): Promise<ShopGateway> {
  const mongo = await startTestMongo();
  const db = mongo.freshDb(dbPrefix);
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  await project.config.seed!(db, { scale: 1, onProgress: () => undefined });
  const client = await connectMongo(mongo.uri);
  const gateway = await createCheckedGateway({
    typeDefs: project.typeDefs,
    resolvers: project.resolvers,
    writePlans: project.writePlans,
    auth: project.config.auth!,
    mongoClient: client,
    db: db.databaseName,
    listen: false,
    onWarning: (message) => {
      throw new Error(message);
    },
  });
  return {
    mongo,
    client,
    db,
    gateway,
    async stop() {
      await gateway.stop();
      await client.close();
      await mongo.stop();
    },
  };
}
