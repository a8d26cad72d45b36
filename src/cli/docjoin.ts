import { runAdviseCli } from '../advise/cli';
import { runMigrateCli } from '../migrate/cli';
import { runReconcileCli } from '../reconcile/cli';
import { redactingIo, type CliEnv, type CliIo } from '../command-line/cli-io';
import { nearestKey } from '../project/nearest-key';
import { runCodegenCli } from './codegen/run-codegen';
import { runExplainCli } from './explain/run-explain';
import { runInitCli } from './init/run-init';
import { runMongoCli } from './mongo/run-mongo';
import { runSeedCli } from './seed/run-seed';
import { runServeCli } from './serve/run-serve';

/** `docjoin <command> …`: one entry point for the commands; each parses its own arguments. */

type CommandRunner = (argv: readonly string[], env: CliEnv, io: CliIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, { readonly summary: string; readonly run: CommandRunner }>> = {
  serve: { summary: "serve the project's GraphQL (embedded MongoDB filled by its seed, or --mongo-uri)", run: runServeCli },
  explain: { summary: "print an operation's plan and estimated cost; --run also measures it", run: runExplainCli },
  reconcile: { summary: 'find (and with --fix repair) drift in denormalized copies', run: runReconcileCli },
  advise: { summary: "recommend each relation's storage shape from sampled data and the recorded workload", run: runAdviseCli },
  migrate: { summary: 'apply a snapshot change: print the SDL diff, backfill the copies in resumable batches', run: runMigrateCli },
  codegen: { summary: 'write the public schema and run the graphql-codegen config on it', run: runCodegenCli },
  seed: { summary: "run the project's seed against a MongoDB", run: runSeedCli },
  init: { summary: 'scaffold a project; with --from-mongo, draft its schema from an existing database', run: runInitCli },
  mongo: { summary: 'run the embedded MongoDB-compatible server alone and print its URI (no MongoDB needed)', run: runMongoCli },
};

export const DOCJOIN_USAGE = `Usage: docjoin <command> [options]      (docjoin <command> --help for its options)

A GraphQL gateway over MongoDB where each relation field picks its read strategy. The commands but
init and mongo work on the project of docjoin.config.* in this folder (or --config FILE).

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(11)}${command.summary}`)
  .join('\n')}

Examples:
  docjoin init && npm start
  docjoin init --from-mongo mongodb://localhost:27017/blog
  docjoin serve --port 4000
  docjoin explain '{ orders(first: 50) { total customer { name } } }'
  docjoin reconcile --mongo-uri mongodb://localhost:27017 --db shop --fix
  docjoin codegen --check`;

export async function runDocjoinCli(argv: readonly string[], env: CliEnv, givenIo: CliIo): Promise<number> {
  const io = redactingIo(givenIo, [env.MONGODB_URI, ...argv.map((arg) => arg.replace(/^--[\w-]+=/, ''))]);
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err.write(`docjoin: no command given; the commands are ${Object.keys(COMMANDS).join(', ')} (try docjoin --help)\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out.write(`${DOCJOIN_USAGE}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const nearest = nearestKey(name, Object.keys(COMMANDS));
    io.err.write(`docjoin: unknown command "${name}"${nearest === undefined ? '' : ` (did you mean ${nearest}?)`}; the commands are ${Object.keys(COMMANDS).join(', ')} (try docjoin --help)\n`);
    return 2;
  }
  return command.run(rest, env, io);
}
