import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAMES } from '../../project/load-project';
import { sdlFileNames } from '../../gateway';
import type { CliIo } from '../../command-line/cli-io';
import { SCRIPTS } from './project-template';

/** Writing a project's files, as both forms of `docjoin init` do: never over a file that exists. */

/**
 * Whether init must not write in `folder`, saying why (one line on stderr): it is a file, a
 * `docjoin.config.*` or one of `paths` exists, `schema/` holds SDL already (the config reads every
 * `.graphql` file there, so it would be served beside the new schema), or package.json is no JSON object
 * with an object of scripts, if any (its scripts are added to it).
 */
export function refuseToWrite(folder: string, paths: readonly string[], io: CliIo): boolean {
  const file = fileInTheWay(folder);
  if (file !== undefined) {
    io.err.write(`init: ${file} is a file, not a folder; name a folder for the project (made if missing)\n`);
    return true;
  }
  const schema = join(folder, 'schema');
  // A file named schema stands where the folder goes; a folder of SDL would be served beside the new schema.
  const schemaFiles = !existsSync(schema) ? [] : statSync(schema).isDirectory() ? sdlFileNames(schema).map((name) => join('schema', name)) : ['schema'];
  const taken = [...new Set([...CONFIG_FILE_NAMES.filter((name) => existsSync(join(folder, name))), ...paths.filter((path) => existsSync(join(folder, path))), ...schemaFiles])];
  if (taken.length > 0) {
    io.err.write(`init: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${folder}; run init in an empty folder, or remove ${taken.length === 1 ? 'it' : 'them'} first\n`);
    return true;
  }
  const manifest = join(folder, 'package.json');
  const unreadable = existsSync(manifest) ? whyUnreadable(parsedJson(manifest)) : undefined;
  if (unreadable !== undefined) {
    io.err.write(`init: ${manifest} ${unreadable}, so its npm scripts cannot be added; fix it, or remove it first\n`);
    return true;
  }
  return false;
}

/** `folder`, or the nearest folder above it that exists, when that is a file: init could make no folder there. */
function fileInTheWay(folder: string): string | undefined {
  let existing = resolve(folder);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (statSync(existing).isDirectory()) return undefined;
  return existing === resolve(folder) ? folder : existing;
}

/** Why package.json's scripts cannot be added to `manifest`, its parsed content: no JSON object, or scripts that are no object; undefined when they can. */
function whyUnreadable(manifest: unknown): string | undefined {
  if (!isObject(manifest)) return 'is no JSON object';
  return manifest.scripts === undefined || isObject(manifest.scripts) ? undefined : 'has "scripts" that are no object';
}

type Manifest = Record<string, unknown> & { scripts?: Record<string, string> };

/** package.json's content, or undefined when its scripts cannot be added to it (whyUnreadable). */
function readManifest(path: string): Manifest | undefined {
  const manifest = parsedJson(path);
  return whyUnreadable(manifest) === undefined ? (manifest as Manifest) : undefined;
}

function parsedJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes `files` (paths relative to `folder`, in `schema/` or at the top), then the npm scripts the project
 * lacks. Returns the command that serves the project: `npm start`, unless package.json keeps a start script
 * of its own.
 */
export function writeProjectFiles(folder: string, files: ReadonlyArray<readonly [string, string]>, io: CliIo, describe: (path: string) => string = () => ''): string {
  mkdirSync(join(folder, 'schema'), { recursive: true });
  for (const [path, content] of files) {
    writeFileSync(join(folder, path), content);
    io.out.write(`wrote ${path}${describe(path)}\n`);
  }
  const { added, scripts } = addScripts(join(folder, 'package.json'));
  const kept = Object.keys(SCRIPTS).filter((name) => !added.includes(name) && scripts[name] !== SCRIPTS[name]);
  io.out.write(`${added.length > 0 ? `added npm scripts ${added.join(', ')} to package.json` : 'package.json already has the npm scripts'}${kept.length > 0 ? ` (kept its own ${kept.join(', ')})` : ''}\n`);
  return scripts.start === SCRIPTS.start ? 'npm start' : 'npx docjoin serve';
}

/** Adds the scripts the project lacks to package.json (creating it, ES modules, when there is none); returns their names and every script. */
function addScripts(path: string): { added: string[]; scripts: Readonly<Record<string, string>> } {
  // refuseToWrite made sure an existing one reads.
  const manifest: Manifest = (existsSync(path) ? readManifest(path) : undefined) ?? { name: packageNameOf(resolve(path, '..')), private: true, type: 'module' };
  const scripts = { ...manifest.scripts };
  const added = Object.keys(SCRIPTS).filter((name) => scripts[name] === undefined);
  for (const name of added) scripts[name] = SCRIPTS[name]!;
  writeFileSync(path, `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`);
  return { added, scripts };
}

/** The project folder's name as an npm package name (`My App` → `my-app`), as `npm init` names it; `docjoin-project` when nothing is left. */
export function packageNameOf(folder: string): string {
  const name = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214);
  return name === '' || name === 'node_modules' || name === 'favicon.ico' ? 'docjoin-project' : name;
}

/**
 * The "Next:" steps init prints, starting with the `cd` into the project when it was written elsewhere
 * than the working folder (its npm commands run there). Steps left undefined are not printed.
 */
export function nextSteps(folder: string, steps: ReadonlyArray<string | undefined>): string {
  const shown = relative(process.cwd(), resolve(folder)) || undefined;
  const cd = shown === undefined ? undefined : `cd ${/^[\w@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, "'\\''")}'`}`;
  return `\nNext:\n${[cd, ...steps].filter((step) => step !== undefined).map((step) => `  ${step}\n`).join('')}`;
}

/** What a project needs installed: docjoin and its peers. */
const PROJECT_PACKAGES = ['docjoin', 'graphql', '@apollo/server', 'mongodb'];

/**
 * The `npm install` line the next steps give for the packages `folder` cannot load yet (none when all
 * are there). docjoin is not on the registry yet: a missing docjoin is to come from its tarball.
 */
export function installLine(folder: string): string | undefined {
  const missing = PROJECT_PACKAGES.filter((name) => !existsSync(join(folder, 'node_modules', name, 'package.json')));
  if (missing.length === 0) return undefined;
  return `npm install ${missing.map((name) => (name === 'docjoin' ? 'path/to/docjoin-0.1.0.tgz' : name)).join(' ')}${missing.includes('docjoin') ? '   # the tarball npm pack writes in docjoin' : ''}`;
}
