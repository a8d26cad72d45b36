import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedMongo } from 'docjoin/embedded-mongo';
import { sigtermDuringBurst } from '../support/sigterm-burst';

/**
 * The package as a user gets it: `npm pack` (which builds dist/ first), installed from the tarball in a
 * fresh folder outside the repository together with the peer dependencies a user adds, then imported
 * from an ES module (serving a small schema on the embedded server), type-checked from TypeScript under
 * `strict`, and run as `npx docjoin --help`. Nothing of the repository is visible there but the tarball.
 */
const run = promisify(execFile);
const REPO = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

let workDir: string;
let tarball: string;
let project: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'docjoin-package-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(workDir, info!.filename);
  project = join(workDir, 'app');
  await run('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  // The peers at the versions the repository tests with, and TypeScript for the strict check.
  const peers = ['@apollo/server', 'graphql', 'mongodb'].map((name) => `${name}@${manifest.devDependencies[name]}`);
  const typescript = ['typescript', '@types/node'].map((name) => `${name}@${manifest.devDependencies[name]}`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, ...peers, ...typescript], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
}, 300_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('the tarball holds compiled JavaScript and type declarations, not the sources, tests or examples', async () => {
  const listed = await run('tar', ['-tzf', tarball]);
  const files = listed.stdout.split('\n').filter((line) => line !== '');
  expect(files).toEqual(
    expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/cli/bin/docjoin.js', 'package/dist/embedded-mongo/index.js', 'package/package.json', 'package/README.md', 'package/ide/dist/main.js', 'package/ide/dist/graphql.worker.js']),
  );
  // Nor the demo project at the repository's top level.
  expect(files.filter((file) => /^package\/(src|test|examples|bench|schema|resolvers|documents|seed|operations|generated)\//.test(file))).toEqual([]);
  expect(files.filter((file) => /^package\/(docjoin\.config\.ts|codegen\.yml|schema\.public\.graphql)$/.test(file))).toEqual([]);
  expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  // No install scripts: installing the package runs nothing of the repository's (npm lists prepare as one).
  const packed = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as { scripts?: Record<string, string> };
  expect(Object.keys(packed.scripts ?? {}).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
});

it('imports from an ES module and serves an SDL of its own, with tsx nowhere installed', async () => {
  writeFileSync(
    join(project, 'serve.mjs'),
    `import { connectMongo, createGateway, directiveTypeDefs } from 'docjoin';
import { startEmbeddedMongo } from 'docjoin/embedded-mongo';

const mongo = await startEmbeddedMongo();
const client = await connectMongo(mongo.uri);
const db = client.db('shop');
const { insertedId } = await db.collection('categories').insertOne({ name: 'Tea' });
await db.collection('products').insertMany([{ name: 'Sencha', categoryId: insertedId }, { name: 'Matcha', categoryId: insertedId }]);
const typeDefs = \`
  type Query { products: [Product!]! }
  type Category @collection(name: "categories") { id: ID! name: String! }
  type Product @collection(name: "products") { id: ID! name: String! category: Category @join(localField: "categoryId") }
\`;
const resolvers = { Query: { products: (_p, _a, context, info) => context.documents.findMany(info, 'Product', { first: 10 }) } };
const gateway = await createGateway({ typeDefs, resolvers, mongoClient: client, db, listen: false });
const result = await gateway.execute({ query: '{ products { name category { name } } }' });
console.log(JSON.stringify({ data: result.data, roundTrips: result.cost.roundTrips, directives: directiveTypeDefs.includes('directive @collection') }));
await gateway.stop();
await client.close();
await mongo.stop();
`,
  );
  const { stdout } = await run(process.execPath, ['serve.mjs'], { cwd: project });
  expect(JSON.parse(stdout)).toEqual({
    data: { products: [{ name: 'Sencha', category: { name: 'Tea' } }, { name: 'Matcha', category: { name: 'Tea' } }] },
    roundTrips: 2,
    directives: true,
  });
  await expect(run(process.execPath, ['-e', "require.resolve('tsx')"], { cwd: project })).rejects.toThrow();
}, 60_000);

it('type-checks from TypeScript under strict', async () => {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'node16', moduleResolution: 'node16', target: 'ES2022', types: ['node'], skipLibCheck: false } }),
  );
  writeFileSync(
    join(project, 'app.ts'),
    `import { ApolloServer } from '@apollo/server';
import { connectMongo, createDocjoin, defineConfig, type GatewayContext, type MutationWritePlans, type CostReport } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from 'docjoin/embedded-mongo';

export const config = defineConfig({ schema: 'schema', server: { port: 4000, cors: { origin: 'https://app.example.com' } } });
export const plans: MutationWritePlans = {};

export async function mount(mongo: EmbeddedMongo): Promise<ApolloServer<GatewayContext>> {
  const client = await connectMongo(mongo.uri);
  const docjoin = await createDocjoin({ typeDefs: 'type Query { ok: Boolean }', mongoClient: client, db: 'app' });
  const server = new ApolloServer<GatewayContext>({ schema: docjoin.schema, plugins: [...docjoin.plugins], formatError: docjoin.formatError });
  const context: GatewayContext = docjoin.createContext({ headers: { 'x-docjoin-strategy': undefined } });
  void context.ledger;
  return server;
}
export const start: () => Promise<EmbeddedMongo> = () => startEmbeddedMongo();
export function roundTrips(report: CostReport): number {
  return report.roundTrips;
}
`,
  );
  const tsc = join(project, 'node_modules/typescript/bin/tsc');
  await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toMatchObject({ stdout: '' });
}, 120_000);

