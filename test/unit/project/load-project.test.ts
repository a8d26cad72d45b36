import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProject } from '../../../src/project/load-project';

/** A project's config file is checked when it is loaded: unknown keys and wrong values stop it in one line. */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function load(config: object) {
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-project-'));
  folders.push(folder);
  writeFileSync(join(folder, 'schema.graphql'), 'type Query { hello: String }');
  writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify(config));
  return loadProject({ cwd: folder });
}

describe('loadProject', () => {
  it('prints the cost directives only when codegen.costDirectives says so', async () => {
    expect((await load({ schema: 'schema.graphql' })).costDirectives).toBe(false);
    expect((await load({ schema: 'schema.graphql', codegen: { costDirectives: true } })).costDirectives).toBe(true);
  });

  it("reads the files server settings name from the config's folder, whatever the working folder", async () => {
    const project = await load({ schema: 'schema.graphql', server: { trustedDocuments: { manifest: 'generated/client/persisted-documents.json', only: true }, workload: { file: 'workload.jsonl' } } });
    expect(project.config.server).toEqual({ trustedDocuments: { manifest: join(project.root, 'generated/client/persisted-documents.json'), only: true }, workload: { file: join(project.root, 'workload.jsonl') } });
    const absolute = await load({ schema: 'schema.graphql', server: { trustedDocuments: { manifest: '/srv/manifest.json' }, workload: { collection: 'docjoin_workload' } } });
    expect(absolute.config.server).toEqual({ trustedDocuments: { manifest: '/srv/manifest.json' }, workload: { collection: 'docjoin_workload' } });
  });

  it('takes the writes option', async () => {
    expect((await load({ schema: 'schema.graphql', writes: { transactions: 'never' } })).config.writes).toEqual({ transactions: 'never' });
  });

  it.each([
    [{ writes: { transactions: 'sometimes' } }, 'docjoin.config.json: writes must be { transactions?: \'auto\' | \'never\' }, got {"transactions":"sometimes"}'],
    [{ writes: { retries: 3 } }, 'docjoin.config.json: unknown key "writes.retries"; the keys of writes are transactions'],
    [{ write: {} }, 'docjoin.config.json: unknown key "write" (did you mean "writes"?); the keys are schema, resolvers, writePlans, writes, mongodb, server, codegen, seed'],
    [{ plugins: [] }, 'docjoin.config.json: unknown key "plugins"; the keys are schema, resolvers, writePlans, writes, mongodb, server, codegen, seed'],
    [{ server: { hots: '127.0.0.1' } }, 'docjoin.config.json: unknown key "server.hots" (did you mean "host"?); the keys of server are port, host, cors,'],
    [{ server: { limits: { maxDepht: 4 } } }, 'docjoin.config.json: unknown key "server.limits.maxDepht" (did you mean "maxDepth"?); the keys of server.limits are maxRoundTrips, maxDocuments, maxDepth, maxResponseNodes'],
    [{ server: { cors: { origins: ['https://app.example'] } } }, 'docjoin.config.json: unknown key "server.cors.origins" (did you mean "origin"?); the keys of server.cors are origin, credentials'],
    [{ server: { workload: { fiel: 'w.jsonl' } } }, 'docjoin.config.json: unknown key "server.workload.fiel" (did you mean "file"?)'],
    [{ mongodb: { url: 'mongodb://localhost' } }, 'docjoin.config.json: unknown key "mongodb.url" (did you mean "uri"?); the keys of mongodb are uri, db'],
    [{ codegen: { output: 'x' } }, 'docjoin.config.json: unknown key "codegen.output"; the keys of codegen are publicSchema, config, costDirectives'],
    [{ codegen: { costDirectives: 'yes' } }, 'docjoin.config.json: codegen.costDirectives must be true or false, got "yes"'],
    [{ server: 5 }, 'docjoin.config.json: server must be { port?, host?, limits?, … } (createGateway\'s settings), got 5'],
    [{ server: [] }, 'docjoin.config.json: server must be { port?, host?, limits?, … } (createGateway\'s settings), got []'],
    [{ mongodb: [] }, 'docjoin.config.json: mongodb must be { uri?, db? }, got []'],
    [{ writePlans: 5 }, 'docjoin.config.json: writePlans must be { mutationField: [steps] }, got 5'],
  ])('refuses %j in one line', async (config, message) => {
    await expect(load({ schema: 'schema.graphql', ...config })).rejects.toThrow(message);
  });

  it("reads on where the keys are the user's own (resolvers, write plans) and where a value is no object", async () => {
    const project = await load({ schema: 'schema.graphql', server: { cors: true, workload: false, limits: { maxDepth: 4 } }, mongodb: { db: 'shop' } });
    expect(project.config.server).toEqual({ cors: true, workload: false, limits: { maxDepth: 4 } });
  });
});

