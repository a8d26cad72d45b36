import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { connectMongo } from 'docjoin';
import { runDocjoinCli } from '../../../src/cli/docjoin';
import { redactUri } from '../../../src/observability/redact-secrets';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { captureIo } from '../../unit/cli/capture-io';
import { BLOG_ORDER_WARNING, blogDraft, seedBlog } from '../infer-schema/support/blog-fixture';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * `docjoin init --from-mongo`: in-process through the CLI's runner with captured output, and once as a
 * user runs it (the CLI entry through tsx, in a child process), against a database seeded like the demo.
 */
const TSX = require.resolve('tsx/cli');
const BIN = join(__dirname, '../../../src/cli/bin/docjoin.ts');

let mongo: TestMongo;
let dbName: string;
const folders: string[] = [];
beforeAll(async () => {
  mongo = await startTestMongo();
  const db = mongo.freshDb('init');
  dbName = db.databaseName;
  await seedBlog(db);
});
afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await mongo?.stop();
});

function emptyFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-init-'));
  folders.push(folder);
  return folder;
}

describe('docjoin init --from-mongo, in-process', () => {
  it('writes the drafted schema, a config for the database and the npm scripts, with what it sampled', async () => {
    const folder = emptyFolder();
    const { io, out, err } = captureIo();
    expect(await runDocjoinCli(['init', '--from-mongo', mongo.uri, '--db', dbName, '--sample', '50', folder], {}, io)).toBe(0);
    expect(err()).toBe(`init: warning: ${BLOG_ORDER_WARNING}\n`);
    // A MONGODB_URI with credentials is shown redacted, and kept out of the config.
    const secretFree = redactUri(mongo.uri) === mongo.uri;
    const where = `database "${dbName}" on ${redactUri(mongo.uri)}`;
    expect(out()).toBe(`sampling ${where}, up to 50 documents per collection…
  comments: 4 of ~4 documents ($sample)
  people: 3 of ~3 documents ($sample)
  posts: 3 of ~3 documents ($sample)
  tasks: 3 of ~3 documents ($sample)
wrote docjoin.config.mjs
wrote schema/schema.graphql (4 collection types, 1 embedded type; 2 joins, 1 snapshot, 1 reverse join; 10 guesses to check)
added npm scripts start, explain, reconcile, codegen to package.json
checked: docjoin's startup check passes on the draft against ${where}

Next:
  cd ${relative(process.cwd(), folder)}
  check each "# guess:" in schema/schema.graphql, then delete it
  npm install path/to/docjoin-0.1.0.tgz graphql @apollo/server mongodb   # the tarball npm pack writes in docjoin
  ${secretFree ? 'npm start                  ' : "MONGODB_URI='…' npm start  "}# serves ${where}; GraphQL at http://localhost:4000/graphql
`);
    expect(readFileSync(join(folder, 'schema', 'schema.graphql'), 'utf8')).toBe(blogDraft(dbName, 50));
    const config = readFileSync(join(folder, 'docjoin.config.mjs'), 'utf8');
    expect(config).toContain(secretFree ? `mongodb: { uri: '${mongo.uri}', db: '${dbName}' },` : `mongodb: { db: '${dbName}' },`);
    expect(config).not.toContain('resolvers');
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).scripts).toEqual({ start: 'exec docjoin serve', explain: 'docjoin explain', reconcile: 'docjoin reconcile', codegen: 'docjoin codegen' });
    expect(existsSync(join(folder, 'seed.mjs'))).toBe(false);

    // Run twice, it refuses before reading anything.
    const again = captureIo();
    expect(await runDocjoinCli(['init', '--from-mongo', mongo.uri, '--db', dbName, folder], {}, again.io)).toBe(2);
    expect(again.err()).toBe(`init: docjoin.config.mjs, schema/schema.graphql already exist in ${folder}; run init in an empty folder, or remove them first\n`);
    expect(again.out()).toBe('');
  });

  it('a database with no collections is one line naming it, exit 1, nothing written', async () => {
    const folder = emptyFolder();
    const { io, err } = captureIo();
    expect(await runDocjoinCli(['init', '--from-mongo', mongo.uri, '--db', 'no_such_db_here', folder], {}, io)).toBe(1);
    expect(err()).toMatch(new RegExp(`^init: database "no_such_db_here" on \\S+ has no collections to draft a schema from(; this server has: [^\\n]*${dbName}[^\\n]*)?\\n$`));
    expect(existsSync(join(folder, 'docjoin.config.mjs'))).toBe(false);
  });

  it('an unreachable MongoDB is one line with the URI redacted, exit 1, nothing written', async () => {
    const folder = emptyFolder();
    const { io, out, err } = captureIo();
    const uri = 'mongodb://reader:pass-w0rd@127.0.0.1:1/blog?serverSelectionTimeoutMS=300';
    expect(await runDocjoinCli(['init', '--from-mongo', uri, folder], {}, io)).toBe(1);
    expect(err()).toBe('init: cannot reach MongoDB at mongodb://***@127.0.0.1:1/blog?serverSelectionTimeoutMS=300: connect ECONNREFUSED 127.0.0.1:1\n');
    expect(out()).toBe('sampling database "blog" on mongodb://***@127.0.0.1:1/blog?serverSelectionTimeoutMS=300, up to 100 documents per collection…\n');
    expect(existsSync(join(folder, 'docjoin.config.mjs'))).toBe(false);
  });
});

