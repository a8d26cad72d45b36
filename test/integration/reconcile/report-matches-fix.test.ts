import { ObjectId, type Db, type Document } from 'mongodb';
import { withDirectiveTypeDefs } from 'docjoin';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { ReconcileReport } from '../../../src/reconcile/reconcile-types';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/**
 * Report-only and `--fix` must agree on what drifted: the report lists exactly what the fix then
 * repairs, check by check. The tricky case is a bounded array of children that carry a snapshot
 * (`Host.recentLogs`, each entry with its `host`): snapshot drift must be counted once, as snapshot
 * drift, not again as a phantom bounded-array difference that `--fix` would never write.
 */
const SDL = /* GraphQL */ `
  scalar DateTime
  type Query {
    host(id: ID!): Host @find
  }
  type Host @collection(name: "hosts") {
    id: ID!
    name: String!
    ipaddr: String!
    recentLogs: [LogMessage!]!
      @embedded
      @join(collection: "logMessages", localField: "_id", foreignField: "host.id", sort: "-time", limit: 3)
      @read(strategy: EMBEDDED)
  }
  type LogMessage @collection(name: "logMessages") {
    id: ID!
    time: DateTime!
    message: String!
    host: Host @snapshot(path: "host", fields: ["id", "name", "ipaddr"]) @join(localField: "host.id") @read(strategy: SNAPSHOT)
  }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs([SDL]));

const CLEAN = { 'Host.recentLogs.host': 0, 'LogMessage.host': 0, 'Host.recentLogs': 0 };

// Two hosts with four messages each; recentLogs holds the newest three.
const hostA = { _id: new ObjectId('65a000000000000000000001'), name: 'a.example.com', ipaddr: '10.0.0.1' };
const hostB = { _id: new ObjectId('65a000000000000000000002'), name: 'b.example.com', ipaddr: '10.0.0.2' };
const messagesOf = (host: typeof hostA, first: number): Document[] =>
  [0, 1, 2, 3].map((i) => ({
    _id: new ObjectId(`65b0000000000000000000${(first + i).toString(16).padStart(2, '0')}`),
    time: new Date(Date.UTC(2024, 0, 1, 0, first + i)),
    message: `message ${first + i}`,
    host: { id: host._id, name: host.name, ipaddr: host.ipaddr },
  }));
const messagesA = messagesOf(hostA, 0);
const messagesB = messagesOf(hostB, 4);
const newestThree = (messages: Document[]) => [...messages].reverse().slice(0, 3);

let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
});
afterAll(() => mongo?.stop());

/** A fresh database holding the clean data: no drift. */
async function seeded(): Promise<Db> {
  const db = mongo.freshDb('reconcile_agree');
  await db.collection('logMessages').insertMany([...messagesA, ...messagesB]);
  await db.collection('hosts').insertMany([
    { ...hostA, recentLogs: newestThree(messagesA) },
    { ...hostB, recentLogs: newestThree(messagesB) },
  ]);
  return db;
}

const drifts = (report: ReconcileReport) => Object.fromEntries(report.checks.map((check) => [check.coordinate, check.drifted]));
const samples = (report: ReconcileReport) => Object.fromEntries(report.checks.map((check) => [check.coordinate, check.sampleIds]));

/** Report, then fix, then report again: the first two list the same drift, which the fix repairs entirely. */
async function expectReportMatchesFix(db: Db, expected: Partial<typeof CLEAN>): Promise<void> {
  // Batches of one host or message, so no check sees two documents in one read.
  const reported = await reconcile(db, model, { batchSize: 1 });
  expect(drifts(reported)).toEqual({ ...CLEAN, ...expected });
  expect(reported.fixed).toBe(0);

  const fixed = await reconcile(db, model, { fix: true, batchSize: 1 });
  expect(drifts(fixed)).toEqual(drifts(reported));
  expect(samples(fixed)).toEqual(samples(reported));
  expect(Object.fromEntries(fixed.checks.map((check) => [check.coordinate, check.fixed]))).toEqual(drifts(reported));

  expect(drifts(await reconcile(db, model))).toEqual(CLEAN);
}

/** After a fix: every copy of the host equals `host`, and recentLogs are the newest three messages. */
async function expectRepaired(db: Db, host: typeof hostA): Promise<void> {
  const snapshot = { id: host._id, name: host.name, ipaddr: host.ipaddr };
  const messages = await db.collection('logMessages').find({ 'host.id': host._id }, { sort: { _id: 1 } }).toArray();
  expect(messages.map((message) => message.host)).toEqual(Array(4).fill(snapshot));
  expect((await db.collection('hosts').findOne({ _id: host._id }))!.recentLogs).toEqual(newestThree(messages));
}

it('starts without drift', async () => {
  expect(drifts(await reconcile(await seeded(), model))).toEqual(CLEAN);
});

it('a host renamed with the copies in its recentLogs but not its messages (an interrupted updateHost): only LogMessage.host drifted', async () => {
  const db = await seeded();
  const renamed = { ...hostA, name: 'renamed.example.com' };
  const recentLogs = newestThree(messagesA).map((log) => ({ ...log, host: { ...log.host, name: renamed.name } }));
  await db.collection('hosts').updateOne({ _id: hostA._id }, { $set: { name: renamed.name, recentLogs } });

  await expectReportMatchesFix(db, { 'LogMessage.host': 4 });
  await expectRepaired(db, renamed);
});

it('a host renamed alone: every copy of it drifted, in its messages and in its recentLogs, and recentLogs still hold the right messages', async () => {
  const db = await seeded();
  await db.collection('hosts').updateOne({ _id: hostA._id }, { $set: { name: 'renamed.example.com' } });

  await expectReportMatchesFix(db, { 'Host.recentLogs.host': 1, 'LogMessage.host': 4 });
  await expectRepaired(db, { ...hostA, name: 'renamed.example.com' });
});

it("one message's host snapshot changed (a copy that recentLogs holds): only LogMessage.host drifted", async () => {
  const db = await seeded();
  await db.collection('logMessages').updateOne({ _id: messagesA[3]!._id }, { $set: { 'host.ipaddr': '10.9.9.9' } });

  await expectReportMatchesFix(db, { 'LogMessage.host': 1 });
  await expectRepaired(db, hostA);
});

it('real bounded-array drift next to snapshot drift is reported once per check, as the fix repairs it', async () => {
  const db = await seeded();
  // Host A as in an interrupted updateHost; host B renamed alone, and its recentLogs lost the newest message.
  const renamedA = { ...hostA, name: 'renamed-a.example.com' };
  const recentLogsA = newestThree(messagesA).map((log) => ({ ...log, host: { ...log.host, name: renamedA.name } }));
  await db.collection('hosts').updateOne({ _id: hostA._id }, { $set: { name: renamedA.name, recentLogs: recentLogsA } });
  await db.collection('hosts').updateOne({ _id: hostB._id }, { $set: { name: 'renamed-b.example.com', recentLogs: newestThree(messagesB).slice(1) } });

  await expectReportMatchesFix(db, { 'Host.recentLogs.host': 1, 'LogMessage.host': 8, 'Host.recentLogs': 1 });
  await expectRepaired(db, renamedA);
  await expectRepaired(db, { ...hostB, name: 'renamed-b.example.com' });
});
