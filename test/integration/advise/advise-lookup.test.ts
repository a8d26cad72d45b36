import { resolve } from 'node:path';
import { rootResolvers, rootWritePlans } from '../../../resolvers';
import { seedDemoData } from '../../../seed/seed-database';
import { DEMO_CONFIG, DEMO_DIR } from '../../support/demo-project';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { adviseAndReplay, type AdviceReplay } from './support/advise-replay';

/**
 * Issue 36 on the demo: a workload of the deep query (authors, their books, the books' publishers, a
 * few books of each publisher) recorded by join, advised for a database 10 ms away and for one beside
 * the gateway. At 10 ms each join's round trips are worth more MongoDB time than the copies a lookup
 * repeats, but under load only the copies' work counts against the commands' own: a join whose targets
 * parents share stays a join. Beside the database, there is nothing to save.
 */
const DEEP = '{ authors(first: 20) { name books { name publisher { name books(first: 3) { name } } } } }';
const JOINS = ['Author.books', 'Book.publisher', 'Publisher.books'];

let mongo: TestMongo;
const advised = new Map<number | 'measured', AdviceReplay>();
beforeAll(async () => {
  mongo = await startTestMongo();
  for (const [key, latencyMs, costs] of [[10, 10, 'assumed'], [0, 0, 'assumed'], ['measured', 10, 'measured']] as const) {
    advised.set(
      key,
      await adviseAndReplay(mongo, {
        schemaDir: resolve(DEMO_DIR, 'schema'),
        config: DEMO_CONFIG,
        resolvers: rootResolvers,
        writePlans: rootWritePlans,
        seed: async (db) => void (await seedDemoData(db, { scale: 0.1 })),
        operations: async () => Array.from({ length: 20 }, () => ({ query: DEEP })),
        latencyMs,
        costs,
      }),
    );
  }
}, 300_000);
afterAll(async () => {
  await mongo?.stop();
});

const adviceOf = (latencyMs: number | 'measured', coordinate: string) => advised.get(latencyMs)!.report.fields.find((field) => field.coordinate === coordinate)!;

it('at 10 ms a round trip, the deep query\'s joins save MongoDB time by lookup; the one without copies is advised', () => {
  for (const coordinate of ['Author.books', 'Publisher.books']) {
    const advice = adviceOf(10, coordinate);
    const priced = advice.kind === 'read-by-lookup' ? advice : advice.rejected!;
    expect(priced).toMatchObject({ kind: 'read-by-lookup', change: expect.stringContaining(`read ${coordinate} inside its parents' command (@read(strategy: LOOKUP))`) });
    // Each of the 20 queries sent one round trip for the field: 1,000 per 1,000 queries, none after.
    expect(priced.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 0 });
    // 20 round trips of 10 ms, and what each command did beyond the network (timed, or assumed): both saved.
    const saved = new RegExp(`^20 queries joined ${coordinate.replace('.', '\\.')} in 20 round trip\\(s\\), at 10 ms a round trip \\(--latency-ms; measured: [\\d.]+ ms\\) and ([\\d.]+) ms a command does beyond it \\([^)]+\\): ([\\d,.]+) ms saved$`).exec(priced.evidence[0]!);
    expect(saved).not.toBeNull();
    expect(Number(saved![2]!.replace(/,/g, ''))).toBeCloseTo(20 * (10 + Number(saved![1])), 0);
    const net = priced.effect.net!;
    expect(net.commandMsPer1000Operations.after).toBeLessThan(net.commandMsPer1000Operations.before);
  }
  expect(adviceOf(10, 'Publisher.books').kind).toBe('read-by-lookup');
  expect(advised.get(10)!.printed).toContain('Publisher.books: read-by-lookup');
});

it('not Author.books at this scale: its books are shared by authors, and under load their copies outweigh the commands the lookup removes', () => {
  const books = adviceOf(10, 'Author.books');
  expect(books.kind).toBe('keep');
  expect(books.rejected!.because).toMatch(/^under load it adds work: its copies and the lookups they carry take [\d,.]+ ms, more than the 10 ms its round trips' commands took beyond the network, so throughput would drop where MongoDB's CPU is what limits it \(the gateway's own work for the join, which a lookup also saves, is not priced\)$/);
  expect(books.rejected!.evidence[3]).toMatch(
    /^under load, where requests wait on CPU rather than on round trips, the copies \(each sent and decoded again\) and what they carry are [\d,.]+ ms of work; the round trips' commands did 10 ms beyond the network \(0\.5 ms each, assumed\)$/,
  );
});

it('not Book.publisher: each book would get its own copy of its publisher, and each copy the publisher\'s books looked up with it', () => {
  const publisher = adviceOf(10, 'Book.publisher');
  expect(publisher.kind).toBe('keep');
  expect(publisher.rejected).toMatchObject({ kind: 'read-by-lookup', because: expect.stringMatching(/^on the recorded workload it costs [\d,.]+ ms of MongoDB commands/) });
  // A book several authors share is one document in the books' command: its publisher is looked up once there.
  const joined = /^MongoDB joins each of the ([\d,]+) parent document\(s\) the join resolved on \(([\d,]+) resolves: a parent several others share is one document in its parents' command, joined once\), at 0\.02 ms each \(assumed\): [\d,.]+ ms$/.exec(publisher.rejected!.evidence[1]!);
  expect(joined).not.toBeNull();
  const [documents, resolves] = [joined![1]!, joined![2]!].map((figure) => Number(figure.replaceAll(',', '')));
  expect(documents).toBeLessThan(resolves!);
  expect(publisher.rejected!.evidence[2]).toMatch(
    /^the join read [\d,]+ document\(s\) for the about [\d,]+ key\(s\) its parent documents hold \(its [\d,]+ key\(s\) over its resolves, per parent document\): a lookup sends [\d,]+ more \(a document several parents share, once per parent\), at 0\.04 ms each: [\d,.]+ ms$/,
  );
  expect(publisher.rejected!.evidence[3]).toMatch(/^each copy runs the lookups advised on Publisher and its elements that the join's reads selected again \(1 join\(s\) per copy\), and carries the 3 document\(s\) they bring: [\d,]+ more parent\(s\) joined and [\d,]+ more document\(s\), [\d,.]+ ms$/);
});

it('beside the database (0 ms) no lookup is considered', () => {
  for (const coordinate of JOINS) {
    const advice = adviceOf(0, coordinate);
    expect(advice.kind).not.toBe('read-by-lookup');
    expect(advice.rejected?.kind).not.toBe('read-by-lookup');
  }
});

it('at measured costs, advise prices a parent and a copy at what it timed on the server: the largest collection a lookup reads', () => {
  const books = adviceOf('measured', 'Author.books');
  const evidence = (books.kind === 'read-by-lookup' ? books.evidence : books.rejected!.evidence)[1]!;
  // The probe reads the largest collection any of the schema's joins could look into (the demo's log messages); each copy is priced by the bytes the join's replies took per book.
  // Unless the timer could not tell the probe's reads apart on a busy machine: then advise says so and prices from the recorded reads.
  expect(evidence).toMatch(
    /^MongoDB joins each of the [\d,]+ parent document\(s\) the join resolved on, at [\d.]+ ms each \((as advise timed reads of logMessages; a copy's [\d,]+ bytes as the join's replies took|a copy at the recorded reads' time per document, a parent assumed)\): [\d,.]+ ms$/,
  );
});
