import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateOutputs } from '../../codegen/generate-outputs';
import { readGeneratedTree } from '../../codegen/read-generated-tree';
import { listedInManifest, removeGenerated } from '../../codegen/folder-manifest';
import { describeStaleFiles, findStaleFiles } from '../../codegen/stale-files';
import { StorageConfigError } from '../../gateway';
import { ProjectConfigError } from '../../project/load-project';
import { answerWithoutRunning } from '../../command-line/answer-without-running';
import { isUsageError, parseFlags, wantsHelp } from '../../command-line/parse-flags';
import { loadProjectTarget, PROJECT_FLAGS, projectFlagsUsage, readProjectTarget } from '../../command-line/project-flags';
import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { configurationErrorText } from '../../command-line/configuration-error-text';

export const CODEGEN_USAGE = `Usage: docjoin codegen [--check] [--config FILE]

Writes the project's public schema (its SDL with docjoin's directives removed: what clients see) to
the config's codegen.publicSchema (default schema.public.graphql). When the config names a
graphql-codegen config (codegen.config), runs it on that schema too (typed resolvers, client types),
in this process; it needs @graphql-codegen/cli installed.

  --check             write nothing; exit 1, listing them, when generated files are stale
${projectFlagsUsage(22)}
  -h, --help          show this help

Exit codes: 0 done (or up to date), 1 stale files or codegen failed, 2 bad arguments or configuration.`;

const CODEGEN_FLAGS = [{ name: '--check' }, ...PROJECT_FLAGS] as const;

/** `docjoin codegen [--check]`: the project's public schema and graphql-codegen outputs. */
export async function runCodegenCli(argv: readonly string[], _env: CliEnv, io: CliIo): Promise<number> {
  if (wantsHelp(argv)) return answerWithoutRunning('codegen', { kind: 'help' }, CODEGEN_USAGE, io);
  const args = parseFlags(argv, { flags: CODEGEN_FLAGS });
  if (isUsageError(args)) return answerWithoutRunning('codegen', args, CODEGEN_USAGE, io);
  let outputs: Awaited<ReturnType<typeof generateOutputs>>;
  let root: string;
  try {
    const project = await loadProjectTarget(readProjectTarget(args));
    root = project.root;
    outputs = await generateOutputs(project);
  } catch (error) {
    const configuration = error instanceof ProjectConfigError || error instanceof StorageConfigError;
    io.err.write(`codegen: ${configurationErrorText(error)}\n`);
    return configuration ? 2 : 1;
  }
  if (args.switches.has('--check')) {
    const stale = findStaleFiles(outputs.files, readGeneratedTree(root, outputs));
    if (stale.length > 0) {
      io.err.write(`${describeStaleFiles(stale)}\n`);
      return 1;
    }
    io.out.write(`codegen: ${outputs.files.size === 1 ? 'the 1 generated file is' : `${outputs.files.size} generated files are`} up to date\n`);
    return 0;
  }
  // What an earlier run generated in a folder and this one does not is removed, so it does not linger; nothing else there is touched.
  for (const folder of outputs.roots.filter((entry) => entry.endsWith('/'))) {
    removeGenerated(root, folder, listedInManifest(root, folder).filter((path) => !outputs.files.has(path)));
  }
  for (const [path, content] of outputs.files) {
    const absolute = resolve(root, path);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
    io.out.write(`wrote ${path}\n`);
  }
  return 0;
}
