import { MONGO_TARGET_FLAGS, readMongoTarget } from '../command-line/mongo-target';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../command-line/parse-flags';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../command-line/project-flags';
import { DEFAULT_DB_NAME, integerRule, isProblem } from '../settings/setting-rules';
import { DEFAULT_SAMPLE_SIZE } from './statistics/statistics-types';

/** Parses `docjoin advise …` arguments into a command; no I/O, so every case is unit-tested. */

/** Where the recorded workload is read from; `config`: the project's `server.workload`, if it has one. */
export type WorkloadFlag = { readonly file: string } | { readonly collection: string } | 'config';

export type AdviseCliCommand =
  | { kind: 'help' }
  | {
      kind: 'advise';
      mongoUri: string | undefined;
      db: string | undefined;
      workload: WorkloadFlag;
      sampleSize: number;
      /** Also write the report (advice, statistics, workload) as JSON to this file. */
      json: string | undefined;
      /** Also print the changes the workload argued for that were priced and not given, and why. */
      verbose: boolean;
      /** Price changes at fixed costs rather than the recorded command times. */
      assumedCosts: boolean;
      /** The round trip a lookup saves, for a deployment other than the one measured; undefined: measure it. */
      latencyMs: number | undefined;
      /** Advise only how reads are served (a join read by lookup): nothing that changes what is stored. */
      readsOnly: boolean;
      project: ProjectTarget;
    }
  | UsageError;

export const ADVISE_USAGE = `Usage: docjoin advise [--workload FILE | --workload-collection NAME] [--sample N] [--json FILE] [--verbose]
                      [--assumed-costs] [--latency-ms MS] [--reads-only] [--mongo-uri URI] [--db NAME] [--config FILE]

Recommends a storage shape for every relation field: keep it, widen, add or drop a snapshot, bound an
array, or stop embedding, with the rule of thumb behind it and the predicted effect on round trips,
documents written and document size. It samples the data ($sample and index-served counts, never a
whole collection) and reads the workload the gateway recorded (its "workload" option). A snapshot
change is priced on reads and writes together, replaying the recorded mutations against the schema
it would leave; one that does not save MongoDB time on that workload is not given.

  --workload FILE             the JSON-lines file the gateway recorded to
  --workload-collection NAME  the collection of the database the gateway recorded to
                              (default: the config's server.workload; without one, advice from the data alone)
  --sample N                  documents sampled per collection (default ${DEFAULT_SAMPLE_SIZE})
  --json FILE                 also write the report as JSON (advice, statistics and workload) for tooling
  --verbose                   also print the changes considered and not given, and why
  --assumed-costs             price changes at 1 ms a command and 0.2 ms a further document written,
                              not the command times recorded: the same workload gets the same advice
                              on any machine (the times of a busy or shared one are noise)
  --latency-ms MS             the round trip between gateway and MongoDB that reading a join by lookup
                              saves (default: measured, the median of 15 pings): advice for a deployment
                              farther from, or nearer to, the database than this one
  --reads-only                advise only how reads are served (a join read by lookup): no change to what
                              is stored, so nothing for \`docjoin migrate\` to do; without it, a snapshot
                              or an array change that pays is given before a lookup
  --mongo-uri URI             MongoDB to sample (default: $MONGODB_URI, else the config's mongodb.uri)
  --db NAME                   database name (default: $MONGODB_DB, else the config's mongodb.db, else "${DEFAULT_DB_NAME}")
${projectFlagsUsage(30)}
  -h, --help                  show this help

Exit codes: 0 advice printed, 1 MongoDB or the workload could not be read, 2 bad arguments or no MongoDB.`;

export const ADVISE_FLAGS = [
  { name: '--workload', example: 'workload.jsonl' },
  { name: '--workload-collection', example: 'docjoin_workload' },
  { name: '--sample', example: String(DEFAULT_SAMPLE_SIZE) },
  { name: '--json', example: 'advice.json' },
  { name: '--verbose' },
  { name: '--assumed-costs' },
  { name: '--latency-ms', example: '10' },
  { name: '--reads-only' },
  ...MONGO_TARGET_FLAGS,
  ...PROJECT_FLAGS,
] as const;

export function parseAdviseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): AdviseCliCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: ADVISE_FLAGS });
  if (isUsageError(args)) return args;
  const file = args.values.get('--workload');
  const collection = args.values.get('--workload-collection');
  if (file !== undefined && collection !== undefined) return usageError('--workload and --workload-collection name two recordings; give one');
  const sampleText = args.values.get('--sample');
  const sampleSize = sampleText === undefined ? DEFAULT_SAMPLE_SIZE : integerRule(sampleText, '--sample', 1, 1_000_000);
  if (isProblem(sampleSize)) return usageError(sampleSize.problem);
  const latencyText = args.values.get('--latency-ms');
  const latencyMs = latencyText === undefined ? undefined : Number(latencyText);
  if (latencyMs !== undefined && (!Number.isFinite(latencyMs) || latencyMs < 0 || latencyMs > 10_000 || latencyText!.trim() === '')) {
    return usageError(`--latency-ms takes milliseconds between 0 and 10000, got ${JSON.stringify(latencyText)}`);
  }
  const target = readMongoTarget(args, env);
  if (isUsageError(target)) return target;
  return {
    kind: 'advise',
    mongoUri: args.values.get('--mongo-uri'),
    db: args.values.get('--db'),
    workload: file !== undefined ? { file } : collection !== undefined ? { collection } : 'config',
    sampleSize,
    json: args.values.get('--json'),
    verbose: args.switches.has('--verbose'),
    assumedCosts: args.switches.has('--assumed-costs'),
    readsOnly: args.switches.has('--reads-only'),
    latencyMs,
    project: readProjectTarget(args),
  };
}
