import type { Db, ObjectId } from 'mongodb';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import type { ReconcileReport } from '../../../src/reconcile/reconcile-types';
import { demoTypeDefs } from '../../support/demo-project';
import type { PlannedRequest, RequestRecord } from './load';

/**
 * The demo's mixed workload for the fault scenarios: reads of every storage shape and, in a share of the
 * requests, the mutations that keep copies true (comments: a counter and a bounded array; renames: a
 * snapshot fan-out; task reassignments: a two-way reference). Each write carries a value unique to its
 * request, so after the run every final value can be traced to the write that set it.
 */

export interface DemoIds {
  readonly posts: readonly ObjectId[];
  readonly authors: readonly ObjectId[];
  readonly tasks: readonly ObjectId[];
  readonly people: readonly ObjectId[];
}

export async function readDemoIds(db: Db, count = 20): Promise<DemoIds> {
  const ids = async (collection: string) => (await db.collection(collection).find({}, { projection: { _id: 1 }, sort: { _id: 1 }, limit: count }).toArray()).map((document) => document._id as ObjectId);
  return { posts: await ids('posts'), authors: await ids('authors'), tasks: await ids('tasks'), people: await ids('people') };
}

const READS: readonly PlannedRequest[] = [
  { name: 'read books', query: '{ books(first: 20) { name publisher { name } authors { name } } }' },
  { name: 'read posts', query: '{ posts(first: 10) { title commentCount recentComments { author comment } } }' },
  { name: 'read people', query: '{ people(first: 20) { firstName tasks { description } } }' },
  { name: 'read authors', query: '{ authors(first: 20) { name countOfBooks } }' },
];

/** Request `n` of `client`: a write in about `writeShare` of them (spread evenly; 0: none), else a read. */
export function mixedRequest(ids: DemoIds, client: number, n: number, writeShare = 0.1): PlannedRequest {
  const tag = `c${client}n${n}`;
  const pick = <T>(list: readonly T[], salt: number) => list[(client * 7 + n * 13 + salt) % list.length]!;
  const everyWrite = Math.round(1 / writeShare);
  if (writeShare === 0 || (n + client) % everyWrite !== 0) return READS[(client + n) % READS.length]!;
  switch (Math.floor((n + client) / everyWrite) % 3) {
    case 0: {
      const postId = pick(ids.posts, 1).toHexString();
      return { name: 'addComment', query: 'mutation($postId: ID!, $comment: String!) { addComment(postId: $postId, author: "fault", comment: $comment) { id } }', variables: { postId, comment: tag }, write: { kind: 'comment', key: postId, value: tag } };
    }
    case 1: {
      const id = pick(ids.authors, 2).toHexString();
      return { name: 'renameAuthor', query: 'mutation($id: ID!, $last: String!) { renameAuthor(id: $id, firstName: "Fault", lastName: $last) { id } }', variables: { id, last: tag }, write: { kind: 'rename', key: id, value: `Fault ${tag}` } };
    }
    default: {
      const taskId = pick(ids.tasks, 3).toHexString();
      const ownerId = pick(ids.people, 4).toHexString();
      return { name: 'reassignTask', query: 'mutation($taskId: ID!, $ownerId: ID!) { reassignTask(taskId: $taskId, ownerId: $ownerId) { id } }', variables: { taskId, ownerId }, write: { kind: 'reassign', key: taskId, value: ownerId } };
    }
  }
}

/** What the writes' clients were told, against what the database holds: every violation, one line each. */
export async function checkWrites(db: Db, records: readonly RequestRecord[], initial: { names: ReadonlyMap<string, string>; owners: ReadonlyMap<string, string> }): Promise<string[]> {
  const violations: string[] = [];
  const writes = records.filter((record) => record.request.write);
  const byKind = (kind: string) => writes.filter((record) => record.request.write!.kind === kind);

  // Comments: every acknowledged one is stored; none is stored that its client was told failed.
  const comments = byKind('comment');
  const stored = new Set((await db.collection('comments').find({ author: 'fault' }, { projection: { comment: 1 } }).toArray()).map((comment) => comment.comment as string));
  for (const record of comments) {
    const text = record.request.write!.value as string;
    if (record.outcome === 'acked' && !stored.has(text)) violations.push(`acknowledged comment ${text} is not in the database`);
    if (record.outcome === 'refused' && stored.has(text)) violations.push(`comment ${text} is in the database, but its client was told ${record.codes.join(', ')}`);
  }

  // Renames and reassignments: the final value is one some acknowledged or unanswered write set (or
  // the initial one, when no write was acknowledged), never a refused write's.
  const finalNames = new Map((await db.collection('authors').find({}, { projection: { name: 1 } }).toArray()).map((author) => [String(author._id), author.name as string]));
  const finalOwners = new Map((await db.collection('tasks').find({}, { projection: { ownerId: 1 } }).toArray()).map((task) => [String(task._id), String(task.ownerId)]));
  violations.push(...traceFinalValues('author', byKind('rename'), finalNames, initial.names));
  violations.push(...traceFinalValues('task', byKind('reassign'), finalOwners, initial.owners));
  return violations;
}

function traceFinalValues(what: string, records: readonly RequestRecord[], finals: ReadonlyMap<string, string>, initial: ReadonlyMap<string, string>): string[] {
  const violations: string[] = [];
  for (const key of new Set(records.map((record) => record.request.write!.key))) {
    const mine = records.filter((record) => record.request.write!.key === key);
    const explained = new Set(mine.filter((record) => record.outcome !== 'refused').map((record) => String(record.request.write!.value)));
    if (!mine.some((record) => record.outcome === 'acked')) explained.add(initial.get(key) ?? '');
    const final = finals.get(key) ?? '';
    if (!explained.has(final)) {
      const refused = mine.find((record) => record.outcome === 'refused' && String(record.request.write!.value) === final);
      violations.push(`${what} ${key} ends as "${final}", ${refused ? `which a refused write (${refused.codes.join(', ')}) set` : 'which no acknowledged or unanswered write set'}`);
    }
  }
  return violations;
}

/** The authors' names and the tasks' owners before the run (what an unacknowledged key may keep). */
export async function initialValues(db: Db): Promise<{ names: Map<string, string>; owners: Map<string, string> }> {
  return {
    names: new Map((await db.collection('authors').find({}, { projection: { name: 1 } }).toArray()).map((author) => [String(author._id), author.name as string])),
    owners: new Map((await db.collection('tasks').find({}, { projection: { ownerId: 1 } }).toArray()).map((task) => [String(task._id), String(task.ownerId)])),
  };
}

/** reconcile over every copy the demo declares. */
export async function demoDrift(db: Db, options: { fix?: boolean } = {}): Promise<ReconcileReport> {
  return reconcile(db, buildWriteModelFromSdl(demoTypeDefs()), options);
}
