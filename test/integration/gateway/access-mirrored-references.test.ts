import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * An @inverse list is a second copy of the reference it mirrors: `Person.tasks` names, on each person,
 * the tasks whose `Task.owner` is that person. A role that may not read `Task.owner` has the list hidden
 * with it, whichever strategy reads it, and so every other field reading the same array: an alias of
 * it, a second join by it, a filter by it, an aggregate over the list.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    people(first: Int = 20, task: ID @filter(field: "taskKeys", op: EQ)): [Person!]! @list(sort: "name")
    tasks(first: Int = 20): [Task!]! @list(sort: "title")
  }
  type Person @collection(name: "people") @access(roles: ["member", "admin", "teammate"], allow: [READ]) {
    id: ID!
    name: String!
    tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
    tasksAggregate: TaskAggregate! @aggregate(of: "tasks")
    taskKeys: [ID!]! @path(path: "taskIds")
    assigned: [Task!]! @join(localField: "taskIds")
  }
  type Task
    @collection(name: "tasks")
    @access(roles: ["member"], allow: [READ], hide: ["owner"])
    @access(roles: ["admin"], allow: [READ])
    @access(roles: ["teammate"], allow: [READ], where: [{ field: "team", claim: "team" }]) {
    id: ID!
    title: String!
    team: String!
    owner: Person @join(localField: "ownerId")
  }
`;
const viewer = (role: string): Viewer => ({ role, roles: [role], anonymous: false, subject: 'someone', claims: { sub: 'someone' } });
const ann = new ObjectId();
const bob = new ObjectId();
const annsTask = new ObjectId();
const bobsTask = new ObjectId();

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_mirrored',
    prepare: async (db) => {
      await db.collection('people').insertMany([
        { _id: ann, name: 'Ann', taskIds: [annsTask] },
        { _id: bob, name: 'Bob', taskIds: [bobsTask] },
      ]);
      await db.collection('tasks').insertMany([
        { _id: annsTask, title: 'budget', ownerId: ann, team: 'finance' },
        { _id: bobsTask, title: 'hiring', ownerId: bob, team: 'people' },
      ]);
      await db.collection('people').createIndex({ name: 1, _id: 1 });
      await db.collection('people').createIndex({ taskIds: 1, name: 1, _id: 1 });
      await db.collection('tasks').createIndex({ title: 1, _id: 1 });
      await db.collection('tasks').createIndex({ ownerId: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

async function answer(query: string, role: string | Viewer, strategyHeader?: string) {
  const result = await subject.gateway.execute({ query }, { viewer: typeof role === 'string' ? viewer(role) : role, ...(strategyHeader && { strategyHeader }) });
  return { data: result.data, errors: result.errors?.map((error) => ({ message: error.message, code: error.extensions?.code })), roundTrips: result.cost?.roundTrips };
}

const refused = (message: string) => ({ data: undefined, errors: [{ message, code: 'FORBIDDEN' }], roundTrips: 0 });
const refusedList = refused('Person.tasks is hidden from role "member": it mirrors Task.owner, which the role may not read');

it('a role that may not read the reference may not read the @inverse list that mirrors it, by join or by lookup, before anything is sent', async () => {
  expect(await answer('{ people { name tasks { title } } }', 'member')).toEqual(refusedList);
  expect(await answer('{ people { name tasks { title } } }', 'member', 'Person.tasks=lookup')).toEqual(refusedList);
  expect(await answer('{ people { tasks { id } } }', 'member')).toEqual(refusedList);
  expect(await answer('{ people { tasksAggregate { count } } }', 'member')).toEqual(refused('Person.tasksAggregate adds up Person.tasks, which is hidden from role "member"'));
});

it('nor any other field that reads the same array: an alias, a second join, a filter by it', async () => {
  expect(await answer('{ people { taskKeys } }', 'member')).toEqual(refused('Person.taskKeys reads Person.tasks, which is hidden from role "member"'));
  expect(await answer('{ people { assigned { title } } }', 'member')).toEqual(refused('Person.assigned joins by Person.tasks, which is hidden from role "member"'));
  expect(await answer(`{ people(task: "${bobsTask.toHexString()}") { name } }`, 'member')).toEqual(refused('Query.people(task:) filters by Person.tasks, which is hidden from role "member"'));
  expect(await answer(`{ people(task: "${bobsTask.toHexString()}") { name taskKeys } }`, 'admin')).toEqual({ data: { people: [{ name: 'Bob', taskKeys: [bobsTask.toHexString()] }] }, errors: undefined, roundTrips: 1 });
});

it('the role still reads the rest: the people, and the tasks by the root list', async () => {
  expect(await answer('{ people { name } tasks { title } }', 'member')).toEqual({
    data: { people: [{ name: 'Ann' }, { name: 'Bob' }], tasks: [{ title: 'budget' }, { title: 'hiring' }] },
    errors: undefined,
    roundTrips: 2,
  });
});

it('a role that reads the reference reads the list', async () => {
  expect(await answer('{ people { name tasks { title } } }', 'admin')).toEqual({
    data: { people: [{ name: 'Ann', tasks: [{ title: 'budget' }] }, { name: 'Bob', tasks: [{ title: 'hiring' }] }] },
    errors: undefined,
    roundTrips: 2,
  });
});

describe('a role that reads the mirrored type only in part', () => {
  // Another team's creates put their tasks' ids in the array: joined, the list is filtered; as it is stored, it is not.
  const teammate: Viewer = { role: 'teammate', roles: ['teammate'], anonymous: false, subject: 'someone', claims: { sub: 'someone', team: 'finance' } };
  const inPart = (verb: string) => `${verb} "taskIds", the array Person.tasks keeps of Task.owner, whose Task documents role "teammate" reads only in part`;

  it('reads the list and a second join by the array through its filter', async () => {
    expect(await answer('{ people { name tasks { title } assigned { title } } }', teammate)).toEqual({
      data: { people: [{ name: 'Ann', tasks: [{ title: 'budget' }], assigned: [{ title: 'budget' }] }, { name: 'Bob', tasks: [], assigned: [] }] },
      errors: undefined,
      roundTrips: 2,
    });
  });

  it('may not read the array as it is stored, nor filter by it: it holds the ids of every team\'s tasks', async () => {
    expect(await answer('{ people { name taskKeys } }', teammate)).toEqual(refused(`Person.taskKeys ${inPart('reads')}`));
    expect(await answer(`{ people(task: "${bobsTask.toHexString()}") { name } }`, teammate)).toEqual(refused(`Query.people(task:) ${inPart('filters by')}`));
  });
});
