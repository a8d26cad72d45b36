import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_DIR, demoScratchFolder } from '../../support/demo-project';

const run = promisify(execFile);
const CLI = resolve(DEMO_DIR, 'src/cli/bin/docjoin.ts');

/**
 * A graphql-codegen config's file hooks (a formatter after each write, most often) run under `docjoin
 * codegen` as under the stock CLI: both write the same files from the same config, and `--check`
 * compares with what the hooks leave, so it does not call the formatted files stale.
 */
describe("docjoin codegen and the codegen config's hooks", () => {
  let project: string;

  beforeAll(() => {
    project = demoScratchFolder('codegen-hooks-');
    mkdirSync(join(project, 'schema'));
    mkdirSync(join(project, 'operations'));
    writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! }\ntype Query { notes: [Note!]! @list }\n');
    writeFileSync(join(project, 'operations', 'notes.graphql'), 'query Notes { notes { id text } }\n');
    writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema', codegen: { config: 'codegen.yml' } }));
    // Marks a file the way a formatter rewrites it: in place, given its path.
    writeFileSync(join(project, 'mark.cjs'), "const fs = require('fs');\nfor (const file of process.argv.slice(2)) fs.writeFileSync(file, '// marked\\n' + fs.readFileSync(file, 'utf8'));\n");
    writeFileSync(
      join(project, 'codegen.yml'),
      [
        'schema: schema.public.graphql',
        'documents: operations/*.graphql',
        'hooks:',
        '  afterAllFileWrite: node mark.cjs',
        'generates:',
        '  generated/types.ts:',
        '    plugins: [typescript, typescript-operations]',
        '    hooks:',
        '      afterOneFileWrite: node mark.cjs',
        '',
      ].join('\n'),
    );
    symlinkSync(join(DEMO_DIR, 'node_modules'), join(project, 'node_modules'), 'dir');
  });

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const docjoin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', CLI, 'codegen', ...args, '--config', join(project, 'docjoin.config.json')], { cwd: project });

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
