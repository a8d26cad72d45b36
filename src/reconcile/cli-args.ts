import { DEFAULT_DB_NAME } from '../seed/cli-args';
import { DEFAULT_BATCH_SIZE } from './reconcile-types';

/** Parses `npm run reconcile -- …` arguments into a command; no I/O, so every case is unit-tested. */

export type ReconcileCliCommand =
  | { kind: 'help' }
  | { kind: 'reconcile'; fix: boolean; mongoUri: string; dbName: string; batchSize: number }
  /** Bad or missing input: print `message` (one line) and exit with code 2. */
  | { kind: 'usage-error'; message: string };

export const RECONCILE_USAGE = `Usage: npm run reconcile -- [--fix] [--mongo-uri URI] [--db NAME] [--batch-size N]

Compares every denormalized copy the schema declares (snapshots, bounded arrays, two-way
references, counters) with its sources and prints the drift per Type.field.

  --fix            repair the drift, in batches (default: report only)
  --mongo-uri URI  MongoDB to check (default: $MONGODB_URI)
  --db NAME        database name (default: $MONGODB_DB, else "${DEFAULT_DB_NAME}")
  --batch-size N   documents per read and per repair command (default ${DEFAULT_BATCH_SIZE})
  -h, --help       show this help

Exit codes: 0 no drift (or all of it fixed), 1 the check failed, 2 bad arguments or no MongoDB,
3 drift found and not fixed (run again with --fix).`;

export const NO_MONGO_MESSAGE =
  'No MongoDB to reconcile: pass --mongo-uri URI or set MONGODB_URI. (The embedded server lives inside ' +
  "`npm start`'s process; to check a standalone one, start `npm run mongo`, seed it, and pass the URI it prints.)";

type Environment = Readonly<Record<string, string | undefined>>;

export function parseReconcileArgs(argv: readonly string[], env: Environment): ReconcileCliCommand {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  let fix = false;
  let mongoUri = nonEmpty(env.MONGODB_URI);
  let dbName = nonEmpty(env.MONGODB_DB) ?? DEFAULT_DB_NAME;
  let batchSize = DEFAULT_BATCH_SIZE;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i]!;
    const equals = argument.indexOf('=');
    const flag = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inline = flag === argument ? undefined : argument.slice(equals + 1);
    const value = (example: string): string | ReconcileCliCommand => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return usageError(`${flag} needs a value, e.g. ${flag} ${example}`);
      i++;
      return next;
    };
    switch (flag) {
      case '--fix':
        if (inline !== undefined) return usageError('--fix takes no value');
        fix = true;
        break;
      case '--mongo-uri': {
        const given = value('mongodb://localhost:27017');
        if (typeof given !== 'string') return given;
        mongoUri = given;
        break;
      }
      case '--db': {
        const given = value('docjoin');
        if (typeof given !== 'string') return given;
        if (!/^[^/\\. "$*<>:|?\0]{1,63}$/.test(given)) return usageError(`--db must be 1 to 63 characters without / \\ . space " $ * < > : | ?, got "${given}"`);
        dbName = given;
        break;
      }
      case '--batch-size': {
        const given = value('500');
        if (typeof given !== 'string') return given;
        if (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > 100_000) return usageError(`--batch-size must be an integer from 1 to 100000, got "${given}"`);
        batchSize = Number(given);
        break;
      }
      default:
        return usageError(argument.startsWith('-') ? `unknown option ${argument} (try --help)` : `unexpected argument "${argument}" (options are --fix, --mongo-uri, --db, --batch-size; try --help)`);
    }
  }
  if (mongoUri === undefined) return usageError(NO_MONGO_MESSAGE);
  if (!/^mongodb(\+srv)?:\/\//.test(mongoUri)) return usageError(`--mongo-uri must start with mongodb:// or mongodb+srv://, got "${mongoUri}"`);
  return { kind: 'reconcile', fix, mongoUri, dbName, batchSize };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function usageError(message: string): ReconcileCliCommand {
  return { kind: 'usage-error', message };
}
