import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEED_USAGE } from '../../../src/cli/seed/seed-args';
import { runSeedCli } from '../../../src/cli/seed/run-seed';
import { DEMO_CONFIG, DEMO_DIR } from '../../support/demo-project';

function captureStreams() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: { write: (t: string) => out.push(t) }, err: { write: (t: string) => err.push(t) } },
    out,
    err,
  };
}

describe('runSeedCli without a database', () => {
  test('--help prints the usage to stdout and exits 0', async () => {
    const { io, out, err } = captureStreams();
    await expect(runSeedCli(['--help'], {}, io)).resolves.toBe(0);
    expect(out).toEqual([`${SEED_USAGE}\n`]);
    expect(err).toEqual([]);
  });

  test('a bad argument prints one line to stderr and exits 2', async () => {
    const { io, out, err } = captureStreams();
    await expect(runSeedCli(['--scale', 'lots'], { MONGODB_URI: 'mongodb://x' }, io)).resolves.toBe(2);
    expect(err).toEqual(['seed: --scale must be a positive number, got "lots"\n']);
    expect(out).toEqual([]);
  });

  test('no MongoDB given exits 2 with the one-line explanation', async () => {
    const { io, err } = captureStreams();
    await expect(runSeedCli(['--config', DEMO_CONFIG], {}, io)).resolves.toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^seed: No MongoDB to seed: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb\.uri\. [^\n]+\n$/);
  });

  test('a project without a seed function exits 2 naming the fix', async () => {
    const { io, err } = captureStreams();
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-no-seed-'));
    const config = join(folder, 'docjoin.config.json');
    try {
      writeFileSync(config, JSON.stringify({ schema: join(DEMO_DIR, 'schema') }));
      await expect(runSeedCli(['--config', config, '--mongo-uri', 'mongodb://127.0.0.1:1'], {}, io)).resolves.toBe(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(err).toEqual([`seed: ${config} has no seed function; add seed: async (db, { scale, onProgress }) => { … } to it\n`]);
  });

  test('an unreachable MongoDB fails with one line, exit 1, and no password in the output', async () => {
    const { io, err } = captureStreams();
    // Nothing listens on port 1; the URI's short server-selection timeout keeps the test fast.
    const uri = 'mongodb://admin:s3cret@127.0.0.1:1/?serverSelectionTimeoutMS=500';
    await expect(runSeedCli(['--mongo-uri', uri, '--config', DEMO_CONFIG], {}, io)).resolves.toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^seed: seeding docjoin on mongodb:\/\/\*\*\*@127\.0\.0\.1:1\/\?serverSelectionTimeoutMS=500 failed: [^\n]+\n$/);
    expect(err[0]).not.toContain('s3cret');
  });
});
