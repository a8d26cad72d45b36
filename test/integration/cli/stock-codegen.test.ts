import { execFile } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_DIR, demoScratchFolder } from '../../support/demo-project';
import { FOLDER_MANIFEST } from '../../../src/codegen/folder-manifest';

const run = promisify(execFile);

/** Every file under `root`, by its path relative to `root`, with its text. */
function filesUnder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/**
 * The demo's codegen.yml is a plain graphql-codegen config: a frontend team runs the stock CLI on it
 * (reading the committed schema.public.graphql) and gets exactly the files `docjoin codegen` wrote (but
 * docjoin's own list of them, the folder's `.docjoin-codegen`).
 */
describe('the stock graphql-codegen CLI on the demo codegen.yml', () => {
  let workdir: string;

  beforeAll(() => {
    workdir = demoScratchFolder('stock-codegen-');
    for (const name of ['codegen.yml', 'schema.public.graphql', 'operations']) cpSync(join(DEMO_DIR, name), join(workdir, name), { recursive: true });
    // The plugins resolve from the project's node_modules, as they do for a team that installed them.
    symlinkSync(join(DEMO_DIR, 'node_modules'), join(workdir, 'node_modules'), 'dir');
  });

  afterAll(() => {
    if (workdir) rmSync(workdir, { recursive: true, force: true });
  });

  it('writes the same generated/ tree as docjoin codegen', async () => {
    // What `npx graphql-codegen` runs.
    const cli = join(DEMO_DIR, 'node_modules/.bin/graphql-codegen');
    await run(process.execPath, [cli, '--config', 'codegen.yml', '--silent'], { cwd: workdir, env: { ...process.env, CI: 'true' } });
    const stock = filesUnder(join(workdir, 'generated'));
    const committed = filesUnder(join(DEMO_DIR, 'generated'));
    expect(committed.delete(`client/${FOLDER_MANIFEST}`)).toBe(true);
    expect([...stock.keys()].sort()).toEqual([...committed.keys()].sort());
    for (const [path, text] of committed) expect([path, stock.get(path)]).toEqual([path, text]);
  });
});
