import { MONGO_TARGET_FLAGS, readMongoTarget } from '../command-line/mongo-target';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../command-line/parse-flags';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../command-line/project-flags';
import { DEFAULT_BATCH_SIZE } from '../reconcile/reconcile-types';
import { DEFAULT_DB_NAME, integerRule, isProblem } from '../settings/setting-rules';

/** Parses `docjoin migrate …` arguments into a command; no I/O, so every case is unit-tested. */

/** The change asked for: fields named on the command line, or the advice `docjoin advise --json` wrote for a field. */
export type MigrationRequest =
  | { readonly kind: 'widen'; readonly coordinate: string; readonly fields: readonly string[] }
  | { readonly kind: 'advice'; readonly file: string; readonly coordinate: string }
  | { readonly kind: 'drop-snapshot'; readonly coordinate: string }
  | { readonly kind: 'add-snapshot'; readonly coordinate: string; readonly fields: readonly string[]; readonly path: string | undefined }
  | { readonly kind: 'add-counter'; readonly coordinate: string; readonly of: string }
  | { readonly kind: 'add-total'; readonly coordinate: string; readonly of: string; readonly sum: string }
  | { readonly kind: 'add-bounded-array'; readonly coordinate: string; readonly of: string; readonly limit: number };

export type MigrateCliCommand =
  | { kind: 'help' }
  | {
      kind: 'migrate';
      request: MigrationRequest;
      /** Write the SDL change to the schema file (default: print it only). */
      write: boolean;
      /** Every gateway serves the schema change: a clean pass lets gateways trust a new counter, total or bounded array. */
      deployed: boolean;
      batchSize: number;
      /** The flags as given: loadConfig weighs them against the environment and the config file. */
      mongoUri: string | undefined;
      db: string | undefined;
      project: ProjectTarget;
    }
  | UsageError;

export const MIGRATE_USAGE = `Usage: docjoin migrate --widen Type.field --fields a,b [--write] [--batch-size N] [--mongo-uri URI] [--db NAME] [--config FILE]
       docjoin migrate --add-snapshot Type.field --fields a,b [--path p] [--write] [...]
       docjoin migrate --add-counter Type.field --of Type.list [--write] [--deployed] [...]
       docjoin migrate --add-total Type.field --of Type.list --sum field [--write] [--deployed] [...]
       docjoin migrate --add-bounded-array Type.field --of Type.list --limit N [--write] [--deployed] [...]
       docjoin migrate --advice advice.json --field Type.field [--write] [...]
       docjoin migrate --drop-snapshot Type.field [--write] [...]

Applies a storage change to the schema and the data. Without --write it is a dry run: it prints the SDL
change (a diff with file and line) and reads what the data change would touch (documents scanned, and
those it would rewrite, per copy), writing nothing. With --write it writes the SDL change and fills the
new copies from their sources in _id batches, resumable: a rerun after a kill continues after the last
finished batch (the marker in the docjoin_migrations collection). It ends with reconcile's check of what
it filled; no drift finishes the marker. Run again once finished, it repairs drift and the marker
stays finished.

Widening a snapshot: deploy the schema change, then run it; until a copy holds the new fields the
gateway joins it. Adding a counter, a total or a bounded array: run it first (with --write), deploy the schema
change, then run it again with --write --deployed. Until a pass that clean after the deploy finishes
the marker, gateways do not trust the new values (a write may start one from nothing): they count, sum
or join every parent, so answers stay right at the cost of a query per level. Adding a snapshot to a plain join moves
its key into the copy (publisherId → publisher.id), which a gateway on the old schema does not write:
the backfill runs first, with the old schema deployed, and --write writes the SDL change only once every
parent holds its copy; deploy it, then run the command again to fill parents the old schema wrote
meanwhile. Dropping a snapshot removes the copied fields only once the schema no longer declares it
(apply, deploy, then run it again).

  --widen Type.field    the @snapshot field to widen, with
  --fields a,b          the fields of its target to add to the copies
  --add-snapshot Type.field
                        copy --fields of the target of this plain forward @join into its parent,
  --path p              at this path (default: the field's name)
  --add-counter Type.field
                        declare Type.field: Int! @counter(of: --of) and set it in every parent
  --add-total Type.field
                        declare Type.field: Float!, Long! or Decimal! @total(of: --of, field: --sum)
                        (the type of --sum's aggregate sum) and set it in every parent
  --sum field           the field of --of's children the total adds up (Int, Float, Long or Decimal)
  --add-bounded-array Type.field
                        declare Type.field as the first --limit children of --of (a reverse @join
                        with a sort), embedded in every parent (the subset pattern)
  --of Type.list        the relation the new field derives from
  --limit N             the bounded array's size (1 to 1,000)
  --advice FILE         take the change from \`docjoin advise --json FILE\`'s advice for
  --field Type.field    this field (widen-snapshot, add-snapshot, drop-snapshot, add-counter or add-total)
  --drop-snapshot Type.field
                        stop copying: the field reads by its @join
  --write               apply: write the SDL change to the schema file and change the data (default:
                        a dry run that prints both and writes nothing)
  --deployed            (--add-counter, --add-total, --add-bounded-array) every gateway serves the change: a clean
                        pass now finishes the backfill, and gateways read the stored values
  --batch-size N        documents per read and per write command (default ${DEFAULT_BATCH_SIZE})
  --mongo-uri URI       MongoDB to migrate (default: $MONGODB_URI, else the config's mongodb.uri)
  --db NAME             database name (default: $MONGODB_DB, else the config's mongodb.db, else "${DEFAULT_DB_NAME}")
${projectFlagsUsage(24)}
  -h, --help            show this help

Exit codes: 0 done (what it filled reconciles with no drift); 1 the migration failed (MongoDB
unreachable, the database does not match the schema); 2 bad arguments, a config, schema or advice that
cannot be used, no MongoDB, or --drop-snapshot while the schema still declares the snapshot; 3 drift
left after the backfill (writes of a gateway still on the old schema: deploy the change, then run the
command again).`;

