import { ObjectId, type ClientSession, type Db } from 'mongodb';
import { type Gateway, type GatewaySettings } from 'docjoin';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { demoProjectOptions } from '../../support/demo-project';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { transactionsAtRegistration } from './support/expected-writes';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Issue 15: a gateway killed mid-transaction leaves the transaction open, holding the documents it
 * wrote until the server's transaction lifetime (60 s) ends it. A mutation that writes one of them
 * conflicts in every attempt; its retries must stop at their bounds (attempts, time, the operation's
 * round-trip limit) with WRITE_CONFLICT and nothing written, not after hundreds of round trips.
 *
 * One post, seeded here; another client's transaction writes it and is left open.
 */
const transactions = transactionsAtRegistration();
let demo: DemoGateway;
let db: Db;
let abandoned: ClientSession;
const gateways: Gateway[] = [];
const post = { _id: new ObjectId(), title: 'Held', body: 'b', author: 'a', createdAt: new Date('2026-11-01T00:00:00Z'), commentCount: 0, recentComments: [] };

beforeAll(async () => {
  // Only the attempt bound decides here, however slowly a busy machine runs the attempts.
  demo = await startDemoGateway({ seed: false, env: { DOCJOIN_TRANSACTION_RETRY_MS: '60000' } });
  db = demo.mongo.client.db(demo.dbName);
  await db.collection('posts').insertOne(post);
}, 60_000);
afterAll(async () => {
  if (abandoned?.inTransaction()) await abandoned.abortTransaction();
  await abandoned?.endSession();
  for (const gateway of gateways) await gateway.stop();
  await demo?.stop();
});

/** A gateway over the test's database with `settings` over the defaults. */
async function gatewayWith(settings: GatewaySettings): Promise<Gateway> {
  const gateway = await createCheckedGateway({
    db: demo.dbName,
    mongoClient: demo.client,
    ...demoProjectOptions(),
    ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
    ...settings,
    listen: false,
    validateDatabase: false,
  });
  gateways.push(gateway);
  return gateway;
}

/** addComment's estimate: one attempt (insert, update posts: its matched count proves the post exists, commit) and the read back of the comment. */
const ESTIMATED_ROUND_TRIPS = 4;
const addComment = (comment: string) => ({ query: `mutation { addComment(postId: "${post._id.toHexString()}", author: "late", comment: "${comment}") { id } }` });

(transactions.supported ? describe : describe.skip)(`a transaction left open on the post${transactions.skipReason}`, () => {
  beforeAll(async () => {
    // What a killed gateway leaves: a transaction that wrote the post, never committed nor aborted.
    abandoned = demo.mongo.client.startSession();
    abandoned.startTransaction();
    await db.collection('posts').updateOne({ _id: post._id }, { $set: { title: 'written by a gateway that died' } }, { session: abandoned });
  });

  it('addComment stops after the default 8 attempts with WRITE_CONFLICT, 3 round trips each, nothing written', async () => {
    const result = await demo.gateway.execute(addComment('blocked'));
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'WRITE_CONFLICT', attempts: 8, retryLimit: 'attempts' });
    expect(result.errors![0]!.message).toMatch(/^Mutation\.addComment: its transaction conflicted with other writes in each of 8 attempt\(s\)/);
    // Per attempt: insert comments, update posts (WriteConflict), abortTransaction. Nothing stands.
    expect(result.cost!.writes).toEqual({ roundTrips: 24, documentsModified: 0, fanOut: { comments: 0, posts: 0 }, atomic: true, attempts: 8 });
    expect(result.cost!).toMatchObject({ roundTrips: 24, estimatedRoundTrips: ESTIMATED_ROUND_TRIPS });
    expect(await db.collection('comments').countDocuments({ postId: post._id })).toBe(0);
    expect(await db.collection('posts').findOne({ _id: post._id })).toEqual(post);
  });

  // The estimate covers one attempt and the read back; what the limit leaves above it pays for retried
  // attempts of 3 round trips each: 5 pays for one, 6 for two.
  it.each([
    [5, 2],
    [6, 3],
  ])('the round-trip limit holds across attempts: %i above the estimate, %i attempts', async (headroom, attempts) => {
    const maxRoundTrips = ESTIMATED_ROUND_TRIPS + headroom;
    const gateway = await gatewayWith({ limits: { maxRoundTrips }, maxTransactionAttempts: 10, transactionRetryMs: 60_000 });
    const result = await gateway.execute(addComment('limited'));
    expect(result.cost!.estimatedRoundTrips).toBe(ESTIMATED_ROUND_TRIPS);
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'WRITE_CONFLICT', attempts, retryLimit: 'roundTrips' });
    expect(result.cost!.writes).toMatchObject({ roundTrips: 3 * attempts, attempts });
    expect(result.cost!.roundTrips).toBeLessThanOrEqual(maxRoundTrips);
  });

  it('maxTransactionAttempts: 1 never retries; transactionRetryMs: 0 starts no retry', async () => {
    const once = await (await gatewayWith({ maxTransactionAttempts: 1 })).execute(addComment('once'));
    expect(once.errors![0]!.extensions).toMatchObject({ code: 'WRITE_CONFLICT', attempts: 1, retryLimit: 'attempts' });
    expect(once.cost!.writes).toMatchObject({ roundTrips: 3, attempts: 1 });
    const noTime = await (await gatewayWith({ transactionRetryMs: 0 })).execute(addComment('no time'));
    expect(noTime.errors![0]!.extensions).toMatchObject({ code: 'WRITE_CONFLICT', attempts: 1, retryLimit: 'time' });
    expect(noTime.cost!.writes).toMatchObject({ roundTrips: 3, attempts: 1 });
    expect(await db.collection('comments').countDocuments({ postId: post._id })).toBe(0);
  });

  it('once the transaction ends, the same mutation succeeds at its first attempt', async () => {
    await abandoned.abortTransaction();
    const result = await demo.gateway.execute(addComment('after'));
    expect(result.errors).toBeUndefined();
    expect(result.cost!.writes).toEqual({ roundTrips: 3, documentsModified: 2, fanOut: { comments: 1, posts: 1 }, atomic: true, attempts: 1 });
    expect(await db.collection('posts').findOne({ _id: post._id })).toMatchObject({ title: 'Held', commentCount: 1 });
  });
});