describe('docjoin init --from-mongo, as a user runs it', () => {
  function docjoin(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [TSX, BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('drafts into the working folder a schema the gateway starts on and serves', async () => {
    const folder = emptyFolder();
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'mine', scripts: { start: 'node server.js' } }));
    const { code, stdout, stderr } = await docjoin(['init', '--from-mongo', mongo.uri, '--db', dbName], folder);
    expect(stderr).toBe(`init: warning: ${BLOG_ORDER_WARNING}\n`);
    expect(code).toBe(0);
    expect(stdout).toContain('\nadded npm scripts explain, reconcile, codegen to package.json (kept its own start)\n');
    expect(stdout).toMatch(/\n  npx docjoin serve +# serves /);
    const sdl = readFileSync(join(folder, 'schema', 'schema.graphql'), 'utf8');
    expect(sdl).toBe(blogDraft(dbName));

    const client = await connectMongo(mongo.uri);
    const warnings: string[] = [];
    try {
      const gateway = await createCheckedGateway({ typeDefs: sdl, mongoClient: client, db: dbName, listen: false, onWarning: (warning) => warnings.push(warning) });
      const result = await gateway.execute({ query: '{ posts(first: 1) { author { lastName } comments(first: 1) { comment post { title } } } }' });
      await gateway.stop();
      expect(result.data).toEqual({ posts: [{ author: { lastName: 'Lovelace' }, comments: [{ comment: 'Indeed.', post: { title: 'Notes' } }] }] });
      expect(warnings).toEqual([BLOG_ORDER_WARNING]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.each([
    [['init', '--from-mongo', 'localhost:27017'], 'init: --from-mongo must start with mongodb:// or mongodb+srv://, got "localhost:27017"'],
    [['init', '--from-mongo', 'mongodb://127.0.0.1:1'], 'init: --from-mongo needs a database: name it with --db NAME, or in the URI (mongodb://host/NAME)'],
    [['init', '--sample', '5'], 'init: --sample goes with --from-mongo URI (a draft from an existing database); try --help'],
  ])('%j exits 2 with one line', async (args, line) => {
    const { code, stdout, stderr } = await docjoin(args, emptyFolder());
    expect(code).toBe(2);
    expect(stderr).toBe(`${line}\n`);
    expect(stdout).toBe('');
  }, 60_000);

  it('an unreachable MongoDB exits 1 with one line that shows no secret', async () => {
    const { code, stderr } = await docjoin(['init', '--from-mongo', 'mongodb://reader:pass-w0rd@127.0.0.1:1/?serverSelectionTimeoutMS=300', '--db', 'blog'], emptyFolder());
    expect(code).toBe(1);
    expect(stderr).toBe('init: cannot reach MongoDB at mongodb://***@127.0.0.1:1/?serverSelectionTimeoutMS=300: connect ECONNREFUSED 127.0.0.1:1\n');
  }, 60_000);
});
