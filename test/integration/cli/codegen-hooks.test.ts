import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_DIR, demoScratchFolder } from '../../support/demo-project';

const run = promisify(execFile);
const CLI = resolve(DEMO_DIR, 'src/cli/bin/docjoin.ts');

/**
 * A graphql-codegen config's file hooks (a formatter after each write, most often) run under `docjoin
 * codegen` as under the stock CLI: both write the same files from the same config, and `--check`
 * compares with what the hooks leave, so it does not call the formatted files stale.
 */
/** A one-type project whose codegen.yml hooks mark each file they are given, as a formatter rewrites it. */
function hookedProject(target: string): string {
  const project = demoScratchFolder('codegen-hooks-');
  mkdirSync(join(project, 'schema'));
  mkdirSync(join(project, 'operations'));
  writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! }\ntype Query { notes: [Note!]! @list }\n');
  writeFileSync(join(project, 'operations', 'notes.graphql'), 'query Notes { notes { id text } }\n');
  writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema', codegen: { config: 'codegen.yml' } }));
  writeFileSync(join(project, 'mark.cjs'), "const fs = require('fs');\nfor (const file of process.argv.slice(2)) fs.writeFileSync(file, '// marked\\n' + fs.readFileSync(file, 'utf8'));\n");
  writeFileSync(
    join(project, 'codegen.yml'),
    [
      'schema: schema.public.graphql',
      'documents: operations/*.graphql',
      'hooks:',
      '  afterAllFileWrite: node mark.cjs',
      'generates:',
      `  ${target}:`,
      '    plugins: [typescript, typescript-operations]',
      '    hooks:',
      '      afterOneFileWrite: node mark.cjs',
      '',
    ].join('\n'),
  );
  symlinkSync(join(DEMO_DIR, 'node_modules'), join(project, 'node_modules'), 'dir');
  return project;
}

const codegenIn = (project: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', CLI, 'codegen', ...args, '--config', join(project, 'docjoin.config.json')], { cwd: project });

/** Every file under `folder`, relative to it. */
const filesUnder = (folder: string) => readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name))).sort();

describe("docjoin codegen and the codegen config's hooks", () => {
  let project: string;

  beforeAll(() => {
    project = hookedProject('generated/types.ts');
  });

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const docjoin = (...args: string[]) => codegenIn(project, ...args);

  it('writes what the stock CLI writes, hooks run, and --check then finds nothing stale', async () => {
    await docjoin();
    const written = readFileSync(join(project, 'generated/types.ts'), 'utf8');
    // The output's afterOneFileWrite, then the config's afterAllFileWrite: two marks.
    expect(written.split('\n').slice(0, 3)).toEqual(['// marked', '// marked', expect.stringMatching(/\S/)]);
    await expect(docjoin('--check')).resolves.toMatchObject({ stdout: 'codegen: 2 generated files are up to date\n' });
    rmSync(join(project, 'generated'), { recursive: true });
    await run(process.execPath, [join(DEMO_DIR, 'node_modules/.bin/graphql-codegen'), '--config', 'codegen.yml', '--silent'], { cwd: project, env: { ...process.env, CI: 'true' } });
    expect(readFileSync(join(project, 'generated/types.ts'), 'utf8')).toBe(written);
    // The scratch folder the hooks ran in is gone.
    expect(readdirSync(project).filter((name) => name.startsWith('.docjoin-codegen-'))).toEqual([]);
  });
});

/**
 * A target outside the project (a client package beside it, as in a monorepo) is written where the
 * config says; its hooks run on a copy inside the scratch folder, so neither `codegen` nor `--check`
 * leaves a stray file in the project or beside it.
 */
describe('docjoin codegen with hooks and a target outside the project', () => {
  let project: string;
  let client: string;

  beforeAll(() => {
    project = hookedProject('../client-of-this-test/types.ts');
    client = resolve(project, '../client-of-this-test');
  });

  afterAll(() => {
    for (const folder of [project, client]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('--check writes nothing, and codegen writes only the target, hooked', async () => {
    const projectFiles = filesUnder(project);
    await expect(codegenIn(project, '--check')).rejects.toMatchObject({ stderr: expect.stringContaining('../client-of-this-test/types.ts') });
    expect(filesUnder(project)).toEqual(projectFiles);
    expect(existsSync(client)).toBe(false);

    await codegenIn(project);
    expect(filesUnder(project)).toEqual([...projectFiles, 'schema.public.graphql'].sort());
    expect(filesUnder(client)).toEqual(['types.ts']);
    expect(readFileSync(join(client, 'types.ts'), 'utf8').split('\n').slice(0, 3)).toEqual(['// marked', '// marked', expect.stringMatching(/\S/)]);
    await expect(codegenIn(project, '--check')).resolves.toMatchObject({ stdout: 'codegen: 2 generated files are up to date\n' });
  });
});

describe('docjoin codegen with hooks and two targets outside the project that import each other', () => {
  let project: string;
  let client: string;

  beforeAll(() => {
    project = hookedProject('../client-of-this-test-2/types.ts');
    client = resolve(project, '../client-of-this-test-2');
    // Stands for a linter or tsc in the hook: it fails on a relative import that does not resolve beside the file.
    writeFileSync(
      join(project, 'check-imports.cjs'),
      "const fs = require('fs'); const path = require('path');\nfor (const file of process.argv.slice(2)) for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/from '(\\.[^']+)'/g)) if (!fs.existsSync(path.resolve(path.dirname(file), spec + '.ts'))) { console.error(file + ': cannot resolve ' + spec); process.exit(1); }\n",
    );
    const config = readFileSync(join(project, 'codegen.yml'), 'utf8');
    writeFileSync(
      join(project, 'codegen.yml'),
      config.replace('  afterAllFileWrite: node mark.cjs', '  afterAllFileWrite: node check-imports.cjs') +
        ['  ../client-of-this-test-2/notes/text.ts:', '    plugins:', '      - add: { content: "import type { Note } from \'../types\';\\nexport type NoteText = Note[\'text\'];" }', ''].join('\n'),
    );
  });

  afterAll(() => {
    for (const folder of [project, client]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('runs the hooks on copies laid out as the targets are, so one finds the other', async () => {
    await codegenIn(project);
    expect(filesUnder(client)).toEqual(['notes/text.ts', 'types.ts']);
    expect(readFileSync(join(client, 'notes', 'text.ts'), 'utf8')).toContain("import type { Note } from '../types';");
  });
});
