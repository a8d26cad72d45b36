import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadProject } from 'docjoin';
import { loadConfig } from '../../src/config/config';
import { startServer, type RunningServer } from '../../src/server/start-server';
import { DEMO_DIR } from '../support/demo-project';
import { testEstimateViolations } from '../support/checked-gateway';

/**
 * The README's curl commands (Try it, and each step of the tour), run as written against the demo
 * server (`npm start`'s, on a free port instead of 4000), in order: each answers with data and the cost
 * the README shows next to it.
 */
const run = promisify(execFile);
const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');
const CURLS = [...README.matchAll(/```sh\n(curl [\s\S]*?)```/g)].map((match) => match[1]!.replace(/\\\n\s*/g, ' ').trim());

let server: RunningServer;
beforeAll(async () => {
  const project = await loadProject({ cwd: DEMO_DIR });
  server = await startServer(loadConfig({ PORT: '0' }, {}, project.config), project, { onEstimateViolation: testEstimateViolations.record });
}, 120_000);
afterAll(() => server?.stop());

async function curl(command: string): Promise<{ data: Record<string, unknown>; extensions: { cost: { roundTrips: number; fields: Record<string, { strategy: string }> } } }> {
  const { stdout } = await run('sh', ['-c', command.replace('localhost:4000', `localhost:${server.gateway.port}`)]);
  return JSON.parse(stdout) as never;
}

it('the README has a curl command for Try it and each step of the tour', () => {
  expect(CURLS).toHaveLength(4);
  for (const command of CURLS) expect(command).toMatch(/^curl -s localhost:4000\/graphql -H 'content-type: application\/json'/);
});

it('each answers as the README says, in order', async () => {
  const [tryIt, tour, switched, rename] = CURLS as [string, string, string, string];
  const first = await curl(tryIt);
  expect((first.data.books as Array<{ name: string }>)[0]!.name).toBe('Indexing in Action');
  expect(first.extensions.cost.roundTrips).toBe(2);
  const snapshot = await curl(tour);
  expect([snapshot.extensions.cost.roundTrips, snapshot.extensions.cost.fields['Book.authors']?.strategy]).toEqual([1, 'snapshot']);
  const joined = await curl(switched);
  expect([joined.extensions.cost.roundTrips, joined.extensions.cost.fields['Book.authors']?.strategy]).toEqual([2, 'join']);
  expect(joined.data).toEqual(snapshot.data);
  const renamed = await curl(rename);
  expect(renamed.data).toEqual({ renameAuthor: { name: 'Grace Hopper', countOfBooks: 10 } });
  const again = await curl(tour);
  expect((again.data.books as Array<{ authors: Array<{ name: string }> }>)[0]!.authors.map((author) => author.name)).toContain('Grace Hopper');
  expect(again.extensions.cost.roundTrips).toBe(1);
}, 60_000);
