import { DEFAULT_SAMPLE_SIZE, MAX_SAMPLE_SIZE } from '../../infer-schema/infer-schema';
import { dbNameRule, integerRule, isProblem, mongoUriRule, nonEmpty } from '../../settings/setting-rules';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../../command-line/parse-flags';

/** Parses `docjoin init …` arguments into a command; no I/O, so every case is unit-tested. */

export type InitCliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'scaffold'; readonly folder: string }
  | { readonly kind: 'from-mongo'; readonly folder: string; readonly mongoUri: string; readonly dbName: string; readonly sampleSize: number }
  | UsageError;

export const INIT_USAGE = `Usage: docjoin init [folder]
       docjoin init --from-mongo URI [--db NAME] [--sample N] [folder]

Scaffolds a docjoin project in the folder (default: this one): docjoin.config.mjs, schema/schema.graphql
(authors and posts, each post keeping a snapshot of its author), seed.mjs (sample data and the indexes
the schema needs), and npm scripts (start, explain, reconcile, codegen) in package.json. Refuses to
overwrite a file that exists.

With --from-mongo, drafts schema/schema.graphql from an existing database instead (and writes no
seed.mjs): it samples every collection and writes a type per collection and per kind of sub-document
(@embedded), a @join for ObjectIds found in another collection's _id, a @snapshot for a sub-document
whose fields equal the referenced document's, a reverse join where an index leads with the reference,
and @find and @list root fields, with a "# guess:" comment on each inference. The draft passes
docjoin's startup check against that database. The config names the database; it keeps the URI
only when the URI holds no credentials (else serve with MONGODB_URI).

  --from-mongo URI    the MongoDB to draft from (mongodb:// or mongodb+srv://)
  --db NAME           its database (default: the one the URI names, else $MONGODB_DB)
  --sample N          documents sampled per collection with $sample, 1 to ${MAX_SAMPLE_SIZE.toLocaleString('en-US')} (default ${DEFAULT_SAMPLE_SIZE})
  -h, --help          show this help

Exit codes: 0 written, 1 the database could not be read (unreachable, or no collections), 2 bad
arguments or a file that exists.

Then, with docjoin and its peers graphql, @apollo/server and mongodb installed: npm start`;

const INIT_FLAGS = [
  { name: '--from-mongo', example: 'mongodb://localhost:27017/blog' },
  { name: '--db', example: 'blog' },
  { name: '--sample', example: String(DEFAULT_SAMPLE_SIZE) },
] as const;

export function parseInitArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): InitCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: INIT_FLAGS, positionals: 1 });
  if (isUsageError(args)) return args;
  const folder = args.positionals[0] ?? '.';
  const uri = args.values.get('--from-mongo');
  if (uri === undefined) {
    const stray = ['--db', '--sample'].find((flag) => args.values.has(flag));
    return stray ? usageError(`${stray} goes with --from-mongo URI (a draft from an existing database); try --help`) : { kind: 'scaffold', folder };
  }
  const mongoUri = mongoUriRule(uri, '--from-mongo');
  if (isProblem(mongoUri)) return usageError(mongoUri.problem);
  const sampleText = args.values.get('--sample');
  const sampleSize = sampleText === undefined ? DEFAULT_SAMPLE_SIZE : integerRule(sampleText, '--sample', 1, MAX_SAMPLE_SIZE);
  if (isProblem(sampleSize)) return usageError(sampleSize.problem);
  const dbFlag = args.values.get('--db');
  const fromUri = databaseOfUri(mongoUri);
  const dbName = dbFlag ?? fromUri ?? nonEmpty(env.MONGODB_DB);
  if (dbName === undefined) return usageError('--from-mongo needs a database: name it with --db NAME, or in the URI (mongodb://host/NAME)');
  const db = dbNameRule(dbName, dbFlag !== undefined ? '--db' : fromUri !== undefined ? 'the database in --from-mongo' : 'MONGODB_DB');
  if (isProblem(db)) return usageError(db.problem);
  return { kind: 'from-mongo', folder, mongoUri, dbName: db, sampleSize };
}

/** The database a MongoDB URI names in its path (`mongodb://host/blog?…` → `blog`), if any. */
export function databaseOfUri(uri: string): string | undefined {
  const withoutScheme = uri.replace(/^mongodb(\+srv)?:\/\//, '');
  // The hosts follow the credentials, whose password may hold a "/" (or "?") of its own.
  const rest = withoutScheme.slice(withoutScheme.lastIndexOf('@') + 1);
  const hostsEnd = rest.search(/[/?]/);
  if (hostsEnd < 0 || rest[hostsEnd] !== '/') return undefined;
  const path = rest.slice(hostsEnd + 1).split('?')[0]!;
  if (path === '') return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
