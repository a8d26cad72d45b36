import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectId } from 'mongodb';
import { connectMongo } from 'docjoin';
import { runAdviseCli } from '../../../src/advise/cli';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { readWorkload } from '../../../src/gateway/workload/read-workload';
import type { WorkloadSummary } from '../../../src/gateway/workload/workload-types';
import { backfillCopies, checkBackfill, reconcileBackfill } from '../../../src/migrate/backfill-copies';
import type { AdviceReport, FieldAdvice } from '../../../src/advise/recommend/advice-types';
import { DEMO_CONFIG, demoProjectOptions } from '../../support/demo-project';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * `docjoin advise` on the demo after a recorded workload (issue 11's proof on real shapes): reads that
 * miss Book.authors' snapshot for countOfBooks, host renames that rewrite every LogMessage.host copy, and
 * a person whose embedded addresses grew without bound.
 */
const BOOK_READS = 40;
const BOOK_QUERY = '{ books(first: 10) { name authors { name countOfBooks } } }';
const HOST_QUERY = '{ hosts(first: 2) { logs(first: 5) { message host { name } } } }';
const HOST_READS = 3;
const HOST_RENAMES = 10;

let demo: DemoGateway;
let folder: string;
let report: AdviceReport;
let recorded: WorkloadSummary;
let printed: string;
let longestAddresses: number;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'docjoin-advise-'));
  const workload = join(folder, 'workload.jsonl');
  // Scale 0.1: 100 books, 10 hosts of 1,000 log messages each, 50 people.
  demo = await startDemoGateway({ scale: 0.1, env: { DOCJOIN_WORKLOAD: `file:${workload}` } });
  const db = demo.client.db(demo.dbName);
  for (let i = 0; i < BOOK_READS; i++) {
    const { errors } = await demo.gateway.execute({ query: BOOK_QUERY });
    expect(errors).toBeUndefined();
  }
  for (let i = 0; i < HOST_READS; i++) await demo.gateway.execute({ query: HOST_QUERY });
  const hosts = await db.collection('hosts').find({}, { projection: { _id: 1, ipaddr: 1 } }).limit(HOST_RENAMES).toArray();
  for (const [i, host] of hosts.entries()) {
    const { errors } = await demo.gateway.execute({
      query: 'mutation($id: ID!, $name: String!, $ipaddr: String!) { updateHost(id: $id, name: $name, ipaddr: $ipaddr) { name } }',
      variables: { id: String(host._id), name: `renamed-${i}.example.com`, ipaddr: String(host.ipaddr) },
    });
    expect(errors).toBeUndefined();
  }
  // One person's addresses grew without bound.
  const person = (await db.collection('people').findOne({}, { projection: { _id: 1, addresses: 1 } }))!;
  longestAddresses = (person.addresses as unknown[]).length + 300;
  const addresses = Array.from({ length: 300 }, (_, i) => ({ street: `${i} Main Street`, city: 'Springfield', country: 'US', kind: 'HOME' }));
  await db.collection('people').updateOne({ _id: person._id as ObjectId }, { $push: { addresses: { $each: addresses } } } as never);
  // Stopping the gateway flushes what it recorded.
  await demo.gateway.stop();

  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdviseCli(
    ['--workload', workload, '--mongo-uri', demo.mongo.uri, '--db', demo.dbName, '--config', DEMO_CONFIG, '--json', join(folder, 'advice.json')],
    {},
    { out: { write: (text: string) => out.push(text) }, err: { write: (text: string) => err.push(text) } },
  );
  expect(err).toEqual([]);
  expect(code).toBe(0);
  printed = out.join('');
  report = (JSON.parse(readFileSync(join(folder, 'advice.json'), 'utf8')) as { advice: AdviceReport }).advice;
  recorded = await readWorkload({ file: workload });
}, 180_000);
afterAll(async () => {
  await demo?.client.close();
  await demo?.mongo.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const field = (coordinate: string): FieldAdvice => report.fields.find((entry) => entry.coordinate === coordinate)!;

it('counts the recorded workload', () => {
  expect(report.workload).toEqual({ queries: BOOK_READS + HOST_READS, mutations: HOST_RENAMES });
});

it('advises adding countOfBooks to Book.authors, with the round trips it saves', () => {
  const authors = field('Book.authors');
  expect(authors).toMatchObject({ kind: 'widen-snapshot', change: "add countOfBooks to the snapshot's fields", snapshotFields: ['id', 'name', 'thumbnailUrl', 'countOfBooks'] });
  // Every book read joined authors once for countOfBooks: 40 round trips in 43 queries, none after.
  expect(authors.effect.roundTripsPer1000Queries).toEqual({ before: 930.2, after: 0 });
  expect(authors.evidence[0]).toMatch(/^40 of 40 queries reading Book\.authors missed the snapshot for countOfBooks \(\d+ copies fetched by the join\)$/);
});

it('advises against the LogMessage.host snapshot, with its write amplification (1,000 copies per rename)', () => {
  const host = field('LogMessage.host');
  expect(host.kind).toBe('drop-snapshot');
  // Each updateHost wrote the host and its 1,000 messages: 1,001 documents; without the copies, 1.
  expect(host.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1_001_000, after: 1000 });
  expect(host.evidence[0]).toBe(`${HOST_RENAMES} mutation(s) rewrote ${(HOST_RENAMES * 1000).toLocaleString('en')} logMessages copies of hosts documents (1,000 per mutation)`);
});

it('flags the unbounded embedded array and advises bounding it', () => {
  const addresses = field('Person.addresses');
  expect(addresses).toMatchObject({ kind: 'bound-array', suggestedLimit: 20, antiPatterns: ['unbounded-array'] });
  expect(addresses.evidence[0]).toMatch(new RegExp(` ${longestAddresses} at most, in 50 sampled parents$`));
});

it('keeps what nothing argues against, and prints the advice for a person', () => {
  expect(field('Book.publisher').kind).toBe('keep');
  expect(printed).toContain('Book.authors: widen-snapshot\n');
  expect(printed).toContain('  advice:  add countOfBooks to the snapshot\'s fields\n');
  expect(printed).toMatch(/\n\d+ relation fields: /);
});

it('refuses a database holding none of the schema\'s collections, naming the server\'s databases, instead of advising on nothing', async () => {
  const err: string[] = [];
  const code = await runAdviseCli(['--mongo-uri', demo.mongo.uri, '--db', 'nosuchdb', '--config', DEMO_CONFIG], {}, { out: { write: () => undefined }, err: { write: (text: string) => err.push(text) } });
  expect(code).toBe(1);
  expect(err.join('')).toMatch(new RegExp(`^advise: database "nosuchdb" has none of the schema's \\d+ collections \\(.*\\)\\. This server has: .*\\b${demo.dbName}\\b.*\\. Set the database \\(MONGODB_DB, --db, or mongodb\\.db in the config\\), or load data \\(docjoin seed\\)\\n$`));
});

it('refuses, before sampling, a --json file in a folder that does not exist', async () => {
  const err: string[] = [];
  const code = await runAdviseCli(['--mongo-uri', demo.mongo.uri, '--db', demo.dbName, '--json', '/no/such/folder/advice.json', '--config', DEMO_CONFIG], {}, { out: { write: () => undefined }, err: { write: (text: string) => err.push(text) } });
  expect([code, err.join('')]).toEqual([2, 'advise: --json /no/such/folder/advice.json: its folder /no/such/folder does not exist\n']);
});

it('refuses a workload collection the database does not have, instead of advising on no workload', async () => {
  const err: string[] = [];
  const code = await runAdviseCli(['--mongo-uri', demo.mongo.uri, '--db', demo.dbName, '--workload-collection', 'docjoin_workloda', '--config', DEMO_CONFIG], {}, { out: { write: () => undefined }, err: { write: (text: string) => err.push(text) } });
  expect([code, err.join('')]).toEqual([1, `advise: ${demo.dbName} on ${demo.mongo.uri} has no collection "docjoin_workloda" to read a recorded workload from; name the collection the gateway's workload option records to\n`]);
});

it('refuses a workload file it cannot read, or one holding no window yet, in one line, instead of advising as if on a workload', async () => {
  const adviseOn = async (workload: string) => {
    const err: string[] = [];
    const code = await runAdviseCli(['--workload', workload, '--mongo-uri', demo.mongo.uri, '--db', demo.dbName, '--config', DEMO_CONFIG], {}, { out: { write: () => undefined }, err: { write: (text: string) => err.push(text) } });
    return [code, err.join('')];
  };
  const empty = join(folder, 'empty.jsonl');
  writeFileSync(empty, '');
  expect(await adviseOn(join(folder, 'missing.jsonl'))).toEqual([1, `advise: cannot read the workload file ${join(folder, 'missing.jsonl')} (ENOENT)\n`]);
  expect(await adviseOn(folder)).toEqual([1, `advise: cannot read the workload file ${folder} (EISDIR)\n`]);
  expect(await adviseOn(empty)).toEqual([
    1,
    `advise: the workload in ${empty} holds no window yet: the gateway records one per flush interval of its workload option; serve traffic with it on first, or turn it off (no --workload, DOCJOIN_WORKLOAD=off) for advice from the data alone\n`,
  ]);
});

it('warns, naming them, of recorded fields the schema has no relation or aggregate field for: a workload recorded against another schema', async () => {
  const recordedFile = join(folder, 'workload.jsonl');
  const renamed = join(folder, 'renamed.jsonl');
  const text = readFileSync(recordedFile, 'utf8');
  expect(text).toContain('"Host.logs"');
  writeFileSync(renamed, text.replaceAll('"Host.logs"', '"Host.entries"'));
  const adviseOn = async (workload: string) => {
    const err: string[] = [];
    const code = await runAdviseCli(['--workload', workload, '--mongo-uri', demo.mongo.uri, '--db', demo.dbName, '--config', DEMO_CONFIG], {}, { out: { write: () => undefined }, err: { write: (text: string) => err.push(text) } });
    return [code, err.join('')];
  };
  expect(await adviseOn(renamed)).toEqual([
    0,
    'advise: the workload reads 1 field(s) this schema has no relation or aggregate field for (Host.entries): it was recorded against another schema, or before a change to this one; their reads are left out of the advice\n',
  ]);
  // An @aggregate field is the schema's own: its reads are what counter and total advice is drawn from.
  const aggregated = join(folder, 'aggregated.jsonl');
  writeFileSync(aggregated, text.replaceAll('"Host.logs"', '"Post.commentsAggregate"'));
  expect(await adviseOn(aggregated)).toEqual([0, '']);
});

it('predicts within 20% the query round trips measured once Book.authors copies countOfBooks', async () => {
  const authors = field('Book.authors');
  const before = (recorded.operations.query.roundTrips / recorded.operations.query.count) * 1000;
  const predicted = before - (authors.effect.roundTripsPer1000Queries!.before - authors.effect.roundTripsPer1000Queries!.after);
  // The change applied as docjoin migrate applies it: the SDL copies the advised fields, and its backfill fills the copies.
  const { typeDefs, ...project } = demoProjectOptions();
  const widened = typeDefs.map((sdl) => sdl.replace('@snapshot(path: "authors", fields: ["id", "name", "thumbnailUrl"])', `@snapshot(path: "authors", fields: ${JSON.stringify(authors.snapshotFields)})`));
  expect(widened).not.toEqual(typeDefs);
  const db = demo.client.db(demo.dbName);
  const migration = reconcileBackfill('Book.authors', 'snapshot-backfill', buildWriteModelFromSdl(widened), ['Book.authors'], ['countOfBooks']);
  const backfill = await backfillCopies(db, migration, { batchSize: 500 });
  expect(backfill.reports[0]).toMatchObject({ coordinate: 'Book.authors', scanned: 100, fixed: 100 });
  expect(await checkBackfill(db, migration, { batchSize: 500, finish: true })).toEqual([expect.objectContaining({ coordinate: 'Book.authors', drifted: 0 })]);
  // The same reads again, recorded by a gateway serving the widened schema.
  const workload = join(folder, 'after.jsonl');
  const client = await connectMongo(demo.mongo.uri);
  const gateway = await createCheckedGateway({ ...project, typeDefs: widened, db: demo.dbName, mongoClient: client, ...gatewaySettingsOf(loadConfig({ PORT: '0', DOCJOIN_WORKLOAD: `file:${workload}` })), listen: false });
  try {
    for (let i = 0; i < BOOK_READS; i++) expect((await gateway.execute({ query: BOOK_QUERY })).errors).toBeUndefined();
    for (let i = 0; i < HOST_READS; i++) await gateway.execute({ query: HOST_QUERY });
  } finally {
    await gateway.stop();
    await client.close();
  }
  const after = await readWorkload({ file: workload });
  const measured = (after.operations.query.roundTrips / after.operations.query.count) * 1000;
  expect(after.fields.find((entry) => entry.field === 'Book.authors')).toMatchObject({ strategy: 'snapshot', snapshotMisses: 0, roundTrips: 0 });
  process.stdout.write(`advise: query round trips per 1,000 queries ${before.toFixed(1)} before, ${predicted.toFixed(1)} predicted, ${measured.toFixed(1)} measured after\n`);
  expect(Math.abs(measured - predicted)).toBeLessThanOrEqual(0.2 * predicted);
});
