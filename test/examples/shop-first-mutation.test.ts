import { resolve } from 'node:path';
import type { CommandStartedEvent, Db, MongoClient } from 'mongodb';
import { connectMongo, loadProject, type Gateway, type Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { startTestMongo, type TestMongo } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

/**
 * What the first mutation of a process would ask the server (whether it runs transactions; the lock
 * collection, where a mutation bumps reference locks) is asked at startup: the first mutation sends only
 * the commands its extensions.cost counts.
 */
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };
let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let gateway: Gateway;
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('shop_first_mutation');
  const project = await loadProject({ cwd: process.cwd(), configPath: resolve(__dirname, '../../examples/shop/docjoin.config.ts') });
  await project.config.seed!(db, { scale: 1, onProgress: () => undefined });
  client = await connectMongo(mongo.uri);
  gateway = await createCheckedGateway({ typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans, auth: project.config.auth!, mongoClient: client, db: db.databaseName, listen: false, onWarning: () => undefined });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

it('sends only the commands its cost report counts, the first mutation of the process included', async () => {
  const sent: string[] = [];
  const onStarted = (event: CommandStartedEvent) => void sent.push(event.commandName);
  client.on('commandStarted', onStarted);
  try {
    const query = `mutation { updateProduct(id: "${SHOP_IDS.matcha.toHexString()}", input: { name: "Ceremonial Matcha" }) { name } }`;
    const result = await gateway.execute({ query }, { viewer: ADMIN });
    expect(result.errors).toBeUndefined();
    expect(sent).not.toContain('hello');
    expect(sent).not.toContain('create');
    expect(sent.length).toBe(result.cost!.roundTrips);
  } finally {
    client.off('commandStarted', onStarted);
  }
});
