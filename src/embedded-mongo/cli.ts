import { startEmbeddedMongo, type EmbeddedMongoOptions } from './index';

/** The options' help, after a usage line of the command that runs it (`npm run mongo --`, `docjoin mongo`). */
export function embeddedMongoUsage(command: string): string {
  return `Usage: ${command} [--port N] [--latency-ms N] [--data-dir DIR [--fsync]] [--standalone]

Starts the embedded MongoDB-compatible server, prints its URI and runs until SIGINT/SIGTERM.
  --port N         TCP port on 127.0.0.1 (default 0: a free port)
  --latency-ms N   delay every reply by N milliseconds (default 0)
  --data-dir DIR   keep the data in DIR (created when missing) and start with what it holds; every
                   change is journaled before its reply, so a restart after a kill keeps every
                   acknowledged write (default: in memory only)
  --fsync          with --data-dir: fsync the journal before replying, so acknowledged writes also
                   survive a machine crash (default off)
  --standalone     answer as a standalone mongod, which runs no transactions (default: a one-member
                   replica set, which does)
  --help           show this help`;
}

interface CliOptions {
  port: number;
  latencyMs: number;
  dataDir: string | undefined;
  fsync: boolean;
  standalone: boolean;
  help: boolean;
}

/** Parses argv; throws an Error whose message is the one-line complaint. */
export function parseCliArgs(args: readonly string[]): CliOptions {
  const options: CliOptions = { port: 0, latencyMs: 0, dataDir: undefined, fsync: false, standalone: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const [name, inlineValue] = flag.includes('=') ? (flag.split(/=(.*)/s, 2) as [string, string]) : [flag, undefined];
    switch (name) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--port':
        options.port = parseNumber(name, inlineValue ?? args[++i], (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        break;
      case '--latency-ms':
        options.latencyMs = parseNumber(name, inlineValue ?? args[++i], (n) => n >= 0);
        break;
      case '--data-dir': {
        const dir = inlineValue ?? args[++i];
        if (dir === undefined || dir.trim() === '' || (inlineValue === undefined && dir.startsWith('--'))) {
          throw new Error(`--data-dir needs a directory, got '${dir ?? ''}'`);
        }
        options.dataDir = dir;
        break;
      }
      case '--fsync':
        options.fsync = true;
        break;
      case '--standalone':
        options.standalone = true;
        break;
      default:
        throw new Error(`unknown option '${flag}' (try --help)`);
    }
  }
  if (options.fsync && options.dataDir === undefined) throw new Error('--fsync needs --data-dir');
  return options;
}

/** The server options the command line gives. */
export function serverOptionsOf({ port, latencyMs, dataDir, fsync, standalone }: CliOptions): EmbeddedMongoOptions {
  return { port, latencyMs, dataDir, fsync, standalone };
}

function parseNumber(flag: string, raw: string | undefined, valid: (n: number) => boolean): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${flag} needs a valid number, got '${raw ?? ''}'`);
  return value;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`embedded-mongo: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${embeddedMongoUsage('npm run mongo --')}\n`);
    return;
  }
  const server = await startEmbeddedMongo(serverOptionsOf(options));
  const ignoredBytes = server.recovery?.ignoredBytes ?? 0;
  if (ignoredBytes > 0) {
    process.stderr.write(`embedded-mongo: ignored an incomplete record at the end of the journal (${ignoredBytes} bytes), as a write cut off by a crash leaves it\n`);
  }
  process.stdout.write(`${server.uri}\n`);
  const shutdown = (): void => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`embedded-mongo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
