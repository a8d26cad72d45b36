import { SEED_USAGE } from '../../../src/seed/cli-args';
import { redactPassword, runSeedCli } from '../../../src/seed/cli';

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
    await expect(runSeedCli([], {}, io)).resolves.toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^seed: No MongoDB to seed: pass --mongo-uri URI or set MONGODB_URI\. [^\n]+\n$/);
  });

  test('an unreachable MongoDB fails with one line, exit 1, and no password in the output', async () => {
    const { io, err } = captureStreams();
    // Nothing listens on port 1; the URI's short server-selection timeout keeps the test fast.
    const uri = 'mongodb://admin:s3cret@127.0.0.1:1/?serverSelectionTimeoutMS=500';
    await expect(runSeedCli(['--mongo-uri', uri], {}, io)).resolves.toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^seed: seeding docjoin on mongodb:\/\/admin:\*\*\*@127\.0\.0\.1:1\/\?serverSelectionTimeoutMS=500 failed: [^\n]+\n$/);
    expect(err[0]).not.toContain('s3cret');
  });
});

test('redactPassword hides only the password', () => {
  expect(redactPassword('mongodb://user:pw@host:27017/db')).toBe('mongodb://user:***@host:27017/db');
  expect(redactPassword('mongodb+srv://user:p%40ss@cluster.example.net')).toBe('mongodb+srv://user:***@cluster.example.net');
  expect(redactPassword('mongodb://host:27017')).toBe('mongodb://host:27017');
});
