import { ObjectId, type Db, type Document } from 'mongodb';
import type { GraphQLResolveInfo } from 'graphql';
import { buildWriteModel, objectIdArgument, withDirectiveTypeDefs, type GatewayContext } from '../../../src/index';
import { reconcile, reconcileChecks } from '../../../src/reconcile/reconcile';
import { scanInBatches, type Check } from '../../../src/reconcile/scan-batches';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * reconcile --fix computes each repair from the sources (children, truth documents, snapshot sources) and
 * writes it guarded by the value the derived document held. A gateway write landing in between that
 * changes the sources but leaves the derived document as it was (its fan-out matched nothing there, or its
 * guarded $push was a no-op) passes that guard, so the fix reads the repaired documents and their sources
 * again, and repairs again, until they agree. Here the interleaving is forced: the gateway mutation runs
 * after the check computed its repairs and before scanInBatches writes them, on the path `reconcile({fix:true})` takes.
 */
const typeDefs = /* GraphQL */ `
  type Query { post(id: ID!): Post @find  person(id: ID!): Person @find }
  type Mutation {
    updateComment(id: ID!, input: CommentPatch!): Comment! @update
    deleteComment(id: ID!): ID! @delete(type: "Comment")
    reassignTask(taskId: ID!, ownerId: ID!): Task!
    updatePerson(id: ID!, input: PersonPatch!): Person! @update
  }
  input PersonPatch { name: String }
  type Note @collection(name: "notes") {
    id: ID!
    writer: Person @snapshot(path: "writer", fields: ["id", "name"]) @join(localField: "writer.id") @read(strategy: SNAPSHOT)
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
    recentComments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-createdAt", limit: 3) @read(strategy: EMBEDDED)
  }
  type Comment @collection(name: "comments") {
    id: ID!
    text: String!
    createdAt: Int!
    post: Post! @join(localField: "postId")
  }
  input CommentPatch { text: String }
  type Person @collection(name: "people") {
    id: ID!
    name: String!
    tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
  }
  type Task @collection(name: "tasks") {
    id: ID!
    description: String!
    owner: Person @join(localField: "ownerId")
  }
`;

async function reassignTask(_parent: unknown, args: { taskId: string; ownerId: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const id = objectIdArgument(args.taskId, 'taskId');
  await context.writes.run(info, (unit) => unit.changeReference('Task.owner', id, objectIdArgument(args.ownerId, 'ownerId')));
  return context.documents.findOne(info, 'Task', { _id: id });
}

let s: SdlGateway;
let db: Db;
const model = buildWriteModel(withDirectiveTypeDefs([typeDefs]));
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'fix_races',
    gateway: {
      resolvers: { Mutation: { reassignTask } },
      writePlans: { reassignTask: [{ kind: 'changeReference', coordinate: 'Task.owner' }] },
      onWarning: () => undefined,
    },
    prepare: async (fresh) => {
      for (const name of ['posts', 'comments', 'people', 'tasks', 'notes']) await fresh.createCollection(name);
      await fresh.collection('comments').createIndex({ postId: 1, createdAt: -1, _id: -1 });
      await fresh.collection('tasks').createIndex({ ownerId: 1 });
    },
  });
  db = s.mongo.client.db(s.db.databaseName);
}, 60_000);
afterAll(() => s?.stop());

/** reconcile --fix of one rule, with `between` run after its check computed the repairs and before they are written. */
async function fixWithWriteBetween(coordinate: string, between: () => Promise<void>) {
  const check = reconcileChecks(db, model).find((candidate) => candidate.coordinate === coordinate) as Check;
  let done = false;
  return scanInBatches(db, check, { batchSize: 500, fix: true }, async (batch: Document[], report) => {
    const repairs = await check.check(batch, report);
    if (!done) {
      done = true;
      await between();
    }
    return repairs;
  });
}

async function run(query: string) {
  const result = await s.gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  return result.data;
}

