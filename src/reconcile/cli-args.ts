import { MONGO_TARGET_FLAGS, readMongoTarget } from '../command-line/mongo-target';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../command-line/parse-flags';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../command-line/project-flags';
import { DEFAULT_DB_NAME, integerRule, isProblem } from '../settings/setting-rules';
import { DEFAULT_BATCH_SIZE, DEFAULT_SETTLE_MS } from './reconcile-types';

/**
 * Parses `docjoin reconcile …` arguments (`npm run reconcile -- …` here: the demo's config) into a
 * command; no I/O, so every case is unit-tested. The project and its database are resolved by cli.ts.
 */

export type ReconcileCliCommand =
  | { kind: 'help' }
  /** `mongoUri` and `db` are the flags as given: loadConfig weighs them against the environment and the config file. */
  | { kind: 'reconcile'; fix: boolean; mongoUri: string | undefined; db: string | undefined; batchSize: number; settleMs: number; project: ProjectTarget }
  /** Bad or missing input: print `message` (one line) and exit with code 2. */
  | UsageError;

export const RECONCILE_USAGE = `Usage: docjoin reconcile [--fix] [--mongo-uri URI] [--db NAME] [--batch-size N] [--settle-ms N] [--config FILE]

Compares every denormalized copy the schema declares (snapshots, bounded arrays, two-way
references, counters, totals) with its sources and prints the drift per Type.field.

  --fix            repair the drift, in batches (default: report only)
  --mongo-uri URI  MongoDB to check (default: $MONGODB_URI, else the config's mongodb.uri)
  --db NAME        database name (default: $MONGODB_DB, else the config's mongodb.db, else "${DEFAULT_DB_NAME}")
  --batch-size N   documents per read and per repair command (default ${DEFAULT_BATCH_SIZE})
  --settle-ms N    wait between two looks at a drifted counter or total: only what both find wrong
                   is drift, not a write without a transaction still on its way (default ${DEFAULT_SETTLE_MS})
${projectFlagsUsage(19)}
  -h, --help       show this help

Exit codes: 0 no drift (or all of it fixed), 1 the check failed or the database does not match the schema,
2 bad arguments or no MongoDB,
3 drift found and not fixed (run again with --fix).`;

export const NO_MONGO_MESSAGE =
  "No MongoDB to reconcile: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb.uri. (The embedded server lives inside " +
  "`docjoin serve`'s process; to check a standalone one, start `docjoin mongo`, seed it, and pass the URI it prints.)";

export const RECONCILE_FLAGS = [{ name: '--fix' }, ...MONGO_TARGET_FLAGS, { name: '--batch-size', example: String(DEFAULT_BATCH_SIZE) }, { name: '--settle-ms', example: String(DEFAULT_SETTLE_MS) }, ...PROJECT_FLAGS] as const;

export function parseReconcileArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ReconcileCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: RECONCILE_FLAGS });
  if (isUsageError(args)) return args;
  const batchText = args.values.get('--batch-size');
  const batchSize = batchText === undefined ? DEFAULT_BATCH_SIZE : integerRule(batchText, '--batch-size', 1, 100_000);
  if (isProblem(batchSize)) return usageError(batchSize.problem);
  const settleText = args.values.get('--settle-ms');
  const settleMs = settleText === undefined ? DEFAULT_SETTLE_MS : integerRule(settleText, '--settle-ms', 0, 600_000);
  if (isProblem(settleMs)) return usageError(settleMs.problem);
  const target = readMongoTarget(args, env);
  if (isUsageError(target)) return target;
  return { kind: 'reconcile', fix: args.switches.has('--fix'), mongoUri: args.values.get('--mongo-uri'), db: args.values.get('--db'), batchSize, settleMs, project: readProjectTarget(args) };
}
