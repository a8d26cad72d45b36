import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type Db } from 'mongodb';
import { objectIdArgument, type Gateway, type GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A write unit refuses a call its mutation's write plan does not declare, before it sends anything:
 * startup checks what a plan declares (a snapshot reference is never re-pointed: its copy would keep the
 * old target's values), so a resolver re-pointing another reference than its plan names would skip it.
 */
const SDL = /* GraphQL */ `
  type Query { task(id: ID!): Task @find }
  type Mutation { moveTask(id: ID!, to: ID!): Task  createTask(input: TaskInput!): Task! @create  countPeople(ids: [ID!]!): Int! }
  input TaskInput { title: String!, owner: ID, project: ID }
  type Task @collection(name: "tasks") {
    id: ID!
    title: String!
    owner: Person @snapshot(path: "owner", fields: ["id", "name"]) @join(localField: "owner.id") @read(strategy: SNAPSHOT)
    project: Project @join(localField: "projectId")
  }
  type Person @collection(name: "people") { id: ID! name: String! }
  type Project @collection(name: "projects") { id: ID! name: String! }
`;
const ann = { _id: new ObjectId('6955b90000000000000000a1'), name: 'Ann' };
const bob = { _id: new ObjectId('6955b90000000000000000a2'), name: 'Bob' };
const project = { _id: new ObjectId('6955b90000000000000000d1'), name: 'Docs' };
const task = { _id: new ObjectId('6955b90000000000000000b1'), title: 'Write', owner: { id: ann._id, name: 'Ann' }, projectId: project._id };

async function moveTask(_parent: unknown, args: { id: string; to: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const id = objectIdArgument(args.id, 'id');
  // The plan says Task.project; the resolver (a copy-paste slip) re-points Task.owner.
  await context.writes.run(info, (unit) => unit.changeReference('Task.owner', id, objectIdArgument(args.to, 'to')));
  return context.documents.findOne(info, 'Task', { _id: id });
}

async function countPeople(_parent: unknown, args: { ids: string[] }, context: GatewayContext, info: GraphQLResolveInfo) {
  const ids = args.ids.map((id) => objectIdArgument(id, 'ids'));
  return context.writes.run(info, async (unit) => (await unit.requireMany('Person', ids, ['name'])).length);
}

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'undeclared_write',
    prepare: async (fresh) => {
      await fresh.collection('people').insertMany([ann, bob]);
      await fresh.collection('tasks').insertOne(task);
      await fresh.collection('projects').insertOne(project);
    },
    gateway: {
      resolvers: { Mutation: { moveTask, countPeople } },
      writePlans: { moveTask: [{ kind: 'changeReference', coordinate: 'Task.project' }], countPeople: [{ kind: 'requireMany', typeName: 'Person', maxKeys: 1 }] },
      onWarning: () => undefined,
    },
  });
  ({ db, gateway } = fixture);
}, 60_000);
afterAll(() => fixture?.stop());

it('refuses a re-point of a reference the plan does not name (a snapshot one, which a plan may not re-point), nothing written', async () => {
  const result = await gateway.execute({ query: `mutation { moveTask(id: "${task._id.toHexString()}", to: "${bob._id.toHexString()}") { owner { id name } } }` });
  const stored = await db.collection('tasks').findOne({ _id: task._id });
  // Expected: refused (the unit departs from its plan), the copy untouched.
  expect({ errors: result.errors?.map((error) => error.message), owner: stored!.owner }).toEqual({
    errors: ["Mutation.moveTask: its write unit calls changeReference('Task.owner'), which its write plan does not declare; add it to the plan (writePlans), where startup checks what it may write"],
    owner: { id: ann._id, name: 'Ann' },
  });
});

it('refuses a requireMany of more keys than the plan priced, before it reads', async () => {
  const count = (ids: ObjectId[]) => gateway.execute({ query: `mutation { countPeople(ids: ${JSON.stringify(ids.map((id) => id.toHexString()))}) }` });
  expect((await count([ann._id])).data).toEqual({ countPeople: 1 });
  const over = await count([ann._id, bob._id]);
  expect([over.errors?.map((error) => error.message), over.cost?.roundTrips]).toEqual([
    ["Mutation.countPeople: its write unit calls requireMany('Person') of 2 ids, which its write plan does not declare; add it to the plan (writePlans), where startup checks what it may write"],
    0,
  ]);
});