it('runs as `npx docjoin --help` from the folder it is installed in', async () => {
  const { stdout } = await run('npx', ['--no-install', 'docjoin', '--help'], { cwd: project });
  expect(stdout.split('\n')[0]).toBe('Usage: docjoin <command> [options]      (docjoin <command> --help for its options)');
  expect(stdout).toMatch(/^ {2}serve /m);
});

describe('the README quick start for your own project, in the folder the package is installed in', () => {
  const docjoin = (args: readonly string[], env: Record<string, string> = {}) => run('npx', ['--no-install', 'docjoin', ...args], { cwd: project, env: { ...process.env, ...env } });

  type Post = (query: string) => Promise<{ data: Record<string, unknown>; errors?: unknown[]; extensions: { cost: { roundTrips: number } } }>;

  /** `docjoin serve` (the bin itself, as `npm start` runs it: npx would not pass SIGTERM on) on the embedded server, once it prints its URL. */
  async function startServe(args: readonly string[], options: { ownProcessGroup?: boolean } = {}): Promise<{ child: ReturnType<typeof spawn>; url: string; exited: Promise<number | null> }> {
    const child = spawn(process.execPath, [join(project, 'node_modules/docjoin/dist/cli/bin/docjoin.js'), 'serve', '--port', '0', ...args], {
      cwd: project,
      env: { ...process.env, MONGODB_URI: '' },
      detached: options.ownProcessGroup ?? false,
    });
    const exited = new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
    let printed = '';
    child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const url = await new Promise<string>((resolveUrl, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /GraphQL at (http:\/\/localhost:\d+\/graphql)/.exec(printed);
        if (match) resolveUrl(match[1]!);
      });
      child.on('close', (code) => reject(new Error(`serve exited with ${code}:\n${printed}`)));
    });
    return { child, url, exited };
  }

  /** startServe while `use` runs; then SIGTERM, and the exit must be 0. */
  async function serving(args: readonly string[], use: (post: Post) => Promise<void>): Promise<void> {
    const { child, url, exited } = await startServe(args);
    try {
      await use(async (query) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        return (await response.json()) as Awaited<ReturnType<Post>>;
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }

  it('init scaffolds a config, an SDL, a seed and npm scripts, and refuses to do it twice', async () => {
    const { stdout } = await docjoin(['init']);
    expect(stdout.split('\n').slice(0, 4)).toEqual(['wrote docjoin.config.mjs', 'wrote schema/schema.graphql', 'wrote seed.mjs', 'added npm scripts start, explain, reconcile, codegen to package.json']);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).scripts).toEqual({ start: 'exec docjoin serve', explain: 'docjoin explain', reconcile: 'docjoin reconcile', codegen: 'docjoin codegen' });
    await expect(docjoin(['init'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('init: docjoin.config.mjs, schema/schema.graphql, seed.mjs already exist in .') });
  });

  it('serve runs it on the embedded server filled by the seed: generated reads and writes over HTTP', async () => {
    await serving([], async (post) => {
      const authors = await post('{ authors { id name postCount } }');
      expect(authors.data.authors).toEqual([expect.objectContaining({ name: 'Ada Lovelace', postCount: 2 }), expect.objectContaining({ name: 'Grace Hopper', postCount: 0 })]);
      const grace = (authors.data.authors as Array<{ id: string }>)[1]!.id;
      const created = await post(`mutation { createPost(input: { title: "COBOL", body: "A language.", author: "${grace}" }) { title author { name postCount } } }`);
      expect(created.errors).toBeUndefined();
      expect(created.data).toEqual({ createPost: { title: 'COBOL', author: { name: 'Grace Hopper', postCount: 1 } } });
      const posts = await post('{ posts(first: 1) { title author { name } } }');
      expect(posts).toMatchObject({ data: { posts: [{ title: 'COBOL', author: { name: 'Grace Hopper' } }] }, extensions: { cost: { roundTrips: 1 } } });
    });
  }, 60_000);

  it('the compiled `node …/docjoin.js serve` answers 40 requests sent 30 ms before SIGTERM to its process group, then exits 0', async () => {
    const { child, url, exited } = await startServe([], { ownProcessGroup: true });
    const outcomes = await sigtermDuringBurst({ url, query: '{ authors { name } }', processGroup: child.pid! });
    expect(outcomes).toEqual(Array.from({ length: 40 }, () => '200'));
    expect(await exited).toBe(0);
  }, 60_000);

  it('`npx docjoin serve` killed by its PID (SIGTERM to npm exec, whose `sh -c` does not pass it on) stops the server too', async () => {
    const npx = spawn('npx', ['docjoin', 'serve', '--port', '0'], { cwd: project, env: { ...process.env, MONGODB_URI: '', DOCJOIN_SHUTDOWN_DELAY_MS: '0', DOCJOIN_LOG_FORMAT: 'json' } });
    let printed = '';
    npx.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const url = await new Promise<string>((resolveUrl, reject) => {
      npx.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /GraphQL at (http:\/\/localhost:\d+\/graphql)/.exec(printed);
        if (match) resolveUrl(match[1]!);
      });
      npx.on('close', (code) => reject(new Error(`npx docjoin serve exited with ${code}:\n${printed}`)));
    });
    const health = new URL('/health', url).href;
    expect((await fetch(health)).status).toBe(200);
    npx.kill('SIGTERM');
    // The server, orphaned, notices within its parent check and stops: its port closes.
    let refused = false;
    for (let attempt = 0; attempt < 100 && !refused; attempt++) {
      await new Promise((wait) => setTimeout(wait, 200));
      refused = await fetch(health).then(
        () => false,
        () => true,
      );
    }
    expect(refused).toBe(true);
    // Its port closes before its last log lines arrive here: once the server exits, its end of the pipe closes.
    if (!npx.stdout!.readableEnded) await new Promise((ended) => npx.stdout!.once('end', ended));
    expect(printed).toMatch(/has exited without stopping it: stopping as on SIGTERM/);
  }, 60_000);

  it('loads a docjoin.config.ts with no TypeScript loader installed', async () => {
    const folder = join(project, 'ts-project');
    await run('mkdir', ['-p', folder]);
    writeFileSync(join(folder, 'schema.graphql'), 'type Query { hello: String! notes(first: Int = 20): [Note!]! @list }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n');
    writeFileSync(join(folder, 'resolvers.ts'), "export const resolvers = { Query: { hello: (): string => 'hi' } };\n");
    writeFileSync(
      join(folder, 'docjoin.config.ts'),
      "import { defineConfig, type DocjoinProjectConfig } from 'docjoin';\nimport { resolvers } from './resolvers';\n\nconst config: DocjoinProjectConfig = defineConfig({ schema: 'schema.graphql', resolvers });\nexport default config;\n",
    );
    const explained = await docjoin(['explain', '--config', 'ts-project/docjoin.config.ts', '{ hello notes(first: 5) { text } }']);
    expect(explained.stdout.split('\n')[0]).toBe('query (anonymous): estimated before execution 2 round trips, at most 6 documents, depth 1');
  });

  it('refuses a config with a mistake in one line that quotes the line, from an ES module, TypeScript or a throw', async () => {
    const folder = join(project, 'broken-configs');
    await run('mkdir', ['-p', folder]);
    const configs: Array<[string, string, string]> = [
      ['missing-brace.mjs', "export default {\n  schema: 'schema.graphql',\n  mongodb: { db: 'x' \n};\n", 'missing-brace.mjs could not be loaded: Unexpected token, expected "," (line 4: `};`)'],
      ['missing-comma.ts', "export default {\n  schema: 'schema.graphql'\n  server: {},\n};\n", 'missing-comma.ts could not be loaded: Unexpected token, expected "," (line 3: `server: {},`)'],
      ['undefined-name.mjs', 'export default {\n  schema: schemaFolder,\n};\n', 'undefined-name.mjs could not be loaded: schemaFolder is not defined (line 2: `schema: schemaFolder,`)'],
    ];
    for (const [file, source, message] of configs) {
      writeFileSync(join(folder, file), source);
      await expect(docjoin(['explain', '--config', `broken-configs/${file}`, '{ hello }'])).rejects.toMatchObject({ code: 2, stderr: `explain: ${message}\n` });
    }
  });

  it('serves a TypeScript project whose resolvers make ObjectIds from their own import of bson', async () => {
    // jiti loads bson's ES module build for the project: another ObjectId class than docjoin's.
    const folder = join(project, 'bson-project');
    await run('mkdir', ['-p', folder]);
    writeFileSync(join(folder, 'schema.graphql'), 'type Query { note(id: ID!): Note sample: Note! }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n');
    writeFileSync(
      join(folder, 'resolvers.ts'),
      "import { ObjectId } from 'bson';\nimport type { GraphQLResolveInfo } from 'graphql';\nimport type { GatewayContext } from 'docjoin';\n\n" +
        'export const resolvers = {\n  Query: {\n' +
        "    note: (_parent: unknown, args: { id: string }, context: GatewayContext, info: GraphQLResolveInfo) => context.documents.findOne(info, 'Note', { _id: new ObjectId(args.id) }),\n" +
        "    sample: () => ({ _id: new ObjectId('65a000000000000000000001'), text: 'made here' }),\n" +
        '  },\n};\n',
    );
    writeFileSync(join(folder, 'docjoin.config.ts'), "import { defineConfig } from 'docjoin';\nimport { resolvers } from './resolvers';\n\nexport default defineConfig({ schema: 'schema.graphql', resolvers });\n");
    await serving(['--config', 'bson-project/docjoin.config.ts'], async (post) => {
      const read = await post('{ note(id: "65a000000000000000000002") { text } sample { id text } }');
      expect(read.errors).toBeUndefined();
      expect(read.data).toEqual({ note: null, sample: { id: '65a000000000000000000001', text: 'made here' } });
    });
  }, 60_000);

  it('explain and codegen work on it', async () => {
    const explained = await docjoin(['explain', '{ posts(first: 5) { title author { name postCount } } }']);
    expect(explained.stdout.split('\n')[0]).toBe('query (anonymous): estimated before execution 2 round trips, at most 10 documents, depth 2');
    await docjoin(['codegen']);
    const published = readFileSync(join(project, 'schema.public.graphql'), 'utf8');
    expect(published).toContain('type Post {');
    expect(published).not.toMatch(/@(collection|snapshot|join|find|list|create)\b/);
  });

  it('seed and reconcile work on a MongoDB of yours', async () => {
    const mongo = await startEmbeddedMongo();
    try {
      const target = ['--mongo-uri', mongo.uri, '--db', 'blog'];
      expect((await docjoin(['seed', ...target])).stdout).toMatch(/^Seeded blog on .* at scale 1 in [\d.]+s: 4 documents in 2 collections, 2 indexes\.$/m);
      expect((await docjoin(['reconcile', ...target])).stdout).toMatch(/\nNo drift\.\n$/);
    } finally {
      await mongo.stop();
    }
  }, 60_000);
});
