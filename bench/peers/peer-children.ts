import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { PeerCall, PeerMessage, PeerName, PeerRequest, ProcessStats } from './peer-protocol';

/** The runner's handles on its child processes: the embedded MongoDB server, and one process per implementation. */
const REPO_ROOT = path.resolve(__dirname, '../..');
/** Where compilePeers writes the implementations' JavaScript (bench/tsconfig.peers.json). */
const COMPILED_DIR = path.join(REPO_ROOT, 'build/bench-peers');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Waits for the child to exit by itself for STOP_TIMEOUT_MS, then kills it (by its own pid). */
async function waitOrKill(child: ChildProcess): Promise<void> {
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(child);
  clearTimeout(timer);
}

/** Linux reports a process's CPU times in /proc in ticks of 1/100 s (USER_HZ). */
const MICROS_PER_TICK = 10_000;

/** The process's CPU time so far (user + system, µs), from /proc/<pid>/stat; undefined where there is none. */
function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name, in parentheses: the fields from the 3rd (state) on; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
  } catch {
    return undefined;
  }
}

/**
 * The embedded MongoDB server (src/embedded-mongo/cli.ts) from the package build, as `docjoin serve` runs it
 * where no MongoDB is configured: `node dist/embedded-mongo/cli.js --port 0 --latency-ms N`, so its pid is
 * the server's. compilePeers builds it first; through tsx its commands took about 10% longer (tsx's
 * `keepNames` wrapper, below), a cost no user pays.
 */
export class EmbeddedMongoProcess {
  private constructor(
    readonly uri: string,
    readonly latencyMs: number,
    readonly child: ChildProcess,
  ) {}

  static async start(latencyMs: number): Promise<EmbeddedMongoProcess> {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist/embedded-mongo/cli.js'), '--port', '0', '--latency-ms', String(latencyMs)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const uri = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      const timer = setTimeout(() => reject(new Error(`the embedded MongoDB server printed no URI in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`the embedded MongoDB server exited (${String(code)}) before printing its URI`)));
    });
    return new EmbeddedMongoProcess(uri, latencyMs, child);
  }

  /** Its CPU time so far (µs, 10 ms steps), or undefined where /proc does not tell it. */
  cpuMicros(): number | undefined {
    return processCpuMicros(this.child.pid);
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await waitOrKill(this.child);
  }
}

/**
 * Compiles every implementation with tsc, as a project ships: docjoin's package (tsconfig.build.json:
 * dist/, what the docker image's `docjoin serve` runs; the compiled servers import `docjoin` from it)
 * and the bench's servers. Run from TypeScript through tsx, each function would also pay tsx's
 * `keepNames` wrapper every time a closure is made, which weighs on docjoin, with many more of them
 * per request, more than on the peers (books: about 12% fewer requests per second).
 */
export function compilePeers(): void {
  compilePackage(REPO_ROOT);
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(REPO_ROOT, 'bench/tsconfig.peers.json')], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** The package build (tsconfig.build.json: dist/) of the checkout at `root`: this one, or the baseline's worktree. */
export function compilePackage(root: string): void {
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
}

/** One implementation in its own process (peer-process.ts, compiled by compilePeers), driven over its IPC channel. */
export class PeerChild {
  #nextId = 0;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(
    readonly name: PeerName,
    readonly child: ChildProcess,
    /** The GraphQL server's port; undefined for the in-process floor. */
    readonly port: number | undefined,
  ) {
    child.on('message', (message: PeerMessage) => {
      if (message.type === 'ready' || message.id === undefined) return;
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.type === 'reply') pending?.resolve(message.result);
      else pending?.reject(new Error(`${name}: ${message.message}`));
    });
    child.once('exit', (code, signal) => {
      for (const pending of this.#pending.values()) pending.reject(new Error(`${name} exited (${String(code ?? signal)}) during a call`));
      this.#pending.clear();
    });
  }

  /** `monitored`: with command monitoring on, counting round trips (for the check; the timed processes run without). */
  static async start(name: PeerName, mongoUri: string, dbName: string, monitoring: 'monitored' | 'plain'): Promise<PeerChild> {
    const child = fork(path.join(COMPILED_DIR, 'bench/peers/peer-process.js'), [name, mongoUri, dbName, monitoring], {
      cwd: REPO_ROOT,
      execArgv: process.env.PEERS_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PEERS_PROFILE_DIR}`] : [],
      // Every server runs as in production (Apollo and docjoin alike).
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number | undefined>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const onMessage = (message: PeerMessage): void => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message.port);
        } else if (message.type === 'failed' && message.id === undefined) {
          clearTimeout(timer);
          reject(new Error(`${name} failed to start: ${message.message}`));
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${String(code)}) while starting`));
      });
    });
    return new PeerChild(name, child, port);
  }

  call<T>(request: PeerRequest): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const call: PeerCall = { type: 'call', id, request };
      this.child.send(call);
    });
  }

  stats(): Promise<ProcessStats> {
    return this.call<ProcessStats>({ kind: 'stats' });
  }

  /** Closing the IPC channel tells the child to stop its server and exit. */
  async stop(): Promise<void> {
    if (this.child.connected) this.child.disconnect();
    await waitOrKill(this.child);
  }
}
