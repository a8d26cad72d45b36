import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../cli/args/parse-flags';
import { MONGO_TARGET_FLAGS, readMongoTarget } from '../cli/args/mongo-target';
import { DEFAULT_DB_NAME, isProblem, MAX_SEED_SCALE, seedScaleRule } from '../setting-rules';

/** Parses `docjoin seed …` / `npm run seed -- …` arguments into a command; no I/O, so every case is unit-tested. */

export { DEFAULT_DB_NAME } from '../setting-rules';
export const MAX_SCALE = MAX_SEED_SCALE;

export type SeedCliCommand =
  | { kind: 'help' }
  | { kind: 'seed'; scale: number; mongoUri: string; dbName: string }
  /** Bad or missing input: print `message` (one line) and exit with code 2. */
  | UsageError;

export const SEED_USAGE = `Usage: docjoin seed [--scale N] [--mongo-uri URI] [--db NAME]
       npm run seed -- [--scale N] [--mongo-uri URI] [--db NAME]

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

export const SEED_FLAGS = [{ name: '--scale', example: '2' }, ...MONGO_TARGET_FLAGS] as const;

export function parseSeedArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): SeedCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: SEED_FLAGS });
  if (isUsageError(args)) return args;
  const scaleText = args.values.get('--scale');
  const scale = scaleText === undefined ? 1 : seedScaleRule(scaleText, '--scale');
  if (isProblem(scale)) return usageError(scale.problem);
  const target = readMongoTarget(args, env);
  if (isUsageError(target)) return target;
  if (target.mongoUri === undefined) return usageError(NO_MONGO_MESSAGE);
  return { kind: 'seed', scale, mongoUri: target.mongoUri, dbName: target.dbName };
}