export const MIGRATE_FLAGS = [
  { name: '--widen', example: 'Book.authors' },
  { name: '--fields', example: 'name,thumbnailUrl' },
  { name: '--advice', example: 'advice.json' },
  { name: '--field', example: 'Book.authors' },
  { name: '--drop-snapshot', example: 'Book.authors' },
  { name: '--add-snapshot', example: 'Book.publisher' },
  { name: '--path', example: 'publisher' },
  { name: '--add-counter', example: 'Post.commentCount' },
  { name: '--add-total', example: 'Product.ratingTotal' },
  { name: '--sum', example: 'rating' },
  { name: '--add-bounded-array', example: 'Post.recentComments' },
  { name: '--of', example: 'Post.comments' },
  { name: '--limit', example: '3' },
  { name: '--write' },
  { name: '--deployed' },
  { name: '--batch-size', example: String(DEFAULT_BATCH_SIZE) },
  ...MONGO_TARGET_FLAGS,
  ...PROJECT_FLAGS,
] as const;

/** The changes a gateway must serve before their backfill can finish (--deployed). */
export const DEPLOYED_KINDS: ReadonlySet<string> = new Set(['add-counter', 'add-total', 'add-bounded-array']);
export const DEPLOYED_GOES_WITH = '--deployed goes with --add-counter, --add-total or --add-bounded-array (or --advice for one of them)';

export const COORDINATE = /^[_A-Za-z]\w*\.[_A-Za-z]\w*$/;
export const FIELD_NAME = /^[_A-Za-z]\w*$/;

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
  const deployed = args.switches.has('--deployed');
  // An advice file's change is read later (read-advice.ts), and checked there.
  if (deployed && !DEPLOYED_KINDS.has(request.kind) && request.kind !== 'advice') return usageError(DEPLOYED_GOES_WITH);
  if (deployed && !args.switches.has('--write')) return usageError('--deployed finishes the backfill, which writes: pass --write with it');
  return { kind: 'migrate', request, write: args.switches.has('--write'), deployed, batchSize, mongoUri: args.values.get('--mongo-uri'), db: args.values.get('--db'), project: readProjectTarget(args) };
}

