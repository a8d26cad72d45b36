import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeaderMap } from '@apollo/server';
import { BSON, ObjectId, type CommandStartedEvent, type CommandSucceededEvent, type Db, type MongoClient } from 'mongodb';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, readWorkload, STRATEGY_HEADER, type CostReport, type FieldWorkload, type Gateway, type GatewaySettings, type WorkloadSummary } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { asOnTheWire } from '../../support/reply-on-the-wire';
import { createCheckedGateway } from '../../support/checked-gateway';

/** Workload capture (issue 11, item 1) on a small inline schema: what a sequence of operations records, in a file and in a collection. */
const SDL = /* GraphQL */ `
  type Query { books(first: Int = 20, after: ID): [Book!]! @list }
  type Mutation { updateAuthor(id: ID!, input: AuthorPatch!): Author! @update }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
  }
  type Author @collection(name: "authors") { id: ID! name: String! born: Int! }
  input AuthorPatch { name: String born: Int }
`;

const ada = new ObjectId('66a000000000000000000001');
const alan = new ObjectId('66a000000000000000000002');

/** One step of the sequence: a query or mutation, and the strategy header it is sent with. */
interface Step {
  readonly query: string;
  readonly strategyHeader?: string;
}

const rename = (name: string): Step => ({ query: `mutation { updateAuthor(id: "${ada.toHexString()}", input: { name: "${name}" }) { name } }` });
const HITS: Step = { query: '{ books { title authors { name } } }' };
const FIRST_PART: readonly Step[] = [
  HITS,
  // born is not in the snapshot: a miss, for born.
  { query: '{ books { title authors { name born } } }' },
  // One alias fits the copy, the other misses for born.
  { query: '{ books { a: authors { name } b: authors { name born } } }' },
  { query: '{ books { authors { name } } }', strategyHeader: 'Book.authors=join' },
];
// Renamed and back, so that every gateway runs the sequence on the same data.
const SECOND_PART: readonly Step[] = [rename('Ada Lovelace'), HITS, rename('Ada')];

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let folder: string;
/** Bytes of the replies to the joins on authors (`_id: { $in }`), counted here from the client's own events. */
const joinBytes = { current: 0 };
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('workload');
  await db.collection('authors').insertMany([
    { _id: ada, name: 'Ada', born: 1815 },
    { _id: alan, name: 'Alan', born: 1912 },
  ]);
  await db.collection('books').insertMany([
    { _id: new ObjectId('66b000000000000000000001'), title: 'One', authors: [{ id: ada, name: 'Ada' }, { id: alan, name: 'Alan' }] },
    { _id: new ObjectId('66b000000000000000000002'), title: 'Two', authors: [{ id: ada, name: 'Ada' }] },
  ]);
  await db.collection('books').createIndex({ 'authors.id': 1 });
  client = await connectMongo(mongo.uri);
  const joins = new Set<string>();
  client.on('commandStarted', (event: CommandStartedEvent) => {
    const command = event.command as { find?: unknown; filter?: { _id?: { $in?: unknown } } };
    if (command.find === 'authors' && command.filter?._id?.$in !== undefined) joins.add(`${event.connectionId}:${event.requestId}`);
  });
  client.on('commandSucceeded', (event: CommandSucceededEvent) => {
    if (joins.delete(`${event.connectionId}:${event.requestId}`)) joinBytes.current += BSON.calculateObjectSize(asOnTheWire(event.reply as BSON.Document));
  });
  folder = mkdtempSync(join(tmpdir(), 'docjoin-workload-'));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function gatewayWith(workload: GatewaySettings['workload']): Promise<Gateway> {
  return createCheckedGateway({
    db: db.databaseName,
    mongoClient: client,
    ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
    typeDefs: SDL,
    listen: false,
    ...(workload && { workload }),
  });
}

/** What a run of steps answered (the whole body, as sent) and cost, and the join bytes per strategy of Book.authors. */
interface Run {
  readonly bodies: string[];
  readonly costs: CostReport[];
  readonly joinBytes: { snapshot: number; join: number };
}

