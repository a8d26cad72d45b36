import type { Db } from 'mongodb';
import { buildWriteModel, reconcile, withDirectiveTypeDefs, type ExecutedOperation, type Gateway } from 'docjoin';
import { serverSupportsTransactions } from './support/expected-writes';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

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

let fixture: SdlGateway;
let db: Db;
let gateway: Gateway;
let commit: number;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'generated_writes',
    async prepare(fresh) {
      await fresh.createCollection('people');
      await fresh.createCollection('tasks');
      await fresh.collection('tasks').createIndex({ ownerId: 1 });
    },
  });
  ({ db, gateway } = fixture);
  commit = (await serverSupportsTransactions(fixture.mongo.client)) ? 1 : 0;
}, 60_000);
afterAll(() => fixture?.stop());

/**
 * Runs `query`; a mutation sends what its estimate counts, less one read for each join under it whose
 * document a write returned (`answeredByWrites`): the estimate cannot know which document a resolver
 * returns, so it counts that join's read.
 */
async function run(query: string, answeredByWrites = 0): Promise<ExecutedOperation> {
  const result = await gateway.execute({ query }, { costHeader: 'commands' });
  expect(result.errors).toBeUndefined();
  if (query.startsWith('mutation')) expect([query, result.cost!.estimatedRoundTrips - answeredByWrites]).toEqual([query, result.cost?.roundTrips]);
  return result;
}

it('a create starts the derived values true and feeds the inverse side and its counter; deletes undo it', async () => {
  const person = await run('mutation { createPerson(input: { name: "Ada" }) { id name taskCount } }');
  const { id: ada } = (person.data as { createPerson: { id: string } }).createPerson;
  expect(person.data).toEqual({ createPerson: { id: ada, name: 'Ada', taskCount: 0 } });
  expect((await run(`{ person(id: "${ada}") { tasks { title } } }`)).data).toEqual({ person: { tasks: [] } });
  expect(person.cost?.writes).toMatchObject({ roundTrips: 1 + commit, documentsModified: 1 });

  const task = await run(`mutation { createTask(input: { title: "Notes", owner: "${ada}" }) { id owner { name taskCount } } }`, 1);
  const { id: notes } = (task.data as { createTask: { id: string } }).createTask;
  expect(task.data).toEqual({ createTask: { id: notes, owner: { name: 'Ada', taskCount: 1 } } });
  // The owner read, the insert, the owner's taskIds and taskCount in one statement (a findAndModify
  // returning the owner's name and taskCount, so the owner join reads nothing), the commit.
  expect(task.cost?.writes).toMatchObject({ roundTrips: 3 + commit, documentsModified: 2, fanOut: { tasks: 1, people: 1 } });
  expect(task.cost?.fields['Task.owner']).toMatchObject({ strategy: 'join', roundTrips: 0, documents: 0 });
  expect(task.cost!.commands!.find((command) => command.command === 'findAndModify')).toMatchObject({ collection: 'people', filter: { _id: '?' }, fields: ['Mutation.createTask'], documents: 1 });
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
