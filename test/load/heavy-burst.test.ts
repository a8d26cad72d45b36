import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 15's load case: 120 clients at once send the heaviest operation the default limits admit (nine
 * aliases of `hosts(first: 100) { logs(first: 100) }`, 90,900 estimated documents, a 9 MB answer) to
 * `docjoin serve` in a child process, at the default limits. The gateway must answer every request
 * with its data or a clear error (OVERLOADED, OPERATION_TIMEOUT) within the time limit, keep /health
 * answering throughout, and stay under the documented memory ceiling (1 GB of resident memory, its
 * peak read from /proc, embedded MongoDB included).
 */
const PROJECT = join(__dirname, 'burst-project');
const BIN = join(__dirname, '../../src/cli/bin/docjoin.ts');
const CLIENTS = 120;
/** The default is 30 s; a shorter limit keeps the test short and changes nothing else. */
const TIMEOUT_MS = 12_000;
const MEMORY_CEILING_BYTES = 1024 ** 3;
const HEAVY = `{ ${Array.from({ length: 9 }, (_, i) => `a${i}: hosts(first: 100) { id name ipaddr logs(first: 100) { id time message host { id name ipaddr } } }`).join(' ')} }`;

let server: ChildProcessWithoutNullStreams;
let url: string;
beforeAll(async () => {
  // One process (tsx as an import hook), so /proc/<pid> is the server itself.
  server = spawn(process.execPath, ['--import', 'tsx', BIN, 'serve', '--config', 'docjoin.config.ts', '--port', '0'], {
    cwd: PROJECT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DOCJOIN_OPERATION_TIMEOUT_MS: String(TIMEOUT_MS), DOCJOIN_LOG_LEVEL: 'info' },
  });
  url = await new Promise<string>((resolve, reject) => {
    let printed = '';
    server.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /(http:\/\/localhost:\d+\/graphql)/.exec(printed);
      if (match) resolve(match[1]!);
    });
    server.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    server.on('close', (code) => reject(new Error(`docjoin serve exited with ${code}:\n${printed}`)));
  });
}, 60_000);
afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('close', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});

interface Answer {
  readonly status: number;
  readonly code: string | undefined;
  readonly hostsAnswered: number;
  /** Seconds from the burst's start to this answer (printed, not asserted). */
  readonly seconds: number;
}

async function sendHeavy(burstStarted: number): Promise<Answer> {
  // Far past the time limit a missing answer is a hang, and fails the test rather than waiting forever.
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: HEAVY }),
    signal: AbortSignal.timeout(TIMEOUT_MS + 60_000),
  });
  const body = (await response.json()) as { data?: Record<string, unknown[]> | null; errors?: Array<{ extensions?: { code?: string } }> };
  const hostsAnswered = Object.values(body.data ?? {}).reduce((sum, hosts) => sum + hosts.length, 0);
  return { status: response.status, code: body.errors?.[0]?.extensions?.code, hostsAnswered, seconds: (performance.now() - burstStarted) / 1000 };
}

function peakResidentBytes(pid: number): number {
  const kilobytes = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) * 1024;
}

it(`answers ${CLIENTS} concurrent heaviest operations with data or a clear error, /health answering, under 1 GB`, async () => {
  const health: number[] = [];
  let loading = true;
  const healthChecks = (async () => {
    while (loading) {
      // No answer within 10 s counts as a failed check (0).
      const response = await fetch(url.replace('/graphql', '/health'), { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      health.push(response?.status ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  let answers: Answer[];
  try {
    const burstStarted = performance.now();
    answers = await Promise.all(Array.from({ length: CLIENTS }, () => sendHeavy(burstStarted)));
  } finally {
    loading = false;
    await healthChecks;
  }

  const byOutcome = new Map<string, number>();
  const secondsByOutcome = new Map<string, number[]>();
  for (const answer of answers) {
    const outcome = answer.code === undefined ? `${answer.status} data` : `${answer.status} ${answer.code}`;
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
    secondsByOutcome.set(outcome, [...(secondsByOutcome.get(outcome) ?? []), answer.seconds]);
  }
  const medianSeconds = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(1);
  const timing = [...secondsByOutcome].map(([outcome, seconds]) => `${outcome} after ${medianSeconds(seconds)} s (median)`).join(', ');
  // Every answer is complete data or one of the documented refusals.
  expect([...byOutcome.keys()].filter((outcome) => !['200 data', '503 OVERLOADED', '504 OPERATION_TIMEOUT'].includes(outcome))).toEqual([]);
  for (const answer of answers.filter((entry) => entry.code === undefined)) expect(answer.hostsAnswered).toBe(900);
  expect(byOutcome.get('200 data') ?? 0).toBeGreaterThan(0);

  expect(health.length).toBeGreaterThan(0);
  expect(health.filter((status) => status !== 200)).toEqual([]);
  const peak = peakResidentBytes(server.pid!);
  process.stdout.write(`heavy burst: ${JSON.stringify(Object.fromEntries(byOutcome))}; ${timing}; ${health.length} health checks, peak RSS ${(peak / 1024 ** 2).toFixed(0)} MB\n`);
  expect(peak).toBeLessThan(MEMORY_CEILING_BYTES);

  // And it still serves.
  const after = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ hosts(first: 1) { name } }' }) });
  expect(((await after.json()) as { data: unknown }).data).toEqual({ hosts: [{ name: 'host-0.example.com' }] });
}, 180_000);