it('bounded array: an edit of the comment the drifted array lacks, racing the fix, reaches the copy', async () => {
  const post = new ObjectId();
  const [c1, c2, c3] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('comments').insertMany([
    { _id: c1, postId: post, text: 'one', createdAt: 1 },
    { _id: c2, postId: post, text: 'two', createdAt: 2 },
    { _id: c3, postId: post, text: 'three', createdAt: 3 },
  ]);
  // Drift: the newest comment never reached the post's copy (a unit cut short without a transaction).
  await db.collection('posts').insertOne({ _id: post, title: 'p', recentComments: [{ _id: c2, postId: post, text: 'two', createdAt: 2 }, { _id: c1, postId: post, text: 'one', createdAt: 1 }] });

  const report = await fixWithWriteBetween('Post.recentComments', () => run(`mutation { updateComment(id: "${c3}", input: { text: "EDITED" }) { id } }`).then(() => undefined));
  expect(report.fixed).toBe(1);
  const stored = await db.collection('posts').findOne({ _id: post });
  const after = await reconcile(db, model);
  // The copy of c3 says EDITED, as c3 does; reconcile finds nothing left.
  expect({ copy: stored?.recentComments?.[0]?.text, drifted: after.drifted }).toEqual({ copy: 'EDITED', drifted: 0 });
});

it('bounded array: a delete of a comment the drifted array lacks, racing the fix, leaves no copy of the deleted comment', async () => {
  const post = new ObjectId();
  const [c1, c2, c3, c4] = [new ObjectId(), new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('comments').insertMany([
    { _id: c1, postId: post, text: 'one', createdAt: 1 },
    { _id: c2, postId: post, text: 'two', createdAt: 2 },
    { _id: c3, postId: post, text: 'secret', createdAt: 3 },
    { _id: c4, postId: post, text: 'four', createdAt: 4 },
  ]);
  // Drift: the array lacks c3; it holds what it will hold once c3 is deleted.
  const without = [c4, c2, c1].map((id, i) => ({ _id: id, postId: post, text: ['four', 'two', 'one'][i], createdAt: [4, 2, 1][i] }));
  await db.collection('posts').insertOne({ _id: post, title: 'p', recentComments: without });

  await fixWithWriteBetween('Post.recentComments', () => run(`mutation { deleteComment(id: "${c3}") }`).then(() => undefined));
  const stored = await db.collection('posts').findOne({ _id: post });
  const texts = (stored?.recentComments as Document[]).map((c) => c.text);
  const read = await run(`{ post(id: "${post}") { recentComments { text } } }`);
  // The deleted comment is nowhere: the fix's first write put it back, the second took it out.
  expect({ texts, read }).toEqual({ texts: ['four', 'two', 'one'], read: { post: { recentComments: [{ text: 'four' }, { text: 'two' }, { text: 'one' }] } } });
});

it('inverse: a task re-pointed back to the person whose list still (stale) held it, racing the fix, stays in the list', async () => {
  const [ann, bob, task] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('tasks').insertOne({ _id: task, description: 't', ownerId: bob });
  // Drift: Ann's list still holds the task (its $pull was lost); Bob's is right.
  await db.collection('people').insertMany([
    { _id: ann, name: 'Ann', taskIds: [task] },
    { _id: bob, name: 'Bob', taskIds: [task] },
  ]);
  await fixWithWriteBetween('Person.tasks', () => run(`mutation { reassignTask(taskId: "${task}", ownerId: "${ann}") { id } }`).then(() => undefined));
  const annDoc = await db.collection('people').findOne({ _id: ann });
  const after = await reconcile(db, model);
  // The task is Ann's again and her list says so.
  expect({ taskIds: (annDoc?.taskIds as ObjectId[]).map(String), drifted: after.drifted }).toEqual({ taskIds: [String(task)], drifted: 0 });
});

it('snapshot: a rename back to the value the drifted copy holds, racing the fix, stays in the copy', async () => {
  const [cy, note] = [new ObjectId(), new ObjectId()];
  // Drift: a rename Bo -> Cy wrote the person and was cut short before its fan-out (no transaction).
  await db.collection('people').insertOne({ _id: cy, name: 'Cy', taskIds: [] });
  await db.collection('notes').insertOne({ _id: note, writer: { id: cy, name: 'Bo' } });
  await fixWithWriteBetween('Note.writer', () => run(`mutation { updatePerson(id: "${cy}", input: { name: "Bo" }) { id } }`).then(() => undefined));
  const person = await db.collection('people').findOne({ _id: cy });
  const copy = (await db.collection('notes').findOne({ _id: note }))?.writer;
  // The copy says what the person says (Bo), not the name the fix read before the rename.
  expect({ person: person?.name, copy: copy?.name }).toEqual({ person: 'Bo', copy: 'Bo' });
});
