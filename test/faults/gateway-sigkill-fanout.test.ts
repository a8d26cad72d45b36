import { join } from 'node:path';
import { MongoClient, type Db, type ObjectId } from 'mongodb';
import { seedDemoData } from '../../seed/seed-database';
import { DEMO_CONFIG } from '../support/demo-project';
import { demoDrift } from './support/demo-workload';
import { report } from './support/fault-run';
import { send } from './support/load';
import { startGateway, startMongo, type MongoProcess } from './support/processes';
import { startWireProxy } from '../support/wire-proxy';

/**
 * Gateway SIGKILL during a large fan-out: `updateHost` rewrites a host and its 1,000 log messages'
 * copies. The gateway reaches MongoDB through a proxy that holds the copies' `update`, so the kill
 * lands after the host's statement and before the copies'. With transactions: nothing of the rename
 * is visible, then or after, and reconcile finds no drift. Without (the ordered path): the host
 * changed, its copies did not; reconcile reports exactly those copies, fixes them, and a second run
 * reports none.
 */
const ORDERED_CONFIG = join(__dirname, 'ordered-writes-project/docjoin.config.ts');
const RENAMED = 'renamed.example.com';

let mongo: MongoProcess;
let client: MongoClient;
beforeAll(async () => {
  mongo = await startMongo();
  client = await MongoClient.connect(mongo.uri);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

/** A fresh demo database and its host with the most messages. */
async function seeded(name: string): Promise<{ db: Db; host: { _id: ObjectId; name: string }; messages: number }> {
  const db = client.db(name);
  await seedDemoData(db, { scale: 1 });
  const [top] = await db.collection('logMessages').aggregate<{ _id: ObjectId; n: number }>([{ $group: { _id: '$host.id', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }, { $limit: 1 }]).toArray();
  const host = (await db.collection('hosts').findOne({ _id: top!._id }))!;
  return { db, host: { _id: host._id as ObjectId, name: host.name as string }, messages: top!.n };
}

/** What the database shows of the rename: the host's name, its recent logs' copies, and how many of its messages' copies carry each name. */
async function observe(db: Db, hostId: ObjectId): Promise<{ host: string; recentLogs: string[]; copies: Record<string, number> }> {
  const host = (await db.collection('hosts').findOne({ _id: hostId }, { projection: { name: 1, recentLogs: 1 } }))!;
  const groups = await db.collection('logMessages').aggregate<{ _id: string; n: number }>([{ $match: { 'host.id': hostId } }, { $group: { _id: '$host.name', n: { $sum: 1 } } }]).toArray();
  return { host: host.name as string, recentLogs: [...new Set((host.recentLogs as Array<{ host: { name: string } }>).map((entry) => entry.host.name))], copies: Object.fromEntries(groups.map((group) => [group._id, group.n])) };
}

/** Starts `docjoin serve` through the proxy, renames the host, and SIGKILLs the gateway once the copies' update is held. */
async function renameAndKill(dbName: string, config: string, hostId: ObjectId): Promise<void> {
  const proxy = await startWireProxy(mongo.uri, (command) => command.update === 'logMessages');
  const gateway = await startGateway({ config, mongoUri: proxy.uri, db: dbName });
  try {
    const rename = send(gateway.url, { name: 'updateHost', query: `mutation($id: ID!) { updateHost(id: $id, name: "${RENAMED}", ipaddr: "10.9.9.9") { id } }`, variables: { id: hostId.toHexString() } });
    await proxy.held;
    expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
    expect((await rename).outcome).toBe('unknown');
  } finally {
    await gateway.stop('SIGKILL');
    await proxy.close();
  }
}

it('with transactions: a gateway killed mid-rename leaves nothing of it visible, and no drift', async () => {
  const { db, host, messages } = await seeded('faults_kill_tx');
  const before = await observe(db, host._id);
  await renameAndKill('faults_kill_tx', DEMO_CONFIG, host._id);
  // The host's statement ran inside the transaction, which never commits.
  const after = await observe(db, host._id);
  const drift = await demoDrift(db);
  report('gateway SIGKILL mid-fan-out, transactions', { messages, before, after, drifted: drift.drifted });
  expect(before).toEqual({ host: host.name, recentLogs: [host.name], copies: { [host.name]: messages } });
  expect(after).toEqual(before);
  expect(drift.drifted).toBe(0);
}, 180_000);

it('without transactions: reconcile finds exactly the copies the kill left stale, fixes them, then finds none', async () => {
  const { db, host, messages } = await seeded('faults_kill_ordered');
  await renameAndKill('faults_kill_ordered', ORDERED_CONFIG, host._id);
  // The host's statement (its recentLogs' copies folded in) was applied; the messages' copies were not.
  expect(await observe(db, host._id)).toEqual({ host: RENAMED, recentLogs: [RENAMED], copies: { [host.name]: messages } });
  const found = await demoDrift(db);
  const fixed = await demoDrift(db, { fix: true });
  const again = await demoDrift(db);
  const byCopy = Object.fromEntries(found.checks.filter((check) => check.drifted > 0).map((check) => [check.coordinate, check.drifted]));
  report('gateway SIGKILL mid-fan-out, ordered writes', { messages, drifted: found.drifted, byCopy, fixed: fixed.fixed, afterFix: again.drifted });
  expect(byCopy).toEqual({ 'LogMessage.host': messages });
  expect(fixed.fixed).toBe(messages);
  expect(again.drifted).toBe(0);
  expect(await observe(db, host._id)).toEqual({ host: RENAMED, recentLogs: [RENAMED], copies: { [RENAMED]: messages } });
}, 180_000);
