import type { Db, ObjectId } from 'mongodb';
import { demoDrift } from './support/demo-workload';
import { report } from './support/fault-run';
import { send, type RequestRecord } from './support/load';
import { startDemoStack, type DemoStack } from './support/demo-stack';
import type { GatewayProcess } from './support/processes';

/**
 * Concurrent conflicting writes, with transactions: 16 clients rename ONE author at once (its copies in
 * every book rewritten by each rename), and reassign ONE task back and forth between people (both sides
 * of the two-way reference written by each). Conflicts are retried (the attempts reported add up to
 * more than the writes); a write still conflicting when its retries run out is refused with
 * WRITE_CONFLICT and leaves nothing. The final state is one acknowledged write's, with every copy and
 * both sides agreeing (no drift).
 */
const CLIENTS = 16;
const WRITES_PER_CLIENT = 5;

let stack: DemoStack;
let db: Db;
let gateway: GatewayProcess;
beforeAll(async () => {
  stack = await startDemoStack();
  ({ db, gateway } = stack);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

/** `write(client, n)` from every client at once, each client's writes one after another. */
async function race(write: (client: number, n: number) => Promise<RequestRecord>): Promise<RequestRecord[]> {
  const runs = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const records: RequestRecord[] = [];
      for (let n = 0; n < WRITES_PER_CLIENT; n++) records.push(await write(c, n));
      return records;
    }),
  );
  return runs.flat();
}

/** Each write was acknowledged, or refused as a write conflict its retries could not get past. */
function expectAckedOrConflicting(records: readonly RequestRecord[]): void {
  expect(records.filter((record) => record.outcome !== 'acked' && !(record.outcome === 'refused' && record.codes.join() === 'WRITE_CONFLICT'))).toEqual([]);
  expect(records.some((record) => record.outcome === 'acked')).toBe(true);
}

/** Runs of the writes' transactions, retries included, as `extensions.cost.writes.attempts` reported them. */
function attemptsOf(records: readonly RequestRecord[]): number {
  return records.reduce((sum, record) => sum + (record.attempts ?? 0), 0);
}

it('renames of one author from many clients: an acknowledged one everywhere, a refused one nowhere', async () => {
  // The author copied by the most books: each rename rewrites all of those copies.
  const [top] = await db.collection('books').aggregate<{ _id: ObjectId; n: number }>([{ $unwind: '$authors' }, { $group: { _id: '$authors.id', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }, { $limit: 1 }]).toArray();
  const id = top!._id.toHexString();
  const records = await race((c, n) =>
    send(gateway.url, { name: 'renameAuthor', query: `mutation { renameAuthor(id: "${id}", firstName: "Race", lastName: "c${c}n${n}") { id } }`, write: { kind: 'rename', key: id, value: `Race c${c}n${n}` } }),
  );
  const author = (await db.collection('authors').findOne({ _id: top!._id }))!;
  const copies = await db.collection('books').aggregate<{ _id: string }>([{ $unwind: '$authors' }, { $match: { 'authors.id': top!._id } }, { $group: { _id: '$authors.name' } }]).toArray();
  const drift = await demoDrift(db);
  const attempts = attemptsOf(records);
  report('concurrent renames of one author', { writes: records.length, acked: records.filter((record) => record.outcome === 'acked').length, copies: top!.n, final: author.name, copyNames: copies.map((copy) => copy._id), attempts, drifted: drift.drifted });
  expectAckedOrConflicting(records);
  expect(records.filter((record) => record.outcome === 'acked').map((record) => record.request.write!.value)).toContain(author.name);
  expect(copies).toEqual([{ _id: author.name }]);
  expect(drift.drifted).toBe(0);
  expect(attempts).toBeGreaterThanOrEqual(records.length);
}, 180_000);

it('a reassignTask race: the task and exactly one person agree on its owner', async () => {
  const task = (await db.collection('tasks').findOne({}, { sort: { _id: 1 } }))!;
  const people = (await db.collection('people').find({}, { projection: { _id: 1 }, sort: { _id: 1 }, limit: 4 }).toArray()).map((person) => (person._id as ObjectId).toHexString());
  const taskId = (task._id as ObjectId).toHexString();
  const records = await race((c, n) => {
    const ownerId = people[(c + n) % people.length]!;
    return send(gateway.url, { name: 'reassignTask', query: `mutation { reassignTask(taskId: "${taskId}", ownerId: "${ownerId}") { id } }`, write: { kind: 'reassign', key: taskId, value: ownerId } });
  });
  const owner = String((await db.collection('tasks').findOne({ _id: task._id }))!.ownerId);
  const holders = (await db.collection('people').find({ taskIds: task._id }, { projection: { _id: 1 } }).toArray()).map((person) => String(person._id));
  const drift = await demoDrift(db);
  report('reassignTask race', { writes: records.length, acked: records.filter((record) => record.outcome === 'acked').length, owner, holders, attempts: attemptsOf(records), drifted: drift.drifted });
  expectAckedOrConflicting(records);
  expect(records.filter((record) => record.outcome === 'acked').map((record) => record.request.write!.value)).toContain(owner);
  expect(holders).toEqual([owner]);
  expect(drift.drifted).toBe(0);
  expect(attemptsOf(records)).toBeGreaterThanOrEqual(records.length);
}, 180_000);
