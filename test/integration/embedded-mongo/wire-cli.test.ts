import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort } from './support/free-port';

/** `npm run mongo` = `tsx src/embedded-mongo/cli.ts`, run here as a real child process. */
const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'src/embedded-mongo/cli.ts');

function startCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root });
}

async function collect(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Resolves with the first `mongodb://` line the CLI prints. */
function printedUri(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => candidate.startsWith('mongodb://'));
      if (line) resolve(line.trim());
    });
    child.once('exit', () => reject(new Error(`cli exited before printing a URI: ${seen}`)));
  });
}

describe('npm run mongo (cli.ts)', () => {
  it('prints a URI the driver can use and exits 0 on SIGTERM', async () => {
    const child = startCli(['--latency-ms', '0']);
    const done = collect(child);
    const uri = await printedUri(child);
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true$/);
    const client = await MongoClient.connect(uri);
    try {
      expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(uri);
  });

  it('listens on --port and delays every reply by --latency-ms', async () => {
    const port = await freePort();
    const child = startCli(['--latency-ms', '50', '--port', String(port)]);
    const done = collect(child);
    const uri = await printedUri(child);
    expect(uri).toBe(`mongodb://127.0.0.1:${port}/?directConnection=true`);
    const client = await MongoClient.connect(uri);
    try {
      const started = performance.now();
      expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
      expect(performance.now() - started).toBeGreaterThanOrEqual(49);
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('answers as a standalone mongod with --standalone', async () => {
    const child = startCli(['--standalone']);
    const done = collect(child);
    const client = await MongoClient.connect(await printedUri(child));
    try {
      const hello = await client.db('admin').command({ hello: 1 });
      expect([hello.isWritablePrimary, hello.setName]).toEqual([true, undefined]);
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('rejects a bad flag with one line on stderr and exit code 2', async () => {
    const { code, stdout, stderr } = await collect(startCli(['--port', 'abc']));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("embedded-mongo: --port needs a valid number, got 'abc'\n");
    const unknown = await collect(startCli(['--verbose']));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("embedded-mongo: unknown option '--verbose' (try --help)\n");
  });

  it('prints usage for --help and exits 0', async () => {
    const { code, stdout } = await collect(startCli(['--help']));
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run mongo -- [--port N] [--latency-ms N]');
  });
});
