import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type Db } from 'mongodb';
import { buildWriteModel, objectIdArgument, reconcile, withDirectiveTypeDefs, type GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * `changeReference("Task.owner")` sets `ownerId` on the task and moves it between the people's inverse
 * arrays. A task is also copied whole into its project's bounded `recentTasks` (picked by projectId, not
 * by ownerId): the copy there must name the new owner too, in the same unit, in one command more, and
 * the estimate counts it. An array ordered by the re-pointed key is refused at startup.
 */
const typeDefs = /* GraphQL */ `
  type Query { project(id: ID!): Project @find  task(id: ID!): Task @find }
  type Mutation {
    createTask(input: TaskInput!): Task! @create
    "Hand-written: gives a task to another person (one changeReference, as the demo's reassignTask)."
    reassignTask(taskId: ID!, ownerId: ID!): Task!
  }
  type Person @collection(name: "people") {
    id: ID!
    name: String!
    tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
  }
  type Project @collection(name: "projects") {
    id: ID!
    title: String!
    tasks: [Task!]! @join(localField: "_id", foreignField: "projectId", sort: "-_id")
    recentTasks: [Task!]! @embedded @join(collection: "tasks", localField: "_id", foreignField: "projectId", sort: "-_id", limit: 3) @read(strategy: EMBEDDED)
  }
  type Task @collection(name: "tasks") {
    id: ID!
    description: String!
    owner: Person @join(localField: "ownerId")
    project: Project! @join(localField: "projectId")
  }
  input TaskInput { description: String! owner: ID project: ID! }
`;

async function reassignTask(_parent: unknown, args: { taskId: string; ownerId: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const id = objectIdArgument(args.taskId, 'taskId');
  await context.writes.run(info, (unit) => unit.changeReference('Task.owner', id, objectIdArgument(args.ownerId, 'ownerId')));
  return context.documents.findOne(info, 'Task', { _id: id });
}

let s: SdlGateway;
let db: Db;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'repoint_bounded',
    gateway: {
      resolvers: { Mutation: { reassignTask } },
      writePlans: { reassignTask: [{ kind: 'changeReference', coordinate: 'Task.owner' }] },
      onWarning: () => undefined,
    },
    prepare: async (fresh) => {
      for (const name of ['people', 'projects', 'tasks']) await fresh.createCollection(name);
      await fresh.collection('tasks').createIndex({ projectId: 1 });
      await fresh.collection('tasks').createIndex({ ownerId: 1 });
    },
  });
  db = s.mongo.client.db(s.db.databaseName);
}, 60_000);
afterAll(() => s?.stop());

it('re-pointing a task to another owner keeps its whole copy in the project\'s recentTasks true', async () => {
  const ann = new ObjectId();
  const bob = new ObjectId();
  const project = new ObjectId();
  await db.collection('people').insertMany([
    { _id: ann, name: 'Ann', taskIds: [] },
    { _id: bob, name: 'Bob', taskIds: [] },
  ]);
  await db.collection('projects').insertOne({ _id: project, title: 'Roof', recentTasks: [] });
  const created = await s.gateway.execute({ query: `mutation { createTask(input: { description: "fix", owner: "${ann}", project: "${project}" }) { id } }` });
  expect(created.errors).toBeUndefined();
  const task = (created.data as { createTask: { id: string } }).createTask.id;
  const model = buildWriteModel(withDirectiveTypeDefs([typeDefs]));
  expect((await reconcile(db, model)).drifted).toBe(0);

  const moved = await s.gateway.execute({ query: `mutation { reassignTask(taskId: "${task}", ownerId: "${bob}") { owner { name } } }` });
  expect(moved.errors).toBeUndefined();
  expect(moved.data).toEqual({ reassignTask: { owner: { name: 'Bob' } } });

  // The project's copy of the task names its new owner, as the task does.
  const read = await s.gateway.execute({ query: `{ project(id: "${project}") { recentTasks { id owner { name } } } }` });
  expect(read.errors).toBeUndefined();
  const report = await reconcile(db, model);
  expect({ read: read.data, drifted: report.drifted }).toEqual({ read: { project: { recentTasks: [{ id: task, owner: { name: 'Bob' } }] } }, drifted: 0 });
  // The task, the two people's inverse lists (one command), the project's copy; each estimated.
  expect(moved.cost?.writes).toMatchObject({ fanOut: { people: 2, projects: 1 }, atomic: true, attempts: 1 });
  expect(moved.cost?.estimateExceeded).toBeUndefined();
});

it('refuses at startup to re-point a reference that orders a bounded array of the document', async () => {
  const sorted = typeDefs.replace('sort: "-_id", limit: 3', 'sort: "ownerId", limit: 3');
  await expect(
    startSdlGateway({
      typeDefs: sorted,
      dbPrefix: 'repoint_sorted',
      gateway: { resolvers: { Mutation: { reassignTask } }, writePlans: { reassignTask: [{ kind: 'changeReference', coordinate: 'Task.owner' }] }, onWarning: () => undefined },
    }),
  ).rejects.toThrow(`Task.owner's key "ownerId" orders Project.recentTasks, and changeReference does not rebuild that array: its Tasks would stay in the old order; sort the array by another field, or replace the document (delete, then insert)`);
});
