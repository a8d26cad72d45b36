import { runReconcileCli } from '../reconcile/cli';
import { runSeedCli } from '../seed/cli';
import type { CliEnv, CliIo } from './cli-io';
import { runExplainCli } from './explain/run-explain';
import { runServeCli } from './serve/run-serve';

/** `docjoin <command> …`: one entry point for the commands; each parses its own arguments. */

type CommandRunner = (argv: readonly string[], env: CliEnv, io: CliIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, { readonly summary: string; readonly run: CommandRunner }>> = {
  serve: { summary: 'serve GraphQL (embedded demo data, or --mongo-uri)', run: runServeCli },
  seed: { summary: 'load the deterministic demo dataset into a MongoDB', run: runSeedCli },
  explain: { summary: "print an operation's plan and estimated cost; --run also measures it", run: runExplainCli },
  reconcile: { summary: 'find (and with --fix repair) drift in denormalized copies', run: runReconcileCli },
};

export const DOCJOIN_USAGE = `Usage: docjoin <command> [options]      (docjoin <command> --help for its options)

A GraphQL gateway over MongoDB where each relation field picks its read strategy.

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(11)}${command.summary}`)
  .join('\n')}

Examples:
  docjoin serve --port 4000
  docjoin explain '{ books(first: 50) { name authors { name countOfBooks } } }'
  docjoin seed --mongo-uri mongodb://localhost:27017 --scale 2
  docjoin reconcile --mongo-uri mongodb://localhost:27017 --fix`;

export async function runDocjoinCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
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
    io.err.write(`docjoin: unknown command "${name}"; the commands are ${Object.keys(COMMANDS).join(', ')} (try docjoin --help)\n`);
    return 2;
  }
  return command.run(rest, env, io);
}

if (require.main === module) {
  runDocjoinCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`docjoin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
