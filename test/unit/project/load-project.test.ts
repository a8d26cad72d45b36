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
  it('takes the writes option', async () => {
    expect((await load({ schema: 'schema.graphql', writes: { transactions: 'never' } })).config.writes).toEqual({ transactions: 'never' });
  });

  it.each([
    [{ writes: { transactions: 'sometimes' } }, 'docjoin.config.json: writes must be { transactions?: \'auto\' | \'never\' }, got {"transactions":"sometimes"}'],
    [{ writes: { retries: 3 } }, 'docjoin.config.json: writes must be { transactions?: \'auto\' | \'never\' }, got {"retries":3}'],
    [{ write: {} }, 'docjoin.config.json: unknown key "write"; the keys are schema, resolvers, writePlans, writes, mongodb, server, codegen, seed'],
  ])('refuses %j in one line', async (config, message) => {
    await expect(load({ schema: 'schema.graphql', ...config })).rejects.toThrow(message);
  });
});
