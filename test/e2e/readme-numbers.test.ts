import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProject, type Project } from 'docjoin';
import { runAdviseCli } from '../../src/advise/cli';
import { runExplainCli } from '../../src/cli/explain/run-explain';
import { loadConfig, type DocjoinConfig } from '../../src/config/config';
import { startServer, type RunningServer } from '../../src/server/start-server';
import { testEstimateViolations } from '../support/checked-gateway';
import { DEMO_CONFIG, DEMO_DIR } from '../support/demo-project';
import { blockAbove, excerptMismatch, paragraphAbove, parseCurl, parseJsonSample, readmeSamples, shellWords, type ReadmeSample } from '../support/readme-samples';
import { captureIo } from '../unit/cli/capture-io';

/**
 * Every README sample of what docjoin computes (a response's cost, explain's and advise's output), marked
 * `<!-- readme-sample: NAME -->`, made again: the request the README shows for it runs against the demo
 * as `npm start` serves it (the embedded server seeded at the default scale), and every number shown
 * must be the one docjoin gives. Only what varies from run to run is left out, by name below.
 */

/** A response to the request shown above the sample. */
interface ResponseSample {
  readonly kind: 'response';
  /** The curl command above the sample, or the query of the graphql block above it with the headers the text names. */
  readonly request: { readonly curl: 'above' } | { readonly graphql: 'above'; readonly headers: Readonly<Record<string, string>> };
  /** Where the sample's members are in the response body. */
  readonly at: readonly string[];
  /** `every`: each object shown is whole; `shown`: trimmed to some of its members, as the README says. */
  readonly members: 'every' | 'shown';
}

/** The output of the `$ npm run explain -- …` line the sample starts with. */
interface ExplainSample {
  readonly kind: 'explain';
}

/** advise's output after the workload the text above the sample describes. */
interface AdviseSample {
  readonly kind: 'advise';
}

type HowToMake = ResponseSample | ExplainSample | AdviseSample;

const STRATEGY_JOIN = { 'x-docjoin-strategy': 'Book.authors=join' };

/**
 * In the order they run: every sample shows the data as seeded, so the two that write (advise's host
 * renames, the tour's author rename) come last.
 */
const SAMPLES: ReadonlyArray<readonly [string, HowToMake]> = [
  ['try-it', { kind: 'response', request: { curl: 'above' }, at: [], members: 'every' }],
  ['tour-snapshot', { kind: 'response', request: { curl: 'above' }, at: [], members: 'shown' }],
  ['tour-join', { kind: 'response', request: { curl: 'above' }, at: ['extensions'], members: 'shown' }],
  ['explain', { kind: 'explain' }],
  ['explain-plan', { kind: 'explain' }],
  ['cost', { kind: 'response', request: { graphql: 'above', headers: {} }, at: [], members: 'every' }],
  // "Send the same query with the header `x-docjoin-strategy: Book.authors=join`"
  ['cost-join', { kind: 'response', request: { graphql: 'above', headers: STRATEGY_JOIN }, at: ['extensions'], members: 'every' }],
  // "Add `x-docjoin-cost: commands`" to the request above
  ['cost-commands', { kind: 'response', request: { graphql: 'above', headers: { ...STRATEGY_JOIN, 'x-docjoin-cost': 'commands' } }, at: ['extensions', 'cost'], members: 'every' }],
  ['explain-run', { kind: 'explain' }],
  ['advise', { kind: 'advise' }],
  ['tour-rename', { kind: 'response', request: { curl: 'above' }, at: ['extensions', 'cost'], members: 'every' }],
];

/** Members of a response whose value changes from run to run: any number passes. */
const VARYING_MEMBERS = new Set(['durationMs']);
/** The same in the CLI's output: how long `explain --run`'s operation took. */
/** Measured times, which vary from run to run: compared as placeholders. */
const VARYING_TEXT = [
  { pattern: /, \d+\.\d ms; /g, as: ', <duration> ms; ' },
  { pattern: /MongoDB time per 1,000 operations [\d,.]+ ms → [\d,.]+ ms/g, as: 'MongoDB time per 1,000 operations <measured> ms → <predicted> ms' },
];

function withoutVaryingText(text: string): string {
  return VARYING_TEXT.reduce((replaced, { pattern, as }) => replaced.replace(pattern, as), text);
}

const README_SAMPLES = new Map(readmeSamples().map((sample) => [sample.name, sample]));

