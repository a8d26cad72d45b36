import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../../command-line/parse-flags';
import { MONGO_TARGET_FLAGS, readMongoTarget } from '../../command-line/mongo-target';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../../command-line/project-flags';
import { DEFAULT_DB_NAME, isProblem, MAX_SEED_SCALE, seedScaleRule } from '../../settings/setting-rules';

/** Parses `docjoin seed …` / `npm run seed -- …` arguments into a command; no I/O, so every case is unit-tested. */

export { DEFAULT_DB_NAME } from '../../settings/setting-rules';
export const MAX_SCALE = MAX_SEED_SCALE;

export type SeedCliCommand =
  | { kind: 'help' }
  /** `mongoUri` and `db` are the flags as given: loadConfig weighs them against the environment and the config file. */
  | { kind: 'seed'; scale: number; mongoUri: string | undefined; db: string | undefined; project: ProjectTarget }
  /** Bad or missing input: print `message` (one line) and exit with code 2. */
  | UsageError;

export const SEED_USAGE = `Usage: docjoin seed [--scale N] [--mongo-uri URI] [--db NAME] [--config FILE]

Runs the project's seed function (the config's "seed") against a MongoDB database: the sample data
the embedded server is filled with, and the indexes it needs.

  --scale N           dataset size multiplier passed to the seed, > 0 and <= ${MAX_SCALE} (default 1)
  --mongo-uri URI     MongoDB to seed (default: $MONGODB_URI, else the config's mongodb.uri)
  --db NAME           database name (default: $MONGODB_DB, else the config's mongodb.db, else "${DEFAULT_DB_NAME}")
${projectFlagsUsage(22)}
  -h, --help          show this help

\`docjoin serve\` without a MongoDB URI runs an embedded server inside its own process and seeds it
itself, so there is nothing for this command to seed there. Exit codes: 0 done, 1 seeding failed,
2 bad arguments, configuration, or no MongoDB given.`;

export const NO_MONGO_MESSAGE =
  'No MongoDB to seed: pass --mongo-uri URI, set MONGODB_URI or the config\'s mongodb.uri. (The embedded server lives inside ' +
  "`docjoin serve`'s process and seeds itself, so seeding it from a separate process is pointless; " +
  'to seed a standalone one, start `docjoin mongo` and pass the URI it prints.)';

export const SEED_FLAGS = [{ name: '--scale', example: '2' }, ...MONGO_TARGET_FLAGS, ...PROJECT_FLAGS] as const;

export function parseSeedArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): SeedCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: SEED_FLAGS });
  if (isUsageError(args)) return args;
  const scaleText = args.values.get('--scale');
  const scale = scaleText === undefined ? 1 : seedScaleRule(scaleText, '--scale');
  if (isProblem(scale)) return usageError(scale.problem);
  const target = readMongoTarget(args, env);
  if (isUsageError(target)) return target;
  return { kind: 'seed', scale, mongoUri: args.values.get('--mongo-uri'), db: args.values.get('--db'), project: readProjectTarget(args) };
}
