import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MongoClient } from 'mongodb';
import { connectMongo } from 'docjoin';
import { runDocjoinCli } from '../../../src/cli/docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/** What `docjoin serve` prints when its start fails: the warnings of the start first, the reason it stopped last. */
let mongo: TestMongo;
let client: MongoClient;
beforeAll(async () => {
  mongo = await startTestMongo();
  client = await connectMongo(mongo.uri);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

const NOTES = 'type Query { notes: [Note!]! @list }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n';

/** A project of `schema` and `config` (beside its schema.graphql) in a fresh folder: its config file. */
function projectOf(schema: string, config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'docjoin-start-output-'));
  writeFileSync(join(dir, 'schema.graphql'), schema);
  writeFileSync(join(dir, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql', ...config }));
  return join(dir, 'docjoin.config.json');
}

/** An io recording what is written, in order, with the stream it went to. */
function recordingIo(): { written: Array<['out' | 'err', string]>; io: { out: { write(text: string): void }; err: { write(text: string): void } } } {
  const written: Array<['out' | 'err', string]> = [];
  return { written, io: { out: { write: (text) => void written.push(['out', text]) }, err: { write: (text) => void written.push(['err', text]) } } };
}

it('writes the warnings logged during a failed start before the one line that says why it stopped', async () => {
  const db = mongo.freshDb('serve_output');
  await db.collection('notes').insertOne({ text: 'a' });
  const config = projectOf('type Query { notes: [Note!]! @list(sort: "-text") orphan: Note }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n');
  const { written, io } = recordingIo();
  expect(await runDocjoinCli(['serve', '--port', '0', '--config', config, '--db', db.databaseName], { MONGODB_URI: mongo.uri }, io)).toBe(2);
  const warning = written.findIndex(([stream, text]) => stream === 'out' && text.includes('"level":40') && text.includes('Query.notes: no index serves the order'));
  expect(warning).toBeGreaterThanOrEqual(0);
  expect(written.at(-1)).toEqual(['err', 'docjoin: Invalid storage directives:\n  - Query.orphan: no resolver; add @find or @list to generate it, or pass a resolver for Query.orphan\n']);
});

it('says in one line, with no stack, that an auth option is wrong (exit 2, as for every option)', async () => {
  const db = mongo.freshDb('serve_output_auth');
  await db.collection('notes').insertOne({ text: 'a' });
  const config = projectOf(NOTES, { auth: { jwt: {} } });
  const { written, io } = recordingIo();
  expect(await runDocjoinCli(['serve', '--port', '0', '--config', config, '--db', db.databaseName], { MONGODB_URI: mongo.uri }, io)).toBe(2);
  expect(written.at(-1)).toEqual(['err', 'docjoin: option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got none\n']);
  // Before connecting (so before any seed): the same with a MongoDB that cannot be reached.
  expect(await runDocjoinCli(['serve', '--port', '0', '--config', config, '--mongo-uri', 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300'], {}, io)).toBe(2);
  expect(written.at(-1)).toEqual(['err', 'docjoin: option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got none\n']);
});

it('says in one line, before connecting, that server.host is no address of this machine (exit 2), whatever the port', async () => {
  const { written, io } = recordingIo();
  // 203.0.113.0/24 is reserved for documentation: no machine has it.
  const elsewhere = projectOf(NOTES, { server: { host: '203.0.113.9' } });
  const unreachable = 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300';
  const hostLine = 'docjoin: server.host "203.0.113.9": no network interface of this machine has that address (EADDRNOTAVAIL); set server.host to one of its addresses, "0.0.0.0" for all of them, or "localhost"\n';
  for (const port of ['0', '4123']) {
    expect(await runDocjoinCli(['serve', '--port', port, '--config', elsewhere, '--mongo-uri', unreachable], {}, io)).toBe(2);
    expect(written.at(-1)).toEqual(['err', hostLine]);
  }
});

it('explain --run says in one line, with no stack, that the database does not match the schema (exit 1, as serve)', async () => {
  const db = mongo.freshDb('explain_output_mismatch');
  const config = projectOf(NOTES);
  const { written, io } = recordingIo();
  expect(await runDocjoinCli(['explain', '{ notes { text } }', '--run', '--config', config, '--db', db.databaseName], { MONGODB_URI: mongo.uri }, io)).toBe(1);
  const [stream, text] = written.at(-1)!;
  expect(stream).toBe('err');
  // One line: what else the server holds (other tests' databases) follows the collections it lacks.
  expect(text.startsWith(`docjoin: The database does not match the schema: database "${db.databaseName}" has none of the schema's 1 collections (notes). `)).toBe(true);
  expect(text.indexOf('\n')).toBe(text.length - 1);
});

it('refuses what the schema alone refuses before starting the embedded server and running the seed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docjoin-start-output-'));
  writeFileSync(join(dir, 'schema.graphql'), 'type Query { notes: [Note!]! @list orphan: Note }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n');
  const seeded = join(dir, 'seeded');
  writeFileSync(join(dir, 'docjoin.config.cjs'), `module.exports = { schema: 'schema.graphql', seed: async () => require('node:fs').writeFileSync(${JSON.stringify(seeded)}, 'yes') };\n`);
  const { written, io } = recordingIo();
  expect(await runDocjoinCli(['serve', '--port', '0', '--config', join(dir, 'docjoin.config.cjs')], {}, io)).toBe(2);
  expect(written).toEqual([['err', 'docjoin: Invalid storage directives:\n  - Query.orphan: no resolver; add @find or @list to generate it, or pass a resolver for Query.orphan\n']]);
  expect(existsSync(seeded)).toBe(false);
});
