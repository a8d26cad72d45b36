import { loadProject, type Project } from '../project/load-project';
import type { ParsedArgs } from './parse-flags';

/** The flags that say which project a command works on; without them, docjoin.config.* in the working folder. */
export const PROJECT_FLAGS = [
  { name: '--config', example: 'docjoin.config.mjs' },
  { name: '--schema', example: 'schema/' },
] as const;

/** The project flags' lines of a command's usage, their descriptions at `column` as the command's other flags have theirs. */
export function projectFlagsUsage(column: number): string {
  return [
    ['--config FILE', "the project's config (default: docjoin.config.{ts,mts,mjs,js,cjs,json} here)"],
    ['--schema PATHS', 'SDL files or folders, comma-separated, instead of the config\'s "schema"'],
  ]
    .map(([flag, description]) => `  ${flag!.padEnd(column - 2)}${description}`)
    .join('\n');
}

export interface ProjectTarget {
  readonly configPath: string | undefined;
  readonly schemaPaths: readonly string[] | undefined;
}

export function readProjectTarget(args: ParsedArgs): ProjectTarget {
  const schema = args.values.get('--schema');
  return {
    configPath: args.values.get('--config'),
    schemaPaths: schema === undefined ? undefined : schema.split(',').map((path) => path.trim()).filter((path) => path !== ''),
  };
}

/** The project `target` names, relative to the working folder. */
export function loadProjectTarget(target: ProjectTarget, cwd: string = process.cwd()): Promise<Project> {
  return loadProject({ cwd, ...(target.configPath !== undefined && { configPath: target.configPath }), ...(target.schemaPaths !== undefined && { schemaPaths: target.schemaPaths }) });
}
