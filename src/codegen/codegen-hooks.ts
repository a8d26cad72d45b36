import { exec } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { commonFolder, isOutside } from './outside-folder';
import { promisify } from 'node:util';

const run = promisify(exec);

/** A lifecycle hook of a graphql-codegen config: shell commands (given the file paths), or functions from a JS config. */
type Hook = string | ((...args: unknown[]) => unknown);

/** The hooks graphql-codegen runs around the files it writes, top-level or in one output's config. */
export interface FileHooks {
  readonly beforeAllFileWrite?: Hook | readonly Hook[];
  readonly beforeOneFileWrite?: Hook | readonly Hook[];
  readonly afterOneFileWrite?: Hook | readonly Hook[];
  readonly afterAllFileWrite?: Hook | readonly Hook[];
}

/** One output of graphql-codegen's executeCodegen: its file (relative to the project), its text, its output's hooks. */
export interface CodegenOutput {
  readonly filename: string;
  readonly content: string;
  readonly hooks?: FileHooks;
}

const FILE_HOOKS = ['beforeAllFileWrite', 'beforeOneFileWrite', 'afterOneFileWrite', 'afterAllFileWrite'] as const;

function hasFileHooks(hooks: FileHooks | undefined): boolean {
  return hooks !== undefined && FILE_HOOKS.some((name) => listOf(hooks[name]).length > 0);
}

/**
 * The outputs' texts once the config's file hooks have run on them, in the order the stock CLI runs
 * them (beforeAllFileWrite; per file, its output's then the config's beforeOneFileWrite, the write,
 * afterOneFileWrite; afterAllFileWrite). The hooks work on files: these are written into a scratch
 * folder inside the project (so a formatter finds the project's own settings, as for the real files),
 * read back, and the folder removed. Both `codegen` and `codegen --check` take what the hooks leave,
 * so a formatter in `afterAllFileWrite` leaves nothing stale.
 */
export async function withFileHooks(root: string, topLevel: FileHooks | undefined, outputs: readonly CodegenOutput[]): Promise<CodegenOutput[]> {
  if (!hasFileHooks(topLevel) && !outputs.some((output) => hasFileHooks(output.hooks))) return [...outputs];
  const scratch = mkdtempSync(join(root, '.docjoin-codegen-'));
  try {
    const paths = scratchCopyPaths(root, scratch, outputs.map((output) => output.filename));
    const shell = { cwd: root, env: { ...process.env, PATH: `${process.env.PATH}${delimiter}${join(root, 'node_modules', '.bin')}` } };
    await runHooks(topLevel?.beforeAllFileWrite, paths, shell);
    for (const [index, output] of outputs.entries()) {
      const path = paths[index]!;
      let content = output.content;
      for (const hooks of [output.hooks, topLevel]) content = (await runHooks(hooks?.beforeOneFileWrite, [path], shell, content)) ?? content;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      for (const hooks of [output.hooks, topLevel]) await runHooks(hooks?.afterOneFileWrite, [path], shell);
    }
    await runHooks(topLevel?.afterAllFileWrite, paths, shell);
    return outputs.map((output, index) => ({ ...output, content: readFileSync(paths[index]!, 'utf8') }));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Where the hooks see the outputs: at their places in the project, mirrored inside the scratch folder;
 * targets outside the project (`../client/gql.ts`) in a folder of their own in there, laid out as they
 * are around the folder holding them all, so outputs that import each other still find each other.
 */
function scratchCopyPaths(root: string, scratch: string, filenames: readonly string[]): string[] {
  const targets = filenames.map((filename) => resolve(root, filename));
  const outside = targets.filter((target) => isOutside(relative(root, target)));
  const around = commonFolder(outside.map((target) => dirname(target)));
  // With no common folder (two Windows drives) each keeps its whole path, the drive's colon left out.
  const placed = (target: string) => (around === '' ? target.replace(':', '') : relative(around, target));
  return targets.map((target) => (outside.includes(target) ? join(scratch, '.outside-project', placed(target)) : join(scratch, relative(root, target))));
}

/** Runs `hooks` on `paths`; a function given `content` may return the file's new text, which is returned. */
async function runHooks(hooks: Hook | readonly Hook[] | undefined, paths: readonly string[], shell: { cwd: string; env: NodeJS.ProcessEnv }, content?: string): Promise<string | undefined> {
  let text = content;
  for (const hook of listOf(hooks)) {
    if (typeof hook === 'string') {
      try {
        await run(`${hook} ${paths.map(shellQuoted).join(' ')}`, shell);
      } catch (error) {
        const shown = paths.map((path) => relative(shell.cwd, path)).join(' ');
        throw new Error(`the codegen hook \`${hook}\` failed on ${shown}: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`);
      }
      continue;
    }
    const returned = await hook(...paths, ...(text === undefined ? [] : [text]));
    if (typeof returned === 'string' && text !== undefined) text = returned;
  }
  return text;
}

function listOf(hooks: Hook | readonly Hook[] | undefined): readonly Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks as Hook];
}

/** One argument for a POSIX shell, in single quotes. */
function shellQuoted(argument: string): string {
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}
