import { MONGO_TARGET_FLAGS, readMongoTarget } from '../cli/args/mongo-target';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../cli/args/parse-flags';
import { PROJECT_FLAGS, PROJECT_FLAGS_USAGE, readProjectTarget, type ProjectTarget } from '../cli/args/project-flags';
import { DEFAULT_BATCH_SIZE } from '../reconcile/reconcile-types';
import { DEFAULT_DB_NAME, integerRule, isProblem } from '../setting-rules';

/** Parses `docjoin migrate …` arguments into a command; no I/O, so every case is unit-tested. */

/** The change asked for: fields named on the command line, or the advice `docjoin advise --json` wrote for a field. */
export type MigrationRequest =
  | { readonly kind: 'widen'; readonly coordinate: string; readonly fields: readonly string[] }
  | { readonly kind: 'advice'; readonly file: string; readonly coordinate: string }
  | { readonly kind: 'drop-snapshot'; readonly coordinate: string };

export type MigrateCliCommand =
  | { kind: 'help' }
  | {
      kind: 'migrate';
      request: MigrationRequest;
      /** Write the SDL change to the schema file (default: print it only). */
      write: boolean;
      batchSize: number;
      /** The flags as given: loadConfig weighs them against the environment and the config file. */
      mongoUri: string | undefined;
      db: string | undefined;
      project: ProjectTarget;
    }
  | UsageError;

export const MIGRATE_USAGE = `Usage: docjoin migrate --widen Type.field --fields a,b [--write] [--batch-size N] [--mongo-uri URI] [--db NAME] [--config FILE]
       docjoin migrate --advice advice.json --field Type.field [--write] [...]
       docjoin migrate --drop-snapshot Type.field [--write] [...]

Applies a storage change to the schema and the data. Widening a snapshot prints the SDL change (a diff
with file and line; --write applies it), then copies the new fields from their sources into every copy,
in _id batches, resumable: a rerun after a kill continues after the last finished batch (the marker in
the docjoin_migrations collection). It ends with reconcile's check of that snapshot. Dropping a snapshot
prints the SDL change, and removes the copied fields from the documents only once the schema no longer
declares the snapshot (apply the change, deploy it, then run it again).

  --widen Type.field    the @snapshot field to widen, with
  --fields a,b          the fields of its target to add to the copies
  --advice FILE         take the change from \`docjoin advise --json FILE\`'s advice for
  --field Type.field    this field (widen-snapshot or drop-snapshot)
  --drop-snapshot Type.field
                        stop copying: the field reads by its @join
  --write               write the SDL change to the schema file (default: print it only)
  --batch-size N        documents per read and per write command (default ${DEFAULT_BATCH_SIZE})
  --mongo-uri URI       MongoDB to migrate (default: $MONGODB_URI, else the config's mongodb.uri)
  --db NAME             database name (default: $MONGODB_DB, else the config's mongodb.db, else "${DEFAULT_DB_NAME}")
${PROJECT_FLAGS_USAGE}
  -h, --help            show this help

Exit codes: 0 done (the snapshot reconciles with no drift); 1 the migration failed (MongoDB unreachable,
the database does not match the schema); 2 bad arguments, a config, schema or advice that cannot be
used, no MongoDB, or --drop-snapshot while the schema still declares the snapshot; 3 drift left after
the backfill (writes of a gateway still on the old schema: deploy it, then docjoin reconcile --fix).`;

export const MIGRATE_FLAGS = [
  { name: '--widen', example: 'Book.authors' },
  { name: '--fields', example: 'name,thumbnailUrl' },
  { name: '--advice', example: 'advice.json' },
  { name: '--field', example: 'Book.authors' },
  { name: '--drop-snapshot', example: 'Book.authors' },
  { name: '--write' },
  { name: '--batch-size', example: String(DEFAULT_BATCH_SIZE) },
  ...MONGO_TARGET_FLAGS,
  ...PROJECT_FLAGS,
] as const;

const COORDINATE = /^[_A-Za-z]\w*\.[_A-Za-z]\w*$/;
const FIELD_NAME = /^[_A-Za-z]\w*$/;

export function parseMigrateArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): MigrateCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: MIGRATE_FLAGS });
  if (isUsageError(args)) return args;
  const request = readRequest(args.values);
  if (isUsageError(request)) return request;
  const batchText = args.values.get('--batch-size');
  const batchSize = batchText === undefined ? DEFAULT_BATCH_SIZE : integerRule(batchText, '--batch-size', 1, 100_000);
  if (isProblem(batchSize)) return usageError(batchSize.problem);
  const target = readMongoTarget(args, env);
  if (isUsageError(target)) return target;
  return { kind: 'migrate', request, write: args.switches.has('--write'), batchSize, mongoUri: args.values.get('--mongo-uri'), db: args.values.get('--db'), project: readProjectTarget(args) };
}

function readRequest(values: ReadonlyMap<string, string>): MigrationRequest | UsageError {
  const modes = (['--widen', '--advice', '--drop-snapshot'] as const).filter((flag) => values.has(flag));
  if (modes.length !== 1) {
    return usageError(modes.length === 0 ? 'say what to migrate: --widen Type.field --fields a,b, --advice FILE --field Type.field, or --drop-snapshot Type.field' : `${modes.join(' and ')} cannot be combined; migrate one change at a time`);
  }
  const mode = modes[0]!;
  const misplaced = (flag: string, belongsTo: string) => values.has(flag) && mode !== belongsTo ? usageError(`${flag} goes with ${belongsTo}, not ${mode}`) : undefined;
  const wrong = misplaced('--fields', '--widen') ?? misplaced('--field', '--advice');
  if (wrong) return wrong;
  const coordinate = mode === '--advice' ? values.get('--field') : values.get(mode)!;
  if (coordinate === undefined) return usageError('--advice needs --field Type.field: the field whose advice to apply');
  const flag = mode === '--advice' ? '--field' : mode;
  if (!COORDINATE.test(coordinate)) return usageError(`${flag} must be Type.field, e.g. ${flag} Book.authors, got "${coordinate}"`);
  switch (mode) {
    case '--widen': {
      const text = values.get('--fields');
      if (text === undefined) return usageError('--widen needs --fields a,b: the fields to add to the snapshot');
      const fields = [...new Set(text.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
      const bad = fields.find((name) => !FIELD_NAME.test(name));
      if (fields.length === 0 || bad !== undefined) return usageError(`--fields must be field names separated by commas, e.g. --fields name,thumbnailUrl, got "${text}"`);
      return { kind: 'widen', coordinate, fields };
    }
    case '--advice':
      return { kind: 'advice', file: values.get('--advice')!, coordinate };
    case '--drop-snapshot':
      return { kind: 'drop-snapshot', coordinate };
    default: {
      const unhandled: never = mode;
      throw new Error(`unhandled mode ${String(unhandled)}`);
    }
  }
}
