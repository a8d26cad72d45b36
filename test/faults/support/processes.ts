import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * The real processes a fault scenario runs: the embedded MongoDB server and `docjoin serve`, each in its
 * own process (node with tsx as an import hook, so the pid is the server itself and /proc/<pid> its
 * memory), started and killed the way an operator would.
 */

const ROOT = join(__dirname, '../../..');
const MONGO_CLI = join(ROOT, 'src/embedded-mongo/cli.ts');
const DOCJOIN_CLI = join(ROOT, 'src/cli/bin/docjoin.ts');

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything it printed, stdout and stderr together. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  readonly exited: Promise<number | string>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Spawns `args` and resolves once `ready` matches its output (with the match), rejecting if it exits first. */
export async function startProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number; ownProcessGroup?: boolean },
): Promise<{ process: ServerProcess; match: RegExpExecArray }> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its pid is then its process group's id, which a signal can go to as a whole (as a process manager sends it).
    detached: options.ownProcessGroup ?? false,
  });
  let printed = '';
  const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const serverProcess: ServerProcess = {
    child,
    output: () => printed,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no ${options.ready} within ${options.timeoutMs ?? 60_000} ms:\n${printed}`)), options.timeoutMs ?? 60_000);
    const look = (chunk: Buffer) => {
      printed += chunk.toString();
      const found = options.ready.exec(printed);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${printed}`));
    });
  });
  return { process: serverProcess, match };
}

export interface MongoProcess extends ServerProcess {
  readonly uri: string;
  readonly port: number;
}

/** The embedded MongoDB server in its own process (`npm run mongo`), on `port` (0: a free one). */
export async function startMongo(options: { port?: number; args?: readonly string[] } = {}): Promise<MongoProcess> {
  const { process: server, match } = await startProcess(process.execPath, ['--import', 'tsx', MONGO_CLI, '--port', String(options.port ?? 0), ...(options.args ?? [])], {
    ready: /^(mongodb:\/\/127\.0\.0\.1:(\d+)\/\S*)$/m,
  });
  return { ...server, uri: match[1]!, port: Number(match[2]) };
}

export interface GatewayProcess extends ServerProcess {
  /** `http://localhost:<port>/graphql`. */
  readonly url: string;
  readonly origin: string;
}

/**
 * `docjoin serve` on `port` (default a free one) against `mongoUri`, in production mode unless `env` says otherwise.
 * `viaNpm` starts it as `npm start -- …`, so signals reach it through npm. `ownProcessGroup` makes its
 * pid a process group to signal as a whole.
 */
export async function startGateway(options: { config: string; mongoUri: string; db: string; env?: NodeJS.ProcessEnv; viaNpm?: boolean; ownProcessGroup?: boolean; port?: number }): Promise<GatewayProcess> {
  const flags = ['--config', options.config, '--mongo-uri', options.mongoUri, '--db', options.db, '--port', String(options.port ?? 0)];
  const [command, args] = options.viaNpm ? ['npm', ['start', '--silent', '--', ...flags]] : [process.execPath, ['--import', 'tsx', DOCJOIN_CLI, 'serve', ...flags]];
  const { process: server, match } = await startProcess(command, args, {
    env: { NODE_ENV: 'production', DOCJOIN_LOG_LEVEL: 'info', DOCJOIN_LOG_FORMAT: 'json', ...options.env },
    ready: /(http:\/\/localhost:(\d+))\/graphql/,
    ownProcessGroup: options.ownProcessGroup ?? false,
  });
  return { ...server, url: `${match[1]}/graphql`, origin: match[1]! };
}
