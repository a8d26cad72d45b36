import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

/**
 * Docker cannot run here, so a Dockerfile is checked by running its instructions outside Docker: each
 * stage gets a folder standing for its filesystem root, absolute paths in its instructions are mapped
 * into that folder, RUN goes to `sh -c` in the stage's WORKDIR with the stage's ENV, and COPY copies
 * from the build context (minus .dockerignore) or from another stage's folder. Only the instructions
 * the project's Dockerfile uses are understood; any other is an error.
 */

export interface Stage {
  readonly name: string | undefined;
  readonly image: string;
  readonly instructions: ReadonlyArray<{ readonly keyword: string; readonly args: string }>;
}

export interface BuiltImage {
  /** The last stage's folder, its WORKDIR inside it, its ENV, and its CMD (an exec-form array). */
  readonly root: string;
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cmd: readonly string[];
  readonly exposed: readonly number[];
  /** HEALTHCHECK's command (its options left out), when the image declares one. */
  readonly healthcheck: readonly string[] | undefined;
}

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'EXPOSE', 'USER', 'HEALTHCHECK', 'CMD']);
const run = promisify(execFile);

export function parseDockerfile(text: string): Stage[] {
  const stages: Array<{ name: string | undefined; image: string; instructions: Array<{ keyword: string; args: string }> }> = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword, args] = /^(\w+)\s+(.*)$/.exec(trimmed) ?? [];
    if (!keyword || !KNOWN.has(keyword.toUpperCase())) throw new Error(`unsupported Dockerfile line: ${trimmed}`);
    if (keyword.toUpperCase() === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args!.trim())!;
      stages.push({ name, image: image!, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), args: args!.trim() });
    }
  }
  return stages;
}

/** Builds every stage of `dockerfile` under `workDir`, with `context` as the build context. */
export async function buildOutsideDocker(dockerfile: string, context: string, workDir: string): Promise<BuiltImage> {
  const ignored = readIgnore(join(context, '.dockerignore'));
  const roots = new Map<string, string>();
  let image: BuiltImage | undefined;
  for (const [index, stage] of parseDockerfile(readFileSync(dockerfile, 'utf8')).entries()) {
    const root = join(workDir, `stage-${index}`);
    mkdirSync(root, { recursive: true });
    const inRoot = (path: string) => join(root, path);
    let workdir = '/';
    const env: Record<string, string> = {};
    let cmd: string[] = [];
    let healthcheck: string[] | undefined;
    const exposed: number[] = [];
    for (const { keyword, args } of stage.instructions) {
      switch (keyword) {
        case 'WORKDIR':
          workdir = args;
          mkdirSync(inRoot(workdir), { recursive: true });
          break;
        case 'ENV': {
          const [, name, value] = /^(\w+)=(.*)$/.exec(args)!;
          env[name!] = value!;
          break;
        }
        case 'COPY': {
          const [, from, source, target] = /^(?:--from=(\S+)\s+)?(\S+)\s+(\S+)$/.exec(args)!;
          const destination = target!.startsWith('/') ? inRoot(target!) : join(inRoot(workdir), target!);
          if (from) {
            const sourceRoot = roots.get(from);
            if (!sourceRoot) throw new Error(`COPY --from=${from}: no such stage`);
            cpSync(join(sourceRoot, source!), destination, { recursive: true });
          } else {
            cpSync(join(context, source!), destination, { recursive: true, filter: (path) => !ignored(relative(context, path)) });
          }
          break;
        }
        case 'RUN': {
          // Absolute paths of the image's filesystem live in the stage's folder.
          const command = args.replace(/(^|\s)\/(?=[\w.*-])/g, `$1${root}/`);
          await run('sh', ['-c', command], { cwd: inRoot(workdir), env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 });
          break;
        }
        case 'EXPOSE':
          exposed.push(Number(args));
          break;
        case 'USER':
          break; // the user to run as: nothing to change outside a container
        case 'CMD':
          cmd = JSON.parse(args) as string[];
          break;
        case 'HEALTHCHECK':
          healthcheck = JSON.parse(/^(?:--\S+\s+)*CMD\s+(.*)$/.exec(args)![1]!) as string[];
          break;
        default:
          throw new Error(`unsupported instruction ${keyword}`);
      }
    }
    if (stage.name) roots.set(stage.name, root);
    image = { root, workdir: inRoot(workdir), env, cmd, exposed, healthcheck };
  }
  if (!image) throw new Error(`${dockerfile} has no stage`);
  return image;
}

/** A .dockerignore as a predicate on context-relative paths (names and folder prefixes, `*` within a name). */
function readIgnore(file: string): (path: string) => boolean {
  if (!existsSync(file)) return () => false;
  const patterns = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
  return (path) => path !== '' && patterns.some((pattern) => pattern.test(path) || pattern.test(dirname(path)));
}
