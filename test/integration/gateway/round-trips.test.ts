import type { ObjectId } from 'mongodb';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/**
 * The round trips issue 3 pins, on the demo data at scale 1. Expected document counts are computed
 * from the data with the driver, so every number below is exact.
 */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

const db = () => demo.mongo.client.db(demo.dbName);
const hex = (id: ObjectId) => id.toHexString();

async function run(query: string, strategyHeader?: string) {
  const result = await demo.gateway.execute({ query }, { strategyHeader });
  expect(result.errors).toBeUndefined();
  return { data: result.data as Record<string, unknown>, cost: result.cost! };
}

async function firstBooks(n: number) {
  return db().collection('books').find({}, { sort: { _id: 1 }, limit: n }).toArray();
}

describe('pinned round trips (scale 1)', () => {
  it('books with publisher and snapshot authors: exactly 2', async () => {
    const books = await firstBooks(50);
    const publishers = new Set(books.map((book) => hex(book.publisherId)));
    const authorEntries = books.reduce((sum, book) => sum + book.authors.length, 0);

    const { data, cost } = await run('{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }');
    expect(cost.roundTrips).toBe(2);
    expect(cost.collections).toEqual({ books: { roundTrips: 1, documents: 50 }, publishers: { roundTrips: 1, documents: publishers.size } });
    expect(cost.fields).toEqual({
      'Book.authors': { strategy: 'snapshot', roundTrips: 0, documents: 0, keys: 0, snapshotHits: authorEntries, snapshotMisses: 0 },
      'Book.publisher': { strategy: 'join', roundTrips: 1, documents: publishers.size, keys: 50 },
    });
    const first = (data.books as Array<{ name: string; authors: unknown[] }>)[0]!;
    expect(first.name).toBe(books[0]!.name);
    expect(first.authors).toEqual(books[0]!.authors.map((a: { name: string; thumbnailUrl: string }) => ({ name: a.name, thumbnailUrl: a.thumbnailUrl })));
  });

  it('the same with authors { name countOfBooks }: 3 (the snapshot misses, one batched join)', async () => {
    const books = await firstBooks(50);
    const authorEntries = books.flatMap((book) => book.authors.map((a: { id: ObjectId }) => hex(a.id)));
    const { cost } = await run('{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }');
    expect(cost.roundTrips).toBe(3);
    expect(cost.collections.authors).toEqual({ roundTrips: 1, documents: new Set(authorEntries).size });
    expect(cost.fields['Book.authors']).toEqual({
      strategy: 'snapshot',
      roundTrips: 1,
      documents: new Set(authorEntries).size, // each distinct author is fetched once
      keys: authorEntries.length,
      snapshotHits: 0,
      snapshotMisses: authorEntries.length,
    });
  });

  it('people with holdings.stock and tasks.owner: 4', async () => {
    // people (1) → stocks by _id (1) and tasks by _id (1), in the same tick → task owners by _id (1).
    // The owners are people already loaded by the root list, but that list fetched only holdings and
    // taskIds, not lastName, so the primed copies don't cover the owner selection: one more query.
    const { cost } = await run('{ people(first: 100) { holdings { stock { symbol } } tasks { description owner { lastName } } } }');
    expect(cost.roundTrips).toBe(4);
    expect(Object.fromEntries(Object.entries(cost.collections).map(([name, c]) => [name, c.roundTrips]))).toEqual({ people: 2, stocks: 1, tasks: 1 });
  });

  it('people whose root selection covers the owner: the owner join is served from the primed list', async () => {
    const people = await db().collection('people').find({}, { sort: { _id: 1 }, limit: 100 }).toArray();
    const ids = new Set(people.map((person) => hex(person._id)));
    const tasks = await db().collection('tasks').find({ _id: { $in: people.flatMap((person) => person.taskIds) } }).toArray();
    const ownersOutside = new Set(tasks.map((task) => hex(task.ownerId)).filter((owner) => !ids.has(owner)));

    const { cost } = await run('{ people(first: 100) { lastName tasks { owner { lastName } } } }');
    // Tasks and owners reference each other both ways, so every owner is one of these 100 people.
    expect(ownersOutside.size).toBe(0);
    // people (1) → tasks (1); the owners come from the primed root list: no second people query.
    expect(cost.roundTrips).toBe(2);
    expect(cost.collections).toEqual({ people: { roundTrips: 1, documents: 100 }, tasks: { roundTrips: 1, documents: tasks.length } });
    expect(cost.fields['Task.owner']).toEqual({ strategy: 'join', roundTrips: 0, documents: 0, keys: tasks.length });
  });

  it('hosts with logs(first: 5): 2 (one aggregate, a $unionWith branch per host, for all 20 hosts)', async () => {
    const { data, cost } = await run('{ hosts(first: 20) { name logs(first: 5) { message } } }');
    expect(cost.roundTrips).toBe(2);
    expect(cost.collections).toEqual({ hosts: { roundTrips: 1, documents: 20 }, logMessages: { roundTrips: 1, documents: 100 } });
    expect(cost.fields['Host.logs']).toEqual({ strategy: 'join', roundTrips: 1, documents: 100, keys: 20 });

    // Every host gets its own newest 5, in order (each host's branch, not 100 logs split arbitrarily).
    const hosts = await db().collection('hosts').find({}, { sort: { _id: 1 }, limit: 20 }).toArray();
    const expected = [];
    for (const host of hosts) {
      const newest = await db().collection('logMessages').find({ 'host.id': host._id }, { sort: { time: -1, _id: -1 }, limit: 5 }).toArray();
      expect(newest).toHaveLength(5);
      expected.push({ name: host.name, logs: newest.map((log) => ({ message: log.message })) });
    }
    expect(data.hosts).toEqual(expected);
  });

  it('posts with embedded recentComments: 1', async () => {
    const { cost } = await run('{ posts(first: 10) { recentComments { author } } }');
    expect(cost.roundTrips).toBe(1);
    expect(cost.fields).toEqual({ 'Post.recentComments': { strategy: 'embedded', roundTrips: 0, documents: 0, keys: 0 } });
  });
});

