import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runInitCli } from '../../../../src/cli/init/run-init';
import { packageNameOf } from '../../../../src/cli/init/project-files';
import { captureIo } from '../capture-io';

describe('docjoin init (the scaffold)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'docjoin-scaffold-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('writes the example project once, then refuses to overwrite it', async () => {
    const first = captureIo();
    expect(await runInitCli([folder], {}, first.io)).toBe(0);
    expect(first.out().split('\n').slice(0, 4)).toEqual(['wrote docjoin.config.mjs', 'wrote schema/schema.graphql', 'wrote seed.mjs', 'added npm scripts start, explain, reconcile, codegen to package.json']);
    for (const path of ['docjoin.config.mjs', 'schema/schema.graphql', 'seed.mjs', 'package.json']) expect(existsSync(join(folder, path))).toBe(true);
    // A new package.json is named after its folder, as npm init names it.
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name).toBe(packageNameOf(folder));
    expect([packageNameOf('/x/My Clinic'), packageNameOf('/x/_api.v2'), packageNameOf('/x/..')]).toEqual(['my-clinic', 'api.v2', 'docjoin-project']);

    const second = captureIo();
    expect(await runInitCli([folder], {}, second.io)).toBe(2);
    expect(second.err()).toBe(`init: docjoin.config.mjs, schema/schema.graphql, seed.mjs already exist in ${folder}; run init in an empty folder, or remove them first\n`);
  });

  test('refuses, writing nothing, a schema folder holding SDL already (the config would serve it beside the new schema) and a package.json that is no JSON object', async () => {
    mkdirSync(join(folder, 'schema'));
    writeFileSync(join(folder, 'schema', 'legacy.graphql'), 'type Query { a: Int }\n');
    const beside = captureIo();
    expect(await runInitCli([folder], {}, beside.io)).toBe(2);
    expect(beside.err()).toBe(`init: schema/legacy.graphql already exists in ${folder}; run init in an empty folder, or remove it first\n`);
    rmSync(join(folder, 'schema'), { recursive: true });
    writeFileSync(join(folder, 'schema'), 'not a folder');
    const file = captureIo();
    expect(await runInitCli([folder], {}, file.io)).toBe(2);
    expect(file.err()).toBe(`init: schema already exists in ${folder}; run init in an empty folder, or remove it first\n`);
    rmSync(join(folder, 'schema'));
    writeFileSync(join(folder, 'package.json'), '{ "name": "mine", }');
    const broken = captureIo();
    expect(await runInitCli([folder], {}, broken.io)).toBe(2);
    expect(broken.err()).toBe(`init: ${join(folder, 'package.json')} is no JSON object, so its npm scripts cannot be added; fix it, or remove it first\n`);
    // Scripts that are no object would be spread into numbered keys.
    writeFileSync(join(folder, 'package.json'), '{ "name": "mine", "scripts": "x" }');
    const scripts = captureIo();
    expect(await runInitCli([folder], {}, scripts.io)).toBe(2);
    expect(scripts.err()).toBe(`init: ${join(folder, 'package.json')} has "scripts" that are no object, so its npm scripts cannot be added; fix it, or remove it first\n`);
    expect(readFileSync(join(folder, 'package.json'), 'utf8')).toBe('{ "name": "mine", "scripts": "x" }');
    expect(['docjoin.config.mjs', 'schema', 'seed.mjs'].filter((path) => existsSync(join(folder, path)))).toEqual([]);
  });

  test('refuses, in one line and writing nothing, a project folder that is a file, or would be made under one', async () => {
    const file = join(folder, 'f');
    writeFileSync(file, '');
    for (const [target, named] of [[file, file], [join(file, 'sub', 'app'), file]] as const) {
      const { io, err } = captureIo();
      expect(await runInitCli([target], {}, io)).toBe(2);
      expect(err()).toBe(`init: ${named} is a file, not a folder; name a folder for the project (made if missing)\n`);
    }
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  test('names in its next steps only the packages the folder lacks: none once they are installed', async () => {
    const bare = captureIo();
    expect(await runInitCli([folder], {}, bare.io)).toBe(0);
    // Written elsewhere than the working folder: the first step goes there.
    expect(bare.out()).toContain(`\nNext:\n  cd ${relative(process.cwd(), folder)}\n  npm install path/to/docjoin-0.1.0.tgz graphql @apollo/server mongodb   # the tarball npm pack writes in docjoin\n  npm start `);
    const installed = mkdtempSync(join(tmpdir(), 'docjoin-scaffold-'));
    try {
      for (const name of ['docjoin', 'graphql', '@apollo/server']) {
        mkdirSync(join(installed, 'node_modules', name), { recursive: true });
        writeFileSync(join(installed, 'node_modules', name, 'package.json'), '{}');
      }
      const some = captureIo();
      expect(await runInitCli([installed], {}, some.io)).toBe(0);
      expect(some.out()).toContain(`\nNext:\n  cd ${relative(process.cwd(), installed)}\n  npm install mongodb\n  npm start `);
      mkdirSync(join(installed, 'node_modules', 'mongodb'));
      writeFileSync(join(installed, 'node_modules', 'mongodb', 'package.json'), '{}');
      rmSync(join(installed, 'docjoin.config.mjs'));
      rmSync(join(installed, 'schema'), { recursive: true });
      rmSync(join(installed, 'seed.mjs'));
      const all = captureIo();
      expect(await runInitCli([installed], {}, all.io)).toBe(0);
      expect(all.out()).toContain(`\nNext:\n  cd ${relative(process.cwd(), installed)}\n  npm start `);
    } finally {
      rmSync(installed, { recursive: true, force: true });
    }
  });

  test('starts its next steps with the cd into the project, quoted for the shell, unless it was written in the working folder', async () => {
    const before = process.cwd();
    process.chdir(folder);
    try {
      const spaced = captureIo();
      expect(await runInitCli(["it's mine"], {}, spaced.io)).toBe(0);
      expect(spaced.out()).toContain(`\nNext:\n  cd 'it'\\''s mine'\n  npm install `);
      mkdirSync('here');
      process.chdir('here');
      const here = captureIo();
      expect(await runInitCli([], {}, here.io)).toBe(0);
      expect(here.out()).toContain('\nNext:\n  npm install ');
    } finally {
      process.chdir(before);
    }
  });

  test('keeps a start script of the project\'s own, and then names docjoin serve as the next step, not npm start', async () => {
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'clinic', scripts: { start: 'node app.js', codegen: 'docjoin codegen' } }));
    const kept = captureIo();
    expect(await runInitCli([folder], {}, kept.io)).toBe(0);
    expect(kept.out()).toContain('\nadded npm scripts explain, reconcile to package.json (kept its own start)\n');
    expect(kept.out()).toContain('\n  npx docjoin serve          # the embedded MongoDB');
    expect(kept.out()).not.toContain('npm start');
  });

  test('--help prints both forms; a stray option is one line, exit 2', async () => {
    const help = captureIo();
    expect(await runInitCli(['--help'], {}, help.io)).toBe(0);
    expect(help.out()).toContain('docjoin init --from-mongo URI [--db NAME] [--sample N] [folder]');
    const stray = captureIo();
    expect(await runInitCli(['--fix'], {}, stray.io)).toBe(2);
    expect(stray.err()).toBe('init: unknown option --fix (try --help)\n');
  });
});
