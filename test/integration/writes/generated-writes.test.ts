import type { Db, MongoClient } from 'mongodb';
import { buildWriteModel, connectMongo, createGateway, reconcile, withDirectiveTypeDefs, type ExecutedOperation, type Gateway } from 'docjoin';
import { serverSupportsTransactions } from './support/expected-writes';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/** Generated writes on a two-way reference with a counter of it: the inverse array and the count follow creates and deletes. */
const SDL = /* GraphQL */ `
  type Query { person(id: ID!): Person @find task(id: ID!): Task @find }
  type Mutation {
    createPerson(input: PersonInput!): Person! @create
    createTask(input: TaskInput!): Task! @create
    deleteTask(id: ID!): ID! @delete(type: "Task")
    deletePerson(id: ID!): Boolean! @delete(type: "Person")
  }
  type Person @collection(name: "people") {
    id: ID!
    name: String!
    tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
    taskCount: Int! @counter(of: "Person.tasks")
  }
  type Task @collection(name: "tasks") { id: ID! title: String! owner: Person @join(localField: "ownerId") }
  input PersonInput { name: String! }
  input TaskInput { title: String! owner: ID }
`;

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let gateway: Gateway;
let commit: number;
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('generated_writes');
  await db.createCollection('people');
  await db.createCollection('tasks');
  await db.collection('tasks').createIndex({ ownerId: 1 });
  client = await connectMongo(mongo.uri);
  gateway = await createGateway({ typeDefs: SDL, mongoClient: client, db: db.databaseName, listen: false });
  commit = (await serverSupportsTransactions(mongo.client)) ? 1 : 0;
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await mongo?.stop();
});

/** Runs `query`; a mutation's estimate must equal what it sent (its selections below read nothing the estimate cannot know). */
async function run(query: string): Promise<ExecutedOperation> {
  const result = await gateway.execute({ query });
  expect(result.errors).toBeUndefined();
  if (query.startsWith('mutation')) expect([query, result.cost?.estimatedRoundTrips]).toEqual([query, result.cost?.roundTrips]);
  return result;
}

it('a create starts the derived values true and feeds the inverse side and its counter; deletes undo it', async () => {
  const person = await run('mutation { createPerson(input: { name: "Ada" }) { id name taskCount } }');
  const { id: ada } = (person.data as { createPerson: { id: string } }).createPerson;
  expect(person.data).toEqual({ createPerson: { id: ada, name: 'Ada', taskCount: 0 } });
  expect((await run(`{ person(id: "${ada}") { tasks { title } } }`)).data).toEqual({ person: { tasks: [] } });
  expect(person.cost?.writes).toMatchObject({ roundTrips: 1 + commit, documentsModified: 1 });

  const task = await run(`mutation { createTask(input: { title: "Notes", owner: "${ada}" }) { id owner { name taskCount } } }`);
  const { id: notes } = (task.data as { createTask: { id: string } }).createTask;
  // The owner read, the insert, the owner's taskIds and taskCount in one statement, the commit.
  expect(task.cost?.writes).toMatchObject({ roundTrips: 3 + commit, documentsModified: 2, fanOut: { tasks: 1, people: 1 } });
  expect((await run(`{ person(id: "${ada}") { taskCount tasks { title } } }`)).data).toEqual({ person: { taskCount: 1, tasks: [{ title: 'Notes' }] } });

  const refused = await gateway.execute({ query: `mutation { deletePerson(id: "${ada}") }` });
  expect(refused.errors?.[0]?.message).toBe(`Person ${ada} is still referenced by tasks ${notes} at ownerId; delete or re-point those first`);

  const deleted = await run(`mutation { deleteTask(id: "${notes}") }`);
  expect(deleted.data).toEqual({ deleteTask: notes });
  // The task read, the delete, the owner's taskIds and taskCount, the commit (nothing references a task).
  expect(deleted.cost?.writes).toMatchObject({ roundTrips: 3 + commit, fanOut: { tasks: 1, people: 1 } });
  expect((await run(`{ person(id: "${ada}") { taskCount tasks { title } } }`)).data).toEqual({ person: { taskCount: 0, tasks: [] } });

  expect((await run(`mutation { deletePerson(id: "${ada}") }`)).data).toEqual({ deletePerson: true });
  expect((await reconcile(db, buildWriteModel(withDirectiveTypeDefs(SDL)))).drifted).toBe(0);
});

it('a delete of nothing is NOT_FOUND, with nothing written', async () => {
  const result = await gateway.execute({ query: 'mutation { deleteTask(id: "66f000000000000000000001") }' });
  expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect(result.cost?.writes).toMatchObject({ documentsModified: 0 });
});