const MODES = ['--widen', '--add-snapshot', '--add-counter', '--add-total', '--add-bounded-array', '--advice', '--drop-snapshot'] as const;
type Mode = (typeof MODES)[number];
/** The flags that only go with some modes. */
const BELONGS_TO: ReadonlyArray<readonly [flag: string, modes: readonly Mode[]]> = [
  ['--fields', ['--widen', '--add-snapshot']],
  ['--path', ['--add-snapshot']],
  ['--field', ['--advice']],
  ['--of', ['--add-counter', '--add-total', '--add-bounded-array']],
  ['--sum', ['--add-total']],
  ['--limit', ['--add-bounded-array']],
];
export const MAX_BOUNDED_ARRAY_LIMIT = 1000;

function readRequest(values: ReadonlyMap<string, string>): MigrationRequest | UsageError {
  const modes = MODES.filter((flag) => values.has(flag));
  if (modes.length !== 1) {
    return usageError(
      modes.length === 0
        ? 'say what to migrate: --widen Type.field --fields a,b, --add-snapshot Type.field --fields a,b, --add-counter Type.field --of Type.list, --add-total Type.field --of Type.list --sum field, --add-bounded-array Type.field --of Type.list --limit N, --advice FILE --field Type.field, or --drop-snapshot Type.field'
        : `${modes.join(' and ')} cannot be combined; migrate one change at a time`,
    );
  }
  const mode = modes[0]!;
  const misplaced = BELONGS_TO.find(([flag, belongsTo]) => values.has(flag) && !belongsTo.includes(mode));
  if (misplaced) return usageError(`${misplaced[0]} goes with ${misplaced[1].join(' or ')}, not ${mode}`);
  const coordinate = mode === '--advice' ? values.get('--field') : values.get(mode)!;
  if (coordinate === undefined) return usageError('--advice needs --field Type.field: the field whose advice to apply');
  const flag = mode === '--advice' ? '--field' : mode;
  if (!COORDINATE.test(coordinate)) return usageError(`${flag} must be Type.field, e.g. ${flag} Book.authors, got "${coordinate}"`);
  switch (mode) {
    case '--widen':
    case '--add-snapshot': {
      const fields = readFields(values, mode);
      if (isUsageError(fields)) return fields;
      if (mode === '--widen') return { kind: 'widen', coordinate, fields };
      const path = values.get('--path');
      if (path !== undefined && !FIELD_NAME.test(path)) return usageError(`--path must be a top-level field name, e.g. --path publisher, got "${path}"`);
      return { kind: 'add-snapshot', coordinate, fields, path };
    }
    case '--add-counter':
    case '--add-total':
    case '--add-bounded-array': {
      const of = values.get('--of');
      if (of === undefined) return usageError(`${mode} needs --of Type.list: the list relation the new field derives from`);
      if (!COORDINATE.test(of)) return usageError(`--of must be Type.field, e.g. --of Post.comments, got "${of}"`);
      if (mode === '--add-counter') return { kind: 'add-counter', coordinate, of };
      if (mode === '--add-total') {
        const sum = values.get('--sum');
        if (sum === undefined) return usageError('--add-total needs --sum field: the field of the children the total adds up');
        if (!FIELD_NAME.test(sum)) return usageError(`--sum must be a field name, e.g. --sum rating, got "${sum}"`);
        return { kind: 'add-total', coordinate, of, sum };
      }
      const text = values.get('--limit');
      if (text === undefined) return usageError('--add-bounded-array needs --limit N: how many children the parent keeps');
      const limit = integerRule(text, '--limit', 1, MAX_BOUNDED_ARRAY_LIMIT);
      if (isProblem(limit)) return usageError(limit.problem);
      return { kind: 'add-bounded-array', coordinate, of, limit };
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

function readFields(values: ReadonlyMap<string, string>, mode: Mode): readonly string[] | UsageError {
  const text = values.get('--fields');
  if (text === undefined) return usageError(`${mode} needs --fields a,b: the fields to ${mode === '--widen' ? 'add to the snapshot' : 'copy'}`);
  const fields = [...new Set(text.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  const bad = fields.find((name) => !FIELD_NAME.test(name));
  if (fields.length === 0 || bad !== undefined) return usageError(`--fields must be field names separated by commas, e.g. --fields name,thumbnailUrl, got "${text}"`);
  return fields;
}