async function run(gateway: Gateway, steps: readonly Step[]): Promise<Run> {
  const result: Run = { bodies: [], costs: [], joinBytes: { snapshot: 0, join: 0 } };
  for (const step of steps) {
    joinBytes.current = 0;
    const contextValue = gateway.createContext(step.strategyHeader === undefined ? {} : { strategyHeader: step.strategyHeader });
    const http = { method: 'POST', headers: new HeaderMap(step.strategyHeader === undefined ? [] : [[STRATEGY_HEADER, step.strategyHeader]]), search: '', body: {} };
    const response = await gateway.apollo.executeOperation({ query: step.query, http }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const body = response.body.singleResult;
    expect(body.errors).toBeUndefined();
    result.costs.push(body.extensions!.cost as CostReport);
    result.bodies.push(JSON.stringify(body));
    result.joinBytes[step.strategyHeader === undefined ? 'snapshot' : 'join'] += joinBytes.current;
  }
  return result;
}

function sum(costs: readonly CostReport[], type: 'query' | 'mutation') {
  const ofType = costs.filter((cost) => (cost.writes !== undefined) === (type === 'mutation'));
  return {
    count: ofType.length,
    roundTrips: ofType.reduce((total, cost) => total + cost.roundTrips, 0),
    documents: ofType.reduce((total, cost) => total + cost.documents, 0),
    bytes: ofType.reduce((total, cost) => total + cost.bytes, 0),
  };
}

/** The summary with each kind of command's summed time replaced by whether it is one (a fast command may take under the clock's resolution: 0 ms). */
type TimesChecked = Omit<WorkloadSummary, 'start' | 'end' | 'commands'> & { commands: Record<string, number | { commands: number; documents: number; timed: boolean }> };

function withTimesChecked({ commands, ...summary }: Omit<WorkloadSummary, 'start' | 'end'>): TimesChecked {
  const { operations, ...kinds } = commands;
  const checked: Record<string, { commands: number; documents: number; timed: boolean }> = Object.fromEntries(
    Object.entries(kinds).map(([kind, { ms, ...counts }]) => [kind, { ...counts, timed: counts.commands === 0 ? ms === 0 : Number.isFinite(ms) && ms >= 0 }]),
  );
  return { ...summary, commands: { operations, ...checked } };
}

/** What the whole sequence must have recorded, its totals taken from the responses' own extensions.cost. */
function expectedWorkload(first: Run, second: Run): TimesChecked {
  const costs = [...first.costs, ...second.costs];
  const writes = costs.flatMap((cost) => (cost.writes ? [cost.writes] : []));
  const atomic = writes.every((cost) => cost.atomic);
  const none = { missing: [], missingOther: { operations: 0, misses: 0 }, snapshotHits: 0, snapshotMisses: 0, dangling: 0, selections: [], selectionsOther: 0 };
  const fields: FieldWorkload[] = [
    // The header's join: 2 books, 3 references, 2 distinct authors in one $in; its selection read `name`.
    // Its 3 references handed 3 documents to the books' resolves.
    { field: 'Book.authors', strategy: 'join', operations: 1, resolves: 2, parentDocuments: 2, roundTrips: 1, soleRoundTrips: 1, documents: 2, delivered: 3, bytes: first.joinBytes.join, keys: 3, ...none, selections: [{ fields: ['name'], operations: 1 }] },
    {
      field: 'Book.authors',
      strategy: 'snapshot',
      // HITS twice, the miss, the aliases (4 resolver calls: 2 books × 2 aliases).
      operations: 4,
      resolves: 2 + 2 + 4 + 2,
      // The aliases resolve it on the same 2 books, each alias apart (a lookup per alias page).
      parentDocuments: 2 + 2 + 4 + 2,
      roundTrips: 2,
      // Each miss's join was Book.authors' own command.
      soleRoundTrips: 2,
      documents: 2 + 2,
      delivered: 3 + 3,
      bytes: first.joinBytes.snapshot + second.joinBytes.snapshot,
      keys: 3 + 3,
      snapshotHits: 3 + 3 + 3,
      snapshotMisses: 3 + 3,
      dangling: 0,
      missing: [{ fields: ['born'], operations: 2, misses: 6 }],
      missingOther: { operations: 0, misses: 0 },
      selections: [],
      selectionsOther: 0,
    },
  ];
  return {
    windows: 2,
    operations: { query: sum(costs, 'query'), mutation: sum(costs, 'mutation') },
    fields,
    mutations: [
      {
        field: 'Mutation.updateAuthor',
        runs: 2,
        failed: 0,
        attempts: 2,
        roundTrips: writes.reduce((total, cost) => total + cost.roundTrips, 0),
        // Each rename: the author, and its copy in both books.
        documentsModified: 6,
        fanOut: [
          { collection: 'authors', documentsModified: 2 },
          { collection: 'books', documentsModified: 4 },
        ],
        atomicRuns: atomic ? 2 : 0,
        // Both renames changed Ada's name: one sampled source, changed twice.
        changes: [{ typeName: 'Author', fields: ['name'], documents: 2, sample: [{ id: BSON.EJSON.stringify({ id: ada }, { relaxed: false }), changes: 2 }] }],
        changesOther: 0,
        untrackedRuns: 0,
      },
    ],
    commands: {
      operations: costs.length,
      // The queries' finds (1 + 2 + 2 + 2, then 1) and each rename's read-back.
      reads: { commands: 10, documents: costs.reduce((total, cost) => total + cost.documents, 0), timed: true },
      // Each rename: Ada, then her copies in both books; and its commit, in a transaction.
      singleWrites: { commands: 2, documents: 2, timed: true },
      multiWrites: { commands: 2, documents: 4, timed: true },
      others: { commands: atomic ? 2 : 0, documents: 0, timed: true },
    },
  };
}

/** durationMs is the time MongoDB took, which differs from one run to the next; everything else must not. */
function withoutDurations(bodies: readonly string[]): string[] {
  return bodies.map((body) => body.replace(/"durationMs":[\d.]+/g, '"durationMs":0'));
}

describe('workload capture', () => {
  let off: Run[];
  beforeAll(async () => {
    const gateway = await gatewayWith(undefined);
    try {
      expect(gateway.workload).toBeUndefined();
      off = [await run(gateway, FIRST_PART), await run(gateway, SECOND_PART)];
    } finally {
      await gateway.stop();
    }
  });

  it('the sequence reads and writes what the expectations assume', () => {
    const [first, second] = off;
    expect(first!.costs.map((cost) => cost.fields['Book.authors'])).toEqual([
      { strategy: 'snapshot', roundTrips: 0, documents: 0, keys: 0, snapshotHits: 3, snapshotMisses: 0 },
      { strategy: 'snapshot', roundTrips: 1, documents: 2, keys: 3, snapshotHits: 0, snapshotMisses: 3 },
      { strategy: 'snapshot', roundTrips: 1, documents: 2, keys: 3, snapshotHits: 3, snapshotMisses: 3 },
      { strategy: 'join', roundTrips: 1, documents: 2, keys: 3 },
    ]);
    expect(second!.costs.map((cost) => cost.writes?.fanOut)).toEqual([{ authors: 1, books: 2 }, undefined, { authors: 1, books: 2 }]);
    expect(JSON.parse(second!.bodies[1]!).data.books[0].authors).toEqual([{ name: 'Ada Lovelace' }, { name: 'Alan' }]);
    expect(first!.joinBytes.snapshot).toBeGreaterThan(0);
    expect(first!.joinBytes.join).toBeGreaterThan(0);
  });

  it('to a file: one JSON line per flush, read back and summed to exact counts; the responses are those of a gateway without it', async () => {
    const file = join(folder, 'workload.jsonl');
    const gateway = await gatewayWith({ file });
    let first: Run;
    let second: Run;
    try {
      expect(gateway.settings.workload).toEqual({ file, flushIntervalMs: 60_000 });
      first = await run(gateway, FIRST_PART);
      await gateway.workload!.flush();
      second = await run(gateway, SECOND_PART);
    } finally {
      await gateway.stop(); // writes the second window
    }
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(withoutDurations([...first.bodies, ...second.bodies])).toEqual(withoutDurations([...off[0]!.bodies, ...off[1]!.bodies]));

    const { start, end, ...summary } = await readWorkload({ file });
    expect(withTimesChecked(summary)).toEqual(expectedWorkload(first, second));
    expect(start!.getTime()).toBeLessThanOrEqual(end!.getTime());
  });

  it('to a collection: one document per flush, read back and summed to the same counts', async () => {
    const gateway = await gatewayWith({ collection: 'docjoin_workload', flushIntervalMs: 3_600_000 });
    let first: Run;
    let second: Run;
    try {
      first = await run(gateway, FIRST_PART);
      await gateway.workload!.flush();
      await gateway.workload!.flush(); // nothing ran since: nothing written
      second = await run(gateway, SECOND_PART);
    } finally {
      await gateway.stop();
    }
    expect(withoutDurations([...first.bodies, ...second.bodies])).toEqual(withoutDurations([...off[0]!.bodies, ...off[1]!.bodies]));
    const stored = await db.collection('docjoin_workload').find().toArray();
    expect(stored.map((window) => [window.docjoinWorkload, window.start instanceof Date, window.operations.query.count, window.operations.mutation.count])).toEqual([
      [1, true, 4, 0],
      [1, true, 1, 2],
    ]);

    const { start, end, ...summary } = await readWorkload({ collection: 'docjoin_workload', db });
    expect(withTimesChecked(summary)).toEqual(expectedWorkload(first, second));
    expect(start).toEqual(stored[0]!.start);
    expect(end).toEqual(stored[1]!.end);
  });

  it('a file that cannot be written stops the start, naming the option', async () => {
    const file = join(folder, 'missing-folder', 'workload.jsonl');
    await expect(gatewayWith({ file })).rejects.toThrow(`option workload: cannot write to file ${file}: ENOENT`);
  });
});