let project: Project;
let config: DocjoinConfig;
let server: RunningServer;
let folder: string;
beforeAll(async () => {
  project = await loadProject({ cwd: DEMO_DIR });
  config = loadConfig({ PORT: '0' }, {}, project.config);
  server = await startServer(config, project, { onEstimateViolation: testEstimateViolations.record });
  folder = mkdtempSync(join(tmpdir(), 'docjoin-readme-'));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('the README marks exactly the samples this test makes again', () => {
  expect([...README_SAMPLES.keys()].sort()).toEqual(SAMPLES.map(([name]) => name).sort());
  expect(readmeSamples()).toHaveLength(README_SAMPLES.size);
});

it.each(SAMPLES)('README sample %s', async (name, howToMake) => {
  const sample = README_SAMPLES.get(name)!;
  switch (howToMake.kind) {
    case 'response':
      return compareResponse(sample, howToMake);
    case 'explain':
      return compareExplain(sample);
    case 'advise':
      return compareAdvise(sample);
    default:
      return howToMake satisfies never;
  }
}, 60_000);

async function compareResponse(sample: ReadmeSample, howToMake: ResponseSample): Promise<void> {
  const { headers, body } =
    'curl' in howToMake.request
      ? parseCurl(blockAbove(sample, 'sh', 'curl '))
      : { headers: howToMake.request.headers, body: JSON.stringify({ query: blockAbove(sample, 'graphql') }) };
  const response = await fetch(`http://localhost:${server.gateway.port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const answer = (await response.json()) as Record<string, unknown>;
  expect(answer.errors).toBeUndefined();
  const shown = parseJsonSample(sample.text);
  const inResponse = howToMake.at.reduce<Record<string, unknown>>((value, key) => value[key] as Record<string, unknown>, answer);
  const given = Object.fromEntries(Object.keys(shown).map((key) => [key, inResponse[key]]));
  if (howToMake.members === 'every') expect(given).toEqual(anyNumberWhereVarying(shown));
  else expect(given).toMatchObject(anyNumberWhereVarying(shown) as Record<string, unknown>);
}

function anyNumberWhereVarying(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anyNumberWhereVarying);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, VARYING_MEMBERS.has(key) ? expect.any(Number) : anyNumberWhereVarying(member)]));
}

async function compareExplain(sample: ReadmeSample): Promise<void> {
  const [commandLine, ...shown] = sample.text.split('\n');
  const prompt = '$ npm run explain -- ';
  expect(commandLine).toMatch(/^\$ npm run explain -- /);
  const args = shellWords(commandLine!.slice(prompt.length));
  const running = args.includes('--run');
  // --run measures on this file's server, seeded as `npm start` seeds it, instead of seeding one of its
  // own; it then names the server by its URI where the README has the embedded server's scale.
  const target = running ? ['--mongo-uri', server.mongoUri, '--db', config.mongodbDb] : [];
  const { io, out, err } = captureIo();
  expect(await runExplainCli(['--config', DEMO_CONFIG, ...args, ...target], {}, io)).toBe(0);
  if (!running) expect(err()).toBe('');
  const printed = out().replace(`measured on ${config.mongodbDb} on ${server.mongoUri}: `, `measured on the embedded server, seed scale ${config.seedScale}: `);
  expectExcerpt(shown.join('\n'), printed);
}

async function compareAdvise(sample: ReadmeSample): Promise<void> {
  // "after 40 runs of `{ … }`, which miss …, 3 of `{ … }` and 10 host renames (`updateHost` on the first 10 hosts)"
  const described = paragraphAbove(sample);
  const reads = [...described.matchAll(/(\d+) (?:runs )?of `(\{[^`]*\})`/g)].map((match) => ({ runs: Number(match[1]), query: match[2]! }));
  const renames = Number(/(\d+) host renames \(`updateHost` on the first \1 hosts\)/.exec(described)?.[1]);
  expect(reads).toHaveLength(2);
  expect(renames).toBeGreaterThan(0);

  const workload = join(folder, 'workload.jsonl');
  const recording = await startServer(loadConfig({ PORT: '0', MONGODB_URI: server.mongoUri, DOCJOIN_WORKLOAD: `file:${workload}` }, {}, project.config), project, {
    listen: false,
    onEstimateViolation: testEstimateViolations.record,
  });
  try {
    for (const { runs, query } of reads) {
      for (let run = 0; run < runs; run++) expect((await recording.gateway.execute({ query })).errors).toBeUndefined();
    }
    const hosts = await server.client.db(config.mongodbDb).collection('hosts').find({}, { projection: { _id: 1, ipaddr: 1 } }).sort({ _id: 1 }).limit(renames).toArray();
    for (const [index, host] of hosts.entries()) {
      const renamed = await recording.gateway.execute({
        query: 'mutation($id: ID!, $name: String!, $ipaddr: String!) { updateHost(id: $id, name: $name, ipaddr: $ipaddr) { name } }',
        variables: { id: String(host._id), name: `renamed-${index}.example.com`, ipaddr: String(host.ipaddr) },
      });
      expect(renamed.errors).toBeUndefined();
    }
  } finally {
    // Stopping it writes what it recorded.
    await recording.stop();
  }
  const { io, out, err } = captureIo();
  expect(await runAdviseCli(['--config', DEMO_CONFIG, '--workload', workload, '--mongo-uri', server.mongoUri, '--db', config.mongodbDb], {}, io)).toBe(0);
  expect(err()).toBe('');
  expectExcerpt(sample.text, out());
}

function expectExcerpt(shown: string, printed: string): void {
  const mismatch = excerptMismatch(withoutVaryingText(shown), withoutVaryingText(printed));
  if (mismatch) expect(mismatch.printed).toBe(mismatch.shown);
}
