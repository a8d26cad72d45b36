import { join } from 'node:path';
import { answerWithoutRunning } from '../../command-line/answer-without-running';
import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { INIT_USAGE, parseInitArgs } from './init-args';
import { installLine, nextSteps, refuseToWrite, writeProjectFiles } from './project-files';
import { CONFIG_FILE, SCHEMA_FILE, SEED_FILE } from './project-template';
import { runInitFromMongo } from './run-init-from-mongo';

/**
 * `docjoin init [folder]`: exit 0 when scaffolded, 2 when a file it would write exists already.
 * `docjoin init --from-mongo URI …` drafts the schema from that database instead (run-init-from-mongo.ts).
 */
export async function runInitCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const command = parseInitArgs(argv, env);
  switch (command.kind) {
    case 'help':
    case 'usage-error':
      return answerWithoutRunning('init', command, INIT_USAGE, io);
    case 'scaffold':
      return scaffold(command.folder, io);
    case 'from-mongo':
      return runInitFromMongo(command, io);
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled init command ${JSON.stringify(unhandled)}`);
    }
  }
}

function scaffold(folder: string, io: CliIo): number {
  const files: Array<[string, string]> = [
    ['docjoin.config.mjs', CONFIG_FILE],
    [join('schema', 'schema.graphql'), SCHEMA_FILE],
    ['seed.mjs', SEED_FILE],
  ];
  if (refuseToWrite(folder, files.map(([path]) => path), io)) return 2;
  const start = writeProjectFiles(folder, files, io);
  const install = installLine(folder);
  io.out.write(nextSteps(folder, [install, `${start.padEnd(27)}# the embedded MongoDB with seed.mjs's data; GraphQL at http://localhost:4000/graphql`]));
  return 0;
}
