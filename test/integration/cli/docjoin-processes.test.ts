import { createServer, type AddressInfo } from 'node:net';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { DEMO_DIR } from '../../support/demo-project';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { serverSupportsTransactions } from '../writes/support/expected-writes';

/**
 * `docjoin …` as a user runs it in a project folder: the CLI entry (src/cli/bin/docjoin.ts, through tsx
 * as the repository runs it; test/package checks the packed build) in a child process whose working
 * folder is the demo example, so it finds docjoin.config.ts by itself. Commands that need
 * a MongoDB of yours get the test MongoDB (MONGODB_URI, or a fresh embedded server); `serve` and
 * `explain --run` also start their own embedded server filled by the demo's seed.
 */
const TSX = require.resolve('tsx/cli');
const BIN = join(__dirname, '../../../src/cli/bin/docjoin.ts');
const BASE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function start(args: readonly string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  // A clean environment: no MONGODB_URI or NODE_ENV=test leaking in from jest unless a test passes it.
  return spawn(process.execPath, [TSX, BIN, ...args], { env: { ...BASE_ENV, ...env }, cwd: DEMO_DIR });
}

function finish(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const docjoin = (args: readonly string[], env: Record<string, string> = {}): Promise<Finished> => finish(start(args, env));

describe('docjoin without a database', () => {
  it('explain prints the plan and exits 0', async () => {
    const { code, stdout, stderr } = await docjoin(['explain', '{ hosts(first: 20) { name logs(first: 5) { message } } }']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 7)).toEqual([
      'query (anonymous): estimated before execution 2 round trips, at most 120 documents, depth 2',
      'within the limits (50 round trips, 100,000 documents, depth 10, 500,000 response objects)',
      // 20 hosts {"name":v,"logs":} (34 bytes) and 100 logs {"message":v} (29), 16 bytes a value.
      'response: up to 120 objects, about 3.5 KiB as JSON',
      '',
      '  field         strategy    est. round trips   other strategies (whole operation)',
      '  Query.hosts   root find   1',
      '    Host.logs   join        1                  lookup → 1 round trip (−1)',
    ]);
  });

  it('stops quietly, exit 0, when its reader closes the pipe before it has written (`docjoin explain … | head`)', async () => {
    const child = start(['explain', '{ hosts(first: 20) { name logs(first: 5) { message } } }']);
    child.stdout.destroy();
    const { code, stderr } = await finish(child);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('serve --help prints its usage and exits 0', async () => {
    const { code, stdout, stderr } = await docjoin(['serve', '--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.split('\n')[0]).toBe('Usage: docjoin serve [--port N] [--mongo-uri URI] [--db NAME] [--seed-scale N] [--config FILE]');
  });

  it.each([
    [['serve', '--port', 'eighty'], 'serve: --port must be an integer from 0 to 65535, got "eighty"'],
    // The URI comes from MONGODB_URI here: the seed scale would be dropped without a word.
    [['serve', '--seed-scale', '2'], "docjoin: --seed-scale only applies to the embedded server, and a MongoDB URI is given (--mongo-uri, MONGODB_URI or the config's mongodb.uri); seed your MongoDB with docjoin seed --scale N"],
    [['explain'], "explain: no operation: pass it as an argument in quotes, e.g. docjoin explain '{ rootField { field } }' with your schema's fields, or use --file F"],
    [['explain', '{ books { title } }'], 'explain: Cannot query field "title" on type "Book". (line 1, column 11)'],
    [['seed', '--scale', '0'], 'seed: --scale must be greater than 0, got "0"'],
    [['reconcile', '--fix', '--mongo-uri', 'localhost'], 'reconcile: --mongo-uri must start with mongodb:// or mongodb+srv://, got "localhost"'],
    [['deploy'], 'docjoin: unknown command "deploy"; the commands are serve, explain, reconcile, advise, migrate, codegen, seed, init, mongo (try docjoin --help)'],
  ])('%j exits 2 with a one-line reason', async (args, line) => {
    const { code, stdout, stderr } = await docjoin(args, { MONGODB_URI: 'mongodb://127.0.0.1:1' });
    expect(code).toBe(2);
    expect(stderr).toBe(`${line}\n`);
    expect(stdout).toBe('');
  });

  it.each([
    ['serve', ['serve', '--port', '0'], { logged: ['connecting to MongoDB at mongodb://***@127.0.0.1:1/?serverSelectionTimeoutMS=300…'], stderr: '' }],
    ['explain --run', ['explain', '{ books(first: 1) { name } }', '--run'], { logged: [], stderr: 'explain: connecting to MongoDB at mongodb://***@127.0.0.1:1/?serverSelectionTimeoutMS=300…\n' }],
  ])('%s with an unreachable MongoDB says where it connects, then exits 1 with one line naming the (redacted) URI and the reason', async (_name, args, progress) => {
    const { code, stdout, stderr } = await docjoin([...args, '--mongo-uri', 'mongodb://reader:secret@127.0.0.1:1/?serverSelectionTimeoutMS=300']);
    expect(code).toBe(1);
    expect(stderr).toBe(`${progress.stderr}docjoin: cannot reach MongoDB at mongodb://***@127.0.0.1:1/?serverSelectionTimeoutMS=300: connect ECONNREFUSED 127.0.0.1:1\n`);
    // serve logs JSON lines when its output is not a terminal.
    expect(logLines(stdout).map((line) => line.msg)).toEqual(progress.logged);
  });

  it('serve shows no secret of its URI or of the environment in its logs or its startup error', async () => {
    const secrets = ['ss-word', 'kf-secret-1', 'tok-secret-1', 'env-token-secret-1'];
    const uri = 'mongodb://reader:p@ss-word@127.0.0.1:1/?serverSelectionTimeoutMS=300&tlsCertificateKeyFilePassword=kf-secret-1&authMechanismProperties=AWS_SESSION_TOKEN:tok-secret-1';
    const { code, stdout, stderr } = await docjoin(['serve', '--port', '0', '--mongo-uri', uri], { AWS_SESSION_TOKEN: 'env-token-secret-1' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^docjoin: cannot reach MongoDB at mongodb:\/\/\*\*\*@127\.0\.0\.1:1\/\?serverSelectionTimeoutMS=300&tlsCertificateKeyFilePassword=\*\*\*&authMechanismProperties=\*\*\*: [^\n]+\n$/);
    expect(logLines(stdout).map((line) => line.msg)).toHaveLength(1);
    for (const secret of secrets) expect(`${stdout}${stderr}`).not.toContain(secret);
  });

  it('serve prints progress while a silent MongoDB keeps it waiting, then exits 1 with one line within DOCJOIN_MONGO_TIMEOUT_MS, whatever the URI says', async () => {
    // Accepts connections and never answers: the handshake waits until docjoin gives up, though the
    // URI's own timeouts would wait a minute.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const uri = `mongodb://127.0.0.1:${(silent.address() as AddressInfo).port}/?directConnection=true&serverSelectionTimeoutMS=60000&connectTimeoutMS=60000`;
    try {
      const { code, stdout, stderr } = await docjoin(['serve', '--port', '0', '--mongo-uri', uri], { DOCJOIN_MONGO_TIMEOUT_MS: '2500' });
      expect(code).toBe(1);
      expect(logLines(stdout).map((line) => line.msg)).toEqual([
        `connecting to MongoDB at ${uri}…`,
        `still waiting for MongoDB at ${uri} (1 s; gives up after 2.5 s, DOCJOIN_MONGO_TIMEOUT_MS)`,
        `still waiting for MongoDB at ${uri} (2 s; gives up after 2.5 s, DOCJOIN_MONGO_TIMEOUT_MS)`,
      ]);
      expect(stderr).toMatch(new RegExp(`^docjoin: cannot reach MongoDB at ${uri.replace(/[?.]/g, '\\$&')}: [^\\n]+\\n$`));
    } finally {
      silent.close();
    }
  });

  it('serve on a taken port exits 1 with one line before seeding anything', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { code, stdout, stderr } = await docjoin(['serve', '--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr).toBe(`docjoin: port ${port} is already in use by another process; stop that process or choose another port (PORT=… or --port …; 0 picks a free one)\n`);
      expect(stdout).toBe('');
    } finally {
      taken.close();
    }
  });

  it('refuses an invalid environment at start, naming the variable', async () => {
    const { code, stderr } = await docjoin(['serve'], { DOCJOIN_STRATEGY_OVERRIDES: 'sometimes' });
    expect(code).toBe(2);
    expect(stderr).toBe('serve: DOCJOIN_STRATEGY_OVERRIDES must be one of true/false/1/0/on/off/yes/no, got "sometimes"\n');
  });
});

describe('docjoin explain --run on the embedded demo data', () => {
  it('shows the measured cost next to the estimate, with the seeding progress on stderr', async () => {
    const { code, stdout, stderr } = await docjoin([
      'explain',
      '{ books(first: 5) { name publisher { name } authors { name countOfBooks } } }',
      '--strategy',
      'Book.authors=join',
      '--run',
      '--seed-scale',
      '0.1',
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^explain: embedded MongoDB at mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true; seeding it \(scale 0\.1\)…\n/);
    expect(stderr).toMatch(/\nseeding books +100 \/ 100\n/);
    expect(stderr).toMatch(/explain: loaded 11,587 documents in [\d.]+ s\nexplain: schema of \S+docjoin\.config\.ts: 17 types, 18 relation fields, 14 generated root fields\n$/);
    const lines = stdout.split('\n');
    expect(lines.slice(4, 8)).toEqual([
      '  field              strategy            est. round trips   measured   other strategies (whole operation)',
      '  Query.books        root find           1                  -',
      '    Book.publisher   join                1                  1          lookup → 2 round trips (−1)',
      '    Book.authors     join (--strategy)   1                  1          snapshot → 3 round trips (±0), lookup → 2 round trips (−1)',
    ]);
    expect(lines.find((line) => line.startsWith('measured on'))).toMatch(
      /^measured on the embedded server, seed scale 0\.1: 3 round trips \(estimated 3 as it ran\), \d+ documents, [\d,]+ bytes, [\d.]+ ms; one query per parent would have sent 11$/,
    );
  }, 60_000);
});

describe('docjoin against a MongoDB of yours', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await startTestMongo();
  });
  afterAll(() => mongo?.stop());

  it('seed loads it with progress, reconcile finds no drift, explain --run measures on it', async () => {
    const dbName = mongo.freshDb('cli').databaseName;
    const target = ['--mongo-uri', mongo.uri, '--db', dbName];

    const seeded = await docjoin(['seed', '--scale', '0.05', ...target]);
    expect(seeded.stderr).toBe('');
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toContain('seeding logMessages      5,000 / 5,000\n');
    expect(seeded.stdout).toMatch(/Seeded .* at scale 0\.05 in [\d.]+s: 5,794 documents in 12 collections, 12 indexes\./);

    const reconciled = await docjoin(['reconcile', ...target]);
    expect(reconciled.code).toBe(0);
    expect(reconciled.stdout).toMatch(/\nNo drift\.\n$/);

    // The author's books, counted before the rename: exactly these must show the new name afterwards.
    const authorId = new ObjectId('6955b9000800000000000001');
    const books = mongo.client.db(dbName).collection('books');
    const authored = await books.countDocuments({ 'authors.id': authorId });
    expect(authored).toBeGreaterThan(0);
    expect(await books.countDocuments({ authors: { $elemMatch: { id: authorId, name: 'Ada Lovelace' } } })).toBe(0);
    const explained = await docjoin(['explain', `mutation { renameAuthor(id: "${authorId.toHexString()}", firstName: "Ada", lastName: "Lovelace") { name } }`, '--run', ...target]);
    expect(explained.code).toBe(0);
    const transactions = await serverSupportsTransactions(mongo.client);
    expect(explained.stdout).toContain(
      transactions
        ? `writes: 3 round trips, ${authored + 1} documents modified (authors 1, books ${authored}), in one transaction\n`
        : `writes: 2 round trips, ${authored + 1} documents modified (authors 1, books ${authored}), NOT atomic (no transactions on this server)\n`,
    );
    expect(await books.countDocuments({ authors: { $elemMatch: { id: authorId, name: 'Ada Lovelace' } } })).toBe(authored);
    expect(await books.countDocuments({ 'authors.id': authorId })).toBe(authored);

    // The write went through the directives' fan-out, so there is still no drift.
    const after = await docjoin(['reconcile', ...target]);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/\nNo drift\.\n$/);
  }, 90_000);

  it('serve keeps serving through a field error graphql-js 16 leaves unhandled, and logs it once', async () => {
    // Two posts: the first one's comments fail after a read (no comment has the `after` id), the second
    // fails at once (no title, which is non-null). graphql-js drops the first post's promise when the
    // second fails, and its rejection reaches the process unhandled (graphql/graphql-js#3528). Both sort
    // before the seeded posts.
    const db = mongo.freshDb('dropped');
    expect((await docjoin(['seed', '--scale', '0.05', '--mongo-uri', mongo.uri, '--db', db.databaseName])).code).toBe(0);
    const createdAt = new Date('2026-01-01T00:00:00Z');
    await db.collection('posts').insertMany([
      { _id: new ObjectId('000000000000000000000a01'), title: 'first', body: 'b', author: 'a', createdAt, commentCount: 0, recentComments: [] },
      { _id: new ObjectId('000000000000000000000a02'), body: 'b', author: 'a', createdAt, commentCount: 0, recentComments: [] },
    ]);
    // Introspection is off in production unless allowed: this test needs it to reach graphql-js.
    const child = start(['serve', '--port', '0', '--mongo-uri', mongo.uri, '--db', db.databaseName], { NODE_ENV: 'production', DOCJOIN_INTROSPECTION: 'true' });
    const done = finish(child);
    try {
      const url = await listeningUrl(child);
      const post = async (query: string) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const { data, errors } = (await response.json()) as { data: unknown; errors?: Array<{ path: unknown; extensions: { code: string } }> };
        return { status: response.status, data, errors };
      };
      // Introspection is graphql-js's to run, so the whole operation runs there.
      const query = '{ __schema { queryType { name } } posts(first: 2) { title comments(after: "000000000000000000000bff") { id } } }';
      const failing = await post(query);
      expect(failing.status).toBe(200);
      expect(failing.data).toBeNull();
      expect(failing.errors).toEqual([expect.objectContaining({ path: ['posts', 1, 'title'], extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
      // Still serving, with the same answer.
      expect(await post(query)).toEqual(failing);
      expect((await post('{ posts(first: 1) { title } }')).data).toEqual({ posts: [{ title: 'first' }] });
      const metrics = await (await fetch(url.replace(/\/graphql$/, '/metrics'))).text();
      expect(metrics).toMatch(/^docjoin_dropped_field_errors_total 2$/m);
    } finally {
      child.kill('SIGTERM');
    }
    const { code, stdout } = await done;
    expect(code).toBe(0);
    // The second request's comes within the minute: counted, not logged on its own.
    const dropped = logLines(stdout).filter((line) => String(line.msg).startsWith('graphql-js left'));
    expect(dropped).toEqual([expect.objectContaining({ level: 40, dropped: 1, path: ['posts', 0, 'comments'], code: 'BAD_USER_INPUT' })]);
  }, 60_000);
});

describe('docjoin serve', () => {
  it('serves GraphQL on the port it prints, then stops on SIGTERM', async () => {
    const child = start(['serve', '--port', '0', '--seed-scale', '0.05']);
    const done = finish(child);
    const url = await listeningUrl(child);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ posts(first: 2) { title } }' }) });
    const body = (await response.json()) as { data: { posts: { title: string }[] }; extensions: { cost: { roundTrips: number } } };
    expect(body.data.posts).toHaveLength(2);
    expect(body.extensions.cost.roundTrips).toBe(1);
    child.kill('SIGTERM');
    const { code, stdout } = await done;
    expect(code).toBe(0);
    // Not a terminal: one JSON line per step, then one per request, then the shutdown.
    const lines = logLines(stdout);
    expect(lines[0]).toMatchObject({ level: 30, name: 'docjoin', mongo: { kind: 'embedded', db: 'docjoin' }, seedScale: 0.05 });
    expect(lines).toContainEqual(expect.objectContaining({ collection: 'comments', documents: 500, msg: 'seeded comments' }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'operation', type: 'query', roundTrips: 1, estimatedRoundTrips: 1 }));
    expect(lines.slice(-4).map((line) => line.msg)).toEqual(['SIGTERM: shutting down', 'draining: /health answers 503 while requests are still taken', 'stopping: finishing the requests in flight', 'stopped']);
  }, 60_000);

  it('under npm (npm start), a SIGTERM to npm reaches the server, which drains and stops', async () => {
    const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--seed-scale', '0.05'], { env: BASE_ENV, cwd: join(__dirname, '../../..') });
    const done = finish(child);
    await listeningUrl(child);
    child.kill('SIGTERM');
    const { stdout } = await done;
    expect(logLines(stdout).slice(-4).map((line) => line.msg)).toEqual(['SIGTERM: shutting down', 'draining: /health answers 503 while requests are still taken', 'stopping: finishing the requests in flight', 'stopped']);
  }, 60_000);
});

describe('docjoin mongo', () => {
  it('runs the embedded server alone: prints its URI, answers the driver, keeps what was written, stops on SIGTERM', async () => {
    const child = start(['mongo', '--port', '0']);
    const done = finish(child);
    const uri = await new Promise<string>((resolve, reject) => {
      let printed = '';
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.includes('\n')) resolve(printed.trim());
      });
      child.on('close', (code) => reject(new Error(`docjoin mongo exited with ${code} before printing its URI`)));
    });
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\//);
    const client = await MongoClient.connect(uri);
    try {
      await client.db('alone').collection('notes').insertOne({ text: 'kept' });
      expect(await client.db('alone').collection('notes').findOne({}, { projection: { _id: 0 } })).toEqual({ text: 'kept' });
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    const { code, stderr } = await done;
    expect(code).toBe(0);
    expect(stderr).toBe('docjoin mongo: SIGTERM, stopping\n');
  }, 60_000);

  it('on a taken port exits 1 with one line', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { code, stderr } = await docjoin(['mongo', '--port', String((taken.address() as AddressInfo).port)]);
      expect(code).toBe(1);
      expect(stderr.split('\n')).toEqual([expect.stringMatching(/^docjoin mongo: .*EADDRINUSE/), '']);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses an unknown option in one line, exit 2', async () => {
    const { code, stderr } = await docjoin(['mongo', '--prot', '1']);
    expect(code).toBe(2);
    expect(stderr).toBe("docjoin mongo: unknown option '--prot' (try --help)\n");
  });
});

/** The JSON log lines of a command's output. */
function logLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Resolves with the GraphQL URL the server logs once it listens. */
function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  let printed = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /GraphQL at (http:\/\/localhost:\d+\/graphql)/.exec(printed);
      if (match) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.on('close', (code) => reject(new Error(`serve exited with ${code} before listening:\n${printed}`)));
  });
}
