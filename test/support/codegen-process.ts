import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_DIR } from './demo-project';

const run = promisify(execFile);
const CLI = resolve(DEMO_DIR, 'src/cli/bin/docjoin.ts');

/**
 * `docjoin codegen --config CONFIG` in a process of its own, run in the config's project, as a team runs
 * it (graphql-codegen's plugins load as they do there), with `flags` (`--check`): its exit code and standard error.
 */
export async function codegenProcess(project: string, config: string, flags: readonly string[] = []): Promise<{ code: number; err: string }> {
  try {
    await run(process.execPath, ['--import', 'tsx', CLI, 'codegen', '--config', config, ...flags], { cwd: project });
    return { code: 0, err: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, err: failed.stderr ?? '' };
  }
}
