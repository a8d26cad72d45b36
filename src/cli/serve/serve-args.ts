import { ConfigError, loadConfig, type ConfigFlags, type DocjoinConfig } from '../../config/config';
import { PROJECT_FLAGS, projectFlagsUsage, readProjectTarget, type ProjectTarget } from '../../command-line/project-flags';
import { isUsageError, parseFlags, usageError, wantsHelp, type UsageError } from '../../command-line/parse-flags';
import { MONGO_TARGET_FLAGS } from '../../command-line/mongo-target';
import type { CliEnv } from '../../command-line/cli-io';

/** Parses `docjoin serve …` / `npm start -- …` into the validated configuration; no I/O. */

/**
 * `config` is what the flags and the environment say (checked here, before any file is read); the
 * command weighs `flags` again with the project's config file once it has loaded it.
 */
export type ServeCommand = { kind: 'help' } | { kind: 'serve'; config: DocjoinConfig; flags: ConfigFlags; project: ProjectTarget } | UsageError;

export const SERVE_FLAGS = [{ name: '--port', example: '4000' }, ...MONGO_TARGET_FLAGS, { name: '--seed-scale', example: '1' }, ...PROJECT_FLAGS] as const;

export const SERVE_USAGE = `Usage: docjoin serve [--port N] [--mongo-uri URI] [--db NAME] [--seed-scale N] [--config FILE]

Serves the project's GraphQL at http://localhost:<port>/graphql, docjoin's IDE at /ide, and
/health. Without a MongoDB it starts the embedded server in this process and fills it with the
project's seed.

  --port N          HTTP port, 0 for any free one (default: $PORT, else the config's server.port, else 4000)
  --mongo-uri URI   use this MongoDB as it is, no seeding (default: $MONGODB_URI, else the config's
                    mongodb.uri, else embedded)
  --db NAME         database name (default: $MONGODB_DB, else the config's mongodb.db, else "docjoin")
  --seed-scale N    scale passed to the project's seed on the embedded server, > 0 and <= 20
                    (default: $DOCJOIN_SEED_SCALE, else 1)
${projectFlagsUsage(20)}
  -h, --help        show this help

Other settings come from the environment (see the README's Configuration): DOCJOIN_STRATEGY_OVERRIDES,
DOCJOIN_COST_COMMANDS, DOCJOIN_MAX_ROUND_TRIPS, DOCJOIN_MAX_DOCUMENTS, DOCJOIN_MAX_DEPTH,
DOCJOIN_CORS_ORIGIN (browser apps on another origin), NODE_ENV.
Stops on Ctrl-C (SIGINT) or SIGTERM. Exit codes: 1 failed to start, 2 bad arguments or configuration.`;

/** --seed-scale given where a MongoDB is configured (a flag, MONGODB_URI or the config's mongodb.uri): there is nothing it would seed. */
export const SEED_SCALE_WITH_MONGODB = '--seed-scale only applies to the embedded server, and a MongoDB URI is given (--mongo-uri, MONGODB_URI or the config\'s mongodb.uri); seed your MongoDB with docjoin seed --scale N';

export function parseServeArgs(argv: readonly string[], env: CliEnv): ServeCommand {
  if (wantsHelp(argv)) return { kind: 'help' };
  const args = parseFlags(argv, { flags: SERVE_FLAGS });
  if (isUsageError(args)) return args;
  const mongoUri = args.values.get('--mongo-uri');
  const seedScale = args.values.get('--seed-scale');
  if (mongoUri !== undefined && seedScale !== undefined) return usageError(SEED_SCALE_WITH_MONGODB);
  const flags = { port: args.values.get('--port'), mongoUri, db: args.values.get('--db'), seedScale };
  try {
    return { kind: 'serve', config: loadConfig(env, flags), flags, project: readProjectTarget(args) };
  } catch (error) {
    if (error instanceof ConfigError) return usageError(error.message);
    throw error;
  }
}
