import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../../command-line/parse-flags';
import { MONGO_TARGET_FLAGS } from '../../command-line/mongo-target';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../../command-line/project-flags';

/** Parses `docjoin explain …` arguments; no I/O (the --file is read by the command). */

export type ExplainCommand =
  | { kind: 'help' }
  | {
      kind: 'explain';
      /** Exactly one of the two: the operation text, or a file to read it from. */
      readonly operation: { readonly text: string } | { readonly file: string };
      readonly operationName: string | undefined;
      readonly variables: Readonly<Record<string, unknown>>;
      /** An `x-docjoin-strategy` value, e.g. `Book.authors=join,Post.recentComments=join`. */
      readonly strategy: string | undefined;
      readonly run: boolean;
      /** Print the operation's plan tree (who runs it, and each field's step) before the estimate. */
      readonly plan: boolean;
      /** The role whose `@access` rules the plan and the run follow; undefined: an unrestricted plan (and the anonymous viewer for --run). */
      readonly role: string | undefined;
      /** With `role`: the viewer's verified claims, which the rules' conditions compare. */
      readonly claims: Readonly<Record<string, unknown>> | undefined;
      /** With --run: the serve flags that choose the MongoDB (checked by loadConfig). */
      readonly mongoUri: string | undefined;
      readonly db: string | undefined;
      readonly seedScale: string | undefined;
      readonly project: ProjectTarget;
    }
  | UsageError;

export const EXPLAIN_FLAGS = [
  { name: '--file', example: 'operations/books-with-authors.graphql' },
  { name: '--operation', example: 'BooksWithAuthors' },
  { name: '--variables', example: `'{"first": 5}'` },
  { name: '--strategy', example: 'Book.authors=join' },
  { name: '--run' },
  { name: '--plan' },
  { name: '--role', example: 'customer' },
  { name: '--claims', example: `'{"sub": "6750a1b2c3d4e5f6a7b8c9d0"}'` },
  ...MONGO_TARGET_FLAGS,
  { name: '--seed-scale', example: '1' },
  ...PROJECT_FLAGS,
] as const;

export const EXPLAIN_USAGE = `Usage: docjoin explain '<operation>' [options]
       docjoin explain --file F [options]

Prints the plan of a GraphQL operation without running it: per field its read strategy, the round trips
the static estimator expects, and what the whole operation would cost with each other strategy the
field declares. Also the operation's estimate against the cost limits (DOCJOIN_MAX_*).

  --file F            read the operation from a file instead of the argument
  --operation NAME    which operation to explain when the document holds several
  --variables JSON    variable values, e.g. --variables '{"first": 5}'
  --strategy LIST     switch strategies as the x-docjoin-strategy header does,
                      e.g. --strategy Book.authors=join,Post.recentComments=join
  --plan              first print the operation's plan: whether docjoin runs it from its own tree
                      (and each field's step, level by level: its command, batch, projection and
                      estimate) or graphql-js runs it, and why
  --role ROLE         plan (and run) it as a viewer of this role under the project's @access rules:
                      the joins the role reads copies by, whether the server refuses the operation
                      for it, and the rows of each type its commands are limited to (without it:
                      planned for an unrestricted viewer, and --run runs as the anonymous one)
  --claims JSON       with --role: the viewer's claims, e.g. --claims '{"sub": "…"}'; each condition
                      then shows the value it compares
  --run               also run it and print the measured cost next to the estimate: on the embedded
                      server filled by the project's seed, or on --mongo-uri / $MONGODB_URI.
                      A mutation really writes.
  --mongo-uri URI     with --run: the MongoDB to run on (default: $MONGODB_URI, else the config's mongodb.uri, else embedded)
  --db NAME           with --run: database name (default: $MONGODB_DB, else the config's mongodb.db, else "docjoin")
  --seed-scale N      with --run on the embedded server: the seed's scale (default: $DOCJOIN_SEED_SCALE, else 1)
${projectFlagsUsage(22)}
  -h, --help          show this help

Example: docjoin explain '{ books(first: 50) { name authors { name countOfBooks } } }' --strategy Book.authors=join
Exit codes: 0 done, 1 the run failed or returned errors, 2 bad arguments or an invalid operation.`;

export function parseExplainArgs(argv: readonly string[]): ExplainCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: EXPLAIN_FLAGS, positionals: 1 });
  if (isUsageError(args)) return args;
  const text = args.positionals[0];
  const file = args.values.get('--file');
  if (text !== undefined && file !== undefined) return usageError('give the operation either as an argument or with --file, not both');
  if (text === undefined && file === undefined) return usageError(`no operation: pass it as an argument in quotes, e.g. docjoin explain '{ rootField { field } }' with your schema's fields, or use --file F`);
  if (text !== undefined && text.trim() === '') return usageError('the operation is empty');

  const variables = parseJsonObject('--variables', args.values.get('--variables'), `'{"first": 5}'`);
  if (isUsageError(variables)) return variables;

  const run = args.switches.has('--run');
  for (const flag of ['--mongo-uri', '--db', '--seed-scale']) {
    if (!run && args.values.has(flag)) return usageError(`${flag} only applies with --run`);
  }
  const role = args.values.get('--role');
  if (role !== undefined && role.trim() === '') return usageError('--role needs a role name, e.g. --role customer');
  const claims = parseJsonObject('--claims', args.values.get('--claims'), `'{"sub": "…"}'`);
  if (isUsageError(claims)) return claims;
  if (args.values.has('--claims') && role === undefined) return usageError('--claims only applies with --role: name the role whose rules compare them');
  const mongoUri = args.values.get('--mongo-uri');
  if (mongoUri !== undefined && args.values.has('--seed-scale')) return usageError('--seed-scale only applies to the embedded server; leave out --mongo-uri');

  return {
    kind: 'explain',
    operation: text !== undefined ? { text } : { file: file! },
    operationName: args.values.get('--operation'),
    variables,
    strategy: args.values.get('--strategy'),
    run,
    plan: args.switches.has('--plan'),
    role,
    claims: args.values.has('--claims') ? claims : undefined,
    mongoUri,
    db: args.values.get('--db'),
    seedScale: args.values.get('--seed-scale'),
    project: readProjectTarget(args),
  };
}

function parseJsonObject(flag: string, json: string | undefined, example: string): Record<string, unknown> | UsageError {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return usageError(`${flag} must be a JSON object, e.g. ${example}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return usageError(`${flag} must be a JSON object, e.g. ${example}, got ${json}`);
  return value as Record<string, unknown>;
}
