/** Parses `npm run seed -- …` arguments into a command; no I/O, so every case is unit-tested. */

export const DEFAULT_DB_NAME = 'docjoin';
/** The whole dataset is generated in memory before it is inserted (~40 MB per scale unit). */
export const MAX_SCALE = 20;

export type SeedCliCommand =
  | { kind: 'help' }
  | { kind: 'seed'; scale: number; mongoUri: string; dbName: string }
  /** Bad or missing input: print `message` (one line) and exit with code 2. */
  | { kind: 'usage-error'; message: string };

export const SEED_USAGE = `Usage: npm run seed -- [--scale N] [--mongo-uri URI] [--db NAME]

Replaces the demo collections in a MongoDB database with the deterministic demo dataset.

  --scale N        dataset size multiplier, a number > 0 and <= ${MAX_SCALE} (default 1: 1,000 books,
                   100 hosts with 100,000 log messages, 300 posts with 10,000 comments, ...)
  --mongo-uri URI  MongoDB to seed (default: $MONGODB_URI)
  --db NAME        database name (default: $MONGODB_DB, else "${DEFAULT_DB_NAME}")
  -h, --help       show this help

\`npm start\` without MONGODB_URI runs an embedded server inside its own process and seeds it
itself (scale 1), so there is nothing for this command to seed there. Exit codes: 0 done,
1 seeding failed, 2 bad arguments or no MongoDB given.`;

export const NO_MONGO_MESSAGE =
  'No MongoDB to seed: pass --mongo-uri URI or set MONGODB_URI. (The embedded server lives inside ' +
  "`npm start`'s process and seeds itself, so seeding it from a separate process is pointless; " +
  'to seed a standalone one, start `npm run mongo` and pass the URI it prints.)';

type Environment = Readonly<Record<string, string | undefined>>;

export function parseSeedArgs(argv: readonly string[], env: Environment): SeedCliCommand {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };

  let scaleText: string | undefined;
  let mongoUri = nonEmpty(env.MONGODB_URI);
  let dbName = nonEmpty(env.MONGODB_DB) ?? DEFAULT_DB_NAME;

  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] as string;
    const equals = argument.indexOf('=');
    const flag = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inlineValue = flag === argument ? undefined : argument.slice(equals + 1);
    const takeValue = (): string | undefined => {
      if (inlineValue !== undefined) return inlineValue;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return undefined;
      i++;
      return next;
    };
    switch (flag) {
      case '--scale':
        scaleText = takeValue();
        if (scaleText === undefined) return usageError('--scale needs a value, e.g. --scale 2');
        break;
      case '--mongo-uri':
        mongoUri = takeValue();
        if (mongoUri === undefined) return usageError('--mongo-uri needs a value, e.g. --mongo-uri mongodb://localhost:27017');
        break;
      case '--db': {
        const value = takeValue();
        if (value === undefined) return usageError('--db needs a value, e.g. --db docjoin');
        dbName = value;
        break;
      }
      default:
        return usageError(
          argument.startsWith('-')
            ? `unknown option ${argument} (try --help)`
            : `unexpected argument "${argument}" (options are --scale, --mongo-uri, --db; try --help)`,
        );
    }
  }

  const scale = scaleText === undefined ? 1 : parseScale(scaleText);
  if (typeof scale === 'string') return usageError(scale);
  const dbProblem = checkDbName(dbName);
  if (dbProblem) return usageError(dbProblem);
  if (mongoUri === undefined) return usageError(NO_MONGO_MESSAGE);
  if (!/^mongodb(\+srv)?:\/\//.test(mongoUri)) {
    return usageError(`--mongo-uri must start with mongodb:// or mongodb+srv://, got "${mongoUri}"`);
  }
  return { kind: 'seed', scale, mongoUri, dbName };
}

/** The scale, or the reason it is not acceptable. */
function parseScale(text: string): number | string {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return `--scale must be a positive number, got "${text}"`;
  const scale = Number(text);
  if (scale <= 0) return `--scale must be greater than 0, got "${text}"`;
  if (scale > MAX_SCALE) {
    return `--scale must be at most ${MAX_SCALE} (the dataset is generated in memory), got "${text}"`;
  }
  return scale;
}

/** MongoDB's database-name rules, checked here so the error names the flag instead of coming back from the server. */
function checkDbName(name: string): string | undefined {
  if (name.length === 0 || name.length > 63) return `--db must be 1 to 63 characters, got "${name}"`;
  if (/[/\\. "$*<>:|?\0]/.test(name)) return `--db must not contain / \\ . space " $ * < > : | ?, got "${name}"`;
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function usageError(message: string): SeedCliCommand {
  return { kind: 'usage-error', message };
}
