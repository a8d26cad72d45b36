import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCJOIN_USAGE, runDocjoinCli } from '../../../src/cli/docjoin';
import { SEED_USAGE } from '../../../src/cli/seed/seed-args';
import { MIGRATE_USAGE } from '../../../src/migrate/migrate-args';
import { RECONCILE_USAGE } from '../../../src/reconcile/cli-args';
import { SERVE_USAGE } from '../../../src/cli/serve/serve-args';
import { DEMO_CONFIG } from '../../support/demo-project';
import { captureIo } from './capture-io';

describe('docjoin <command>', () => {
  it('--help lists every command', async () => {
    const { io, out } = captureIo();
    expect(await runDocjoinCli(['--help'], {}, io)).toBe(0);
    expect(out()).toBe(`${DOCJOIN_USAGE}\n`);
    for (const command of ['serve', 'seed', 'explain', 'reconcile', 'advise', 'migrate', 'codegen', 'init', 'mongo']) expect(DOCJOIN_USAGE).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it.each([
    [['serve', '--help'], SERVE_USAGE],
    [['seed', '-h'], SEED_USAGE],
    [['reconcile', '--help'], RECONCILE_USAGE],
    [['migrate', '--help'], MIGRATE_USAGE],
  ])('%j hands the arguments to the command', async (argv, usage) => {
    const { io, out } = captureIo();
    expect(await runDocjoinCli(argv, {}, io)).toBe(0);
    expect(out()).toBe(`${usage}\n`);
  });

  it.each([
    [[], 'docjoin: no command given; the commands are serve, explain, reconcile, advise, migrate, codegen, seed, init, mongo (try docjoin --help)'],
    [['start'], 'docjoin: unknown command "start"; the commands are serve, explain, reconcile, advise, migrate, codegen, seed, init, mongo (try docjoin --help)'],
    [['toString'], 'docjoin: unknown command "toString"; the commands are serve, explain, reconcile, advise, migrate, codegen, seed, init, mongo (try docjoin --help)'],
    [['serv'], 'docjoin: unknown command "serv" (did you mean serve?); the commands are serve, explain, reconcile, advise, migrate, codegen, seed, init, mongo (try docjoin --help)'],
    [['seed', '--scale', 'lots'], 'seed: --scale must be a positive number, got "lots"'],
    [['reconcile', '--batch-size', '0'], 'reconcile: --batch-size must be an integer from 1 to 100000, got "0"'],
    [['migrate', '--widen', 'Book'], 'migrate: --widen must be Type.field, e.g. --widen Book.authors, got "Book"'],
    [['seed', '--config', DEMO_CONFIG], expect.stringMatching(/^seed: No MongoDB to seed: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb\.uri\. /)],
    [['serve', '--config', 'nowhere/docjoin.config.mjs'], 'docjoin: --config: nowhere/docjoin.config.mjs does not exist'],
    [['seed', '--schema', 'nowhere/'], 'seed: --schema: nowhere/ does not exist; pass SDL files or folders, comma-separated'],
    [['explain', '{ __typename }', '--schema', `${DEMO_CONFIG},/nonexistent/schema.graphql`], 'explain: --schema: /nonexistent/schema.graphql does not exist; pass SDL files or folders, comma-separated'],
    [['serve', '--port', '-1'], 'serve: --port must be an integer from 0 to 65535, got "-1"'],
  ])('%j exits 2 with one line on stderr', async (argv, line) => {
    const { io, err } = captureIo();
    expect(await runDocjoinCli(argv, { MONGODB_URI: argv[0] === 'seed' && argv.length === 3 ? '' : 'mongodb://localhost:1' }, io)).toBe(2);
    expect(err().split('\n')).toEqual([line, '']);
  });

  it.each([
    ['serve', ['--port', '0']],
    ['explain', ['{ __typename }']],
    ['seed', []],
    ['reconcile', []],
    ['advise', []],
    ['migrate', ['--widen', 'Note.owner', '--fields', 'name']],
    ['codegen', ['--check']],
  ])('%s refuses a misspelt directive argument with exit 2 and a line for each problem, naming the file, line and Type.field', async (command, args) => {
    const dir = mkdtempSync(join(tmpdir(), 'docjoin-sdl-'));
    writeFileSync(join(dir, 'schema.graphql'), 'type Query { notes: [Note!]! @list }\ntype Note @collection(name: "notes") {\n  id: ID!\n  owner: User @join(localFeild: "ownerId")\n}\ntype User @collection(name: "users") { id: ID! name: String! }\n');
    writeFileSync(join(dir, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
    const { io, err } = captureIo();
    expect(await runDocjoinCli([command, ...args, '--config', join(dir, 'docjoin.config.json')], { MONGODB_URI: 'mongodb://localhost:1' }, io)).toBe(2);
    const file = join(dir, 'schema.graphql');
    expect(err()).toMatch(
      new RegExp(`^${command === 'serve' ? 'docjoin' : command}: The schema has 2 errors:\\n  - ${file}:4:21 \\(Note\\.owner\\): Unknown argument "localFeild" on directive "@join"\\. Did you mean "localField"\\?\\n  - ${file}:4:15 \\(Note\\.owner\\): Directive "@join" argument "localField" of type "String!" is required, but it was not provided\\.\\n$`),
    );
  });

  it('serve refuses a schema mistake at start with exit 2, naming Type.field and the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docjoin-serve-'));
    writeFileSync(join(dir, 'schema.graphql'), 'type Query { notes: [Note!]! }\ntype Note @collection(name: "notes") { id: ID! }\n');
    // A project of its own: the repository's top level is the demo's.
    writeFileSync(join(dir, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
    const { io, err } = captureIo();
    expect(await runDocjoinCli(['serve', '--port', '0', '--config', join(dir, 'docjoin.config.json')], {}, io)).toBe(2);
    expect(err()).toBe('docjoin: Invalid storage directives:\n  - Query.notes: no resolver; add @find or @list to generate it, or pass a resolver for Query.notes\n');
  });
});

describe('docjoin codegen --check', () => {
  it('counts what it compared in words that agree with the count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docjoin-codegen-check-'));
    writeFileSync(join(dir, 'schema.graphql'), 'type Query { notes: [Note!]! @list }\ntype Note @collection(name: "notes") { id: ID! text: String! }\n');
    // No graphql-codegen config: the public schema is the one file generated.
    writeFileSync(join(dir, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql' }));
    const written = captureIo();
    expect(await runDocjoinCli(['codegen', '--config', join(dir, 'docjoin.config.json')], {}, written.io)).toBe(0);
    expect(written.out()).toBe('wrote schema.public.graphql\n');
    const checked = captureIo();
    expect(await runDocjoinCli(['codegen', '--check', '--config', join(dir, 'docjoin.config.json')], {}, checked.io)).toBe(0);
    expect(checked.out()).toBe('codegen: the 1 generated file is up to date\n');
  });
});
