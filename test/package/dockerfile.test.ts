import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOutsideDocker, parseDockerfile, type BuiltImage } from '../support/dockerfile-runner';

/**
 * The Dockerfile, checked without Docker (which cannot run here): its instructions run outside a
 * container (test/support/dockerfile-runner.ts), then its CMD serves the demo from compiled JavaScript
 * with NODE_ENV=production, answers a query, and stops cleanly on SIGTERM.
 */
const REPO = resolve(__dirname, '../..');
let workDir: string;
let image: BuiltImage;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'docjoin-docker-'));
  image = await buildOutsideDocker(join(REPO, 'Dockerfile'), REPO, workDir);
}, 600_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Runs a command of the image in its workdir and environment (plus `env`), resolving its exit code. */
function run(command: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<number | null> {
  const child = spawn(command, args, { cwd: image.workdir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...image.env, ...env }, stdio: 'ignore' });
  return new Promise((done) => child.on('close', done));
}

it('builds in two stages and runs node on the compiled CLI, in production, as an unprivileged user', () => {
  const stages = parseDockerfile(require('node:fs').readFileSync(join(REPO, 'Dockerfile'), 'utf8') as string);
  expect(stages.map((stage) => [stage.name, stage.image])).toEqual([
    ['build', 'node:20-bookworm-slim'],
    [undefined, 'node:20-bookworm-slim'],
  ]);
  expect(stages[1]!.instructions).toContainEqual({ keyword: 'USER', args: 'node' });
  expect(image.env).toEqual({ NODE_ENV: 'production' });
  expect(image.cmd).toEqual(['node', 'node_modules/docjoin/dist/cli/bin/docjoin.js', 'serve']);
  expect(image.exposed).toEqual([4000]);
});

it('ships no TypeScript toolchain: no tsx, no typescript, no .ts sources in the app', () => {
  for (const name of ['tsx', 'typescript', 'ts-node']) expect([name, existsSync(join(image.workdir, 'node_modules', name))]).toEqual([name, false]);
  expect(existsSync(join(image.workdir, 'docjoin.config.js'))).toBe(true);
  expect(existsSync(join(image.workdir, 'docjoin.config.ts'))).toBe(false);
  expect(existsSync(join(image.workdir, 'node_modules/docjoin/ide/dist/main.js'))).toBe(true);
});

it('its CMD serves the demo, hides the MongoDB host from /health, and drains on SIGTERM', async () => {
  const [command, ...args] = image.cmd;
  const child = spawn(command!, args, { cwd: image.workdir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...image.env, PORT: '0' } });
  let printed = '';
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  try {
    const url = await new Promise<string>((found, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /"graphql":"(http:\/\/localhost:\d+\/graphql)"/.exec(printed);
        if (match) found(match[1]!);
      });
      child.on('close', (code) => fail(new Error(`the image's CMD exited with ${code}:\n${printed}`)));
    });
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ books(first: 1) { name authors { name } } }' }) });
    const body = (await response.json()) as { data: { books: Array<{ name: string }> }; extensions: { cost: { roundTrips: number } } };
    expect(body.data.books).toEqual([{ name: 'Indexing in Action', authors: [{ name: 'Yukihiro Hamilton' }, { name: 'Ida Kernighan' }, { name: 'Adele Goldwasser' }] }]);
    expect(body.extensions.cost.roundTrips).toBe(1);
    // The image runs in production: /health answers the status only.
    expect(await (await fetch(url.replace('/graphql', '/health'))).json()).toEqual({ status: 'ok' });
    // Its HEALTHCHECK passes against the server, and fails where nothing answers.
    const [check, ...checkArgs] = image.healthcheck!;
    const port = new URL(url).port;
    const healthy = await run(check!, checkArgs, { PORT: port });
    const nothing = await run(check!, checkArgs, { PORT: '1' });
    expect([healthy, nothing]).toEqual([0, 1]);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(printed).toContain('"msg":"stopped"');
}, 120_000);