describe('a config module without a default export', () => {
  const loadModule = async (file: string, text: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-project-'));
    folders.push(folder);
    writeFileSync(join(folder, 'schema.graphql'), 'type Query { hello: String }');
    writeFileSync(join(folder, file), text);
    return loadProject({ cwd: folder });
  };

  it('is refused, naming what it exports instead: its settings would be lost without a word', async () => {
    await expect(loadModule('docjoin.config.mjs', '')).rejects.toThrow("docjoin.config.mjs has no default export: write export default defineConfig({ schema: 'schema' })");
    // `export const config = …` as TypeScript compiles it to CommonJS.
    await expect(loadModule('docjoin.config.cjs', "Object.defineProperty(exports, '__esModule', { value: true });\nexports.config = { schema: 'schema.graphql', mongodb: { db: 'shop' } };\n")).rejects.toThrow(
      "docjoin.config.cjs has no default export (it exports config): write export default defineConfig({ schema: 'schema' })",
    );
  });

  it('says a default export of undefined is no object, not that there is none', async () => {
    await expect(loadModule('docjoin.config.cjs', "exports.default = process.env.NO_SUCH_VARIABLE ? { schema: 'schema.graphql' } : undefined;\n")).rejects.toThrow(
      "docjoin.config.cjs must export an object (export default defineConfig({ schema: 'schema' })), got undefined",
    );
  });

  it('reads a CommonJS module.exports as the config', async () => {
    expect((await loadModule('docjoin.config.cjs', "module.exports = { schema: 'schema.graphql', mongodb: { db: 'shop' } };\n")).config.mongodb).toEqual({ db: 'shop' });
  });
});

describe('two config files in one folder', () => {
  it('are refused in one line, rather than one read and the other ignored; --config picks one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-project-'));
    folders.push(folder);
    writeFileSync(join(folder, 'schema.graphql'), 'type Query { hello: String }');
    writeFileSync(join(folder, 'docjoin.config.cjs'), "module.exports = { schema: 'schema.graphql', mongodb: { db: 'shop' } };\n");
    writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
    await expect(loadProject({ cwd: folder })).rejects.toThrow(
      `${folder} holds docjoin.config.cjs and docjoin.config.json: docjoin reads one config; merge them into one file and remove the other, or pass --config FILE`,
    );
    expect((await loadProject({ cwd: folder, configPath: 'docjoin.config.cjs' })).config.mongodb).toEqual({ db: 'shop' });
  });
});

describe('--config naming a folder', () => {
  it('is refused in one line naming the config file inside it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-project-'));
    folders.push(folder);
    writeFileSync(join(folder, 'schema.graphql'), 'type Query { hello: String }');
    await expect(loadProject({ cwd: tmpdir(), configPath: folder })).rejects.toThrow(`--config: ${folder} is a folder; pass the config file (docjoin.config.ts, .mjs, .js, .cjs or .json)`);
    writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
    await expect(loadProject({ cwd: tmpdir(), configPath: folder })).rejects.toThrow(`--config: ${folder} is a folder; pass the config file, e.g. --config ${join(folder, 'docjoin.config.json')}`);
  });
});

it('refuses --schema with no path (--schema "") in one line, rather than an empty schema without a Query type', async () => {
  await expect(loadProject({ cwd: tmpdir(), schemaPaths: [] })).rejects.toThrow('--schema: no path given; pass SDL files or folders, comma-separated');
});
