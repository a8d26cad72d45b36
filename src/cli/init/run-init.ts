import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAMES } from '../../project/load-project';
import { answerWithoutRunning } from '../args/answer-without-running';
import { isUsageError, parseFlags, wantsHelp } from '../args/parse-flags';
import type { CliEnv, CliIo } from '../cli-io';
import { CONFIG_FILE, SCHEMA_FILE, SCRIPTS, SEED_FILE } from './project-template';

export const INIT_USAGE = `Usage: docjoin init [folder]

Scaffolds a docjoin project in the folder (default: this one): docjoin.config.mjs, schema/schema.graphql
(authors and posts, each post keeping a snapshot of its author), seed.mjs (sample data and the indexes
the schema needs), and npm scripts (start, explain, reconcile, codegen) in package.json. Refuses to
overwrite a file that exists.

  -h, --help          show this help

Then: npm install docjoin graphql @apollo/server mongodb && npm start`;

/** `docjoin init [folder]`: exit 0 when scaffolded, 2 when a file it would write exists already. */
export async function runInitCli(argv: readonly string[], _env: CliEnv, io: CliIo): Promise<number> {
  if (wantsHelp(argv)) return answerWithoutRunning('init', { kind: 'help' }, INIT_USAGE, io);
  const args = parseFlags(argv, { flags: [], positionals: 1 });
  if (isUsageError(args)) return answerWithoutRunning('init', args, INIT_USAGE, io);
  const folder = args.positionals[0] ?? '.';
  const files: Array<[string, string]> = [
    ['docjoin.config.mjs', CONFIG_FILE],
    [join('schema', 'schema.graphql'), SCHEMA_FILE],
    ['seed.mjs', SEED_FILE],
  ];
  const taken = [...CONFIG_FILE_NAMES.filter((name) => existsSync(join(folder, name))), ...files.map(([path]) => path).filter((path) => existsSync(join(folder, path)))];
  if (taken.length > 0) {
    io.err.write(`init: ${[...new Set(taken)].join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${folder}; run init in an empty folder, or remove ${taken.length === 1 ? 'it' : 'them'} first\n`);
    return 2;
  }
  mkdirSync(join(folder, 'schema'), { recursive: true });
  for (const [path, content] of files) {
    writeFileSync(join(folder, path), content);
    io.out.write(`wrote ${path}\n`);
  }
  const added = addScripts(join(folder, 'package.json'));
  io.out.write(`${added.length > 0 ? `added npm scripts ${added.join(', ')} to package.json` : 'package.json already has the npm scripts'}\n`);
  io.out.write(`\nNext:\n  npm install docjoin graphql @apollo/server mongodb\n  npm start                  # the embedded MongoDB with seed.mjs's data; GraphQL at http://localhost:4000/graphql\n`);
  return 0;
}

/** Adds the scripts the project lacks to package.json (creating it, ES modules, when there is none); returns their names. */
function addScripts(path: string): string[] {
  const manifest: { scripts?: Record<string, string> } = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { name: 'docjoin-project', private: true, type: 'module' };
  const scripts = { ...manifest.scripts };
  const added = Object.keys(SCRIPTS).filter((name) => scripts[name] === undefined);
  for (const name of added) scripts[name] = SCRIPTS[name]!;
  writeFileSync(path, `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`);
  return added;
}