describe('loader behaviour on the demo data', () => {
  it('a join to documents the root list already fetched with the needed fields costs nothing', async () => {
    const covered = await run('{ hosts(first: 20) { name ipaddr logs(first: 3) { host { name ipaddr } } } }', 'LogMessage.host=join');
    expect(covered.cost.roundTrips).toBe(2);
    expect(covered.cost.fields['LogMessage.host']).toEqual({ strategy: 'join', roundTrips: 0, documents: 0, keys: 60 });
    // The root list lacks ipaddr here, so the primed copies don't satisfy the join: one more round trip.
    const uncovered = await run('{ hosts(first: 20) { name logs(first: 3) { host { name ipaddr } } } }', 'LogMessage.host=join');
    expect(uncovered.cost.roundTrips).toBe(3);
    expect(uncovered.cost.collections.hosts).toEqual({ roundTrips: 2, documents: 40 });
  });

  it('aliases of one join with different selections share one round trip (projections merged)', async () => {
    const books = await firstBooks(10);
    const { data, cost } = await run('{ books(first: 10) { publisher { name } p: publisher { location } } }');
    expect(cost.roundTrips).toBe(2);
    expect(cost.collections.publishers).toEqual({ roundTrips: 1, documents: new Set(books.map((b) => hex(b.publisherId))).size });
    const publisher = await db().collection('publishers').findOne({ _id: books[0]!.publisherId });
    expect((data.books as unknown[])[0]).toEqual({ publisher: { name: publisher!.name }, p: { location: publisher!.location } });
  });

  it('Post.recentComments in join mode and Post.comments(first: 3) share one aggregate', async () => {
    const { cost } = await run('{ posts(first: 10) { recentComments { author } comments(first: 3) { comment } } }', 'Post.recentComments=join');
    expect(cost.roundTrips).toBe(2);
    expect(cost.collections.comments!.roundTrips).toBe(1);
    expect(cost.fields['Post.recentComments']!.roundTrips).toBe(1);
    expect(cost.fields['Post.comments']!.roundTrips).toBe(1);
  });

  it("people's open tasks, soonest due first (issue 10): the filter and the order apply to the one batched read, still 2", async () => {
    const people = await db().collection('people').find({}, { sort: { _id: 1 }, limit: 100 }).toArray();
    const tasks = await db().collection('tasks').find({ _id: { $in: people.flatMap((person) => person.taskIds) } }).toArray();
    const { data, cost } = await run('{ people(first: 100) { tasks(done: false, orderBy: DUE) { description due } } }');
    expect(cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    const expected = people.map((person) => ({
      tasks: tasks
        .filter((task) => person.taskIds.some((id: ObjectId) => id.equals(task._id)) && task.done === false)
        .sort((a, b) => a.due.getTime() - b.due.getTime() || (hex(a._id) < hex(b._id) ? -1 : 1))
        .map((task) => ({ description: task.description, due: task.due.toISOString() })),
    }));
    expect(data).toEqual({ people: expected });
  });
});
