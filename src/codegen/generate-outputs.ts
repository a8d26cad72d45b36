import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { isOutside } from './outside-folder';
import { buildGatewaySchema } from '../gateway';
import { ProjectConfigError, type Project } from '../project/load-project';
import { printServedSchema, publicSchemaFile } from './public-schema';
import { withFileHooks, type CodegenOutput, type FileHooks } from './codegen-hooks';
import { codegenErrorText } from './codegen-error-text';
import { folderManifests } from './folder-manifest';

/** Generated file contents keyed by their path relative to the project root ('/'-separated). */
export type GeneratedFiles = ReadonlyMap<string, string>;

/** What `docjoin codegen` writes, and where codegen may write (for files it no longer produces). */
export interface CodegenOutputs {
  readonly files: GeneratedFiles;
  /** Project-relative files and folders (ending in '/') codegen writes: a folder's own manifest lists what it generated there (folder-manifest.ts). */
  readonly roots: readonly string[];
}

/** The part of `@graphql-codegen/cli` docjoin calls (an optional peer dependency). */
interface CodegenCli {
  loadCodegenConfig(options: { configFilePath: string }): Promise<{ config: { generates?: Record<string, unknown> } & Record<string, unknown> }>;
  executeCodegen(config: Record<string, unknown>): Promise<{ result: CodegenOutput[]; error: Error | null }>;
}

/**
 * Everything `docjoin codegen` writes, computed in memory from the project's SDL: the public schema
 * file, then the outputs of the project's graphql-codegen config generated from that public schema
 * (not from the file, which may be the stale one under check), as its file hooks leave them. `codegen` writes these; `codegen --check`
 * compares them with the tree, so the two cannot disagree.
 */
export async function generateOutputs(project: Project): Promise<CodegenOutputs> {
  // What `docjoin serve` would refuse is refused here first (a @counter of a misspelt list), so CI's --check catches it;
  // but for a root field's missing resolver: its types come first.
  const built = buildGatewaySchema({ typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans, rootResolversToCome: true });
  const publicSchema = projectPath(project, project.publicSchemaFile);
  checkWritableFile(project, `codegen.publicSchema "${publicSchema}"`, project.publicSchemaFile, [], 'schema.public.graphql');
  const printed = printServedSchema(built, { costDirectives: project.costDirectives });
  const files = new Map<string, string>([[publicSchema, publicSchemaFile(printed)]]);
  const roots = [publicSchema];
  const codegenConfigFile = project.codegenConfigFile;
  if (codegenConfigFile === undefined) return { files, roots };
  const codegen = loadCodegenCli();
  const config = await loadCodegenConfig(codegen, project, codegenConfigFile);
  // Before graphql-codegen runs: its own error about a target such as the project folder would hide the reason.
  // A config without generates is left to graphql-codegen, which names what is missing.
  for (const target of Object.keys(config.generates ?? {})) {
    const path = projectPath(project, resolve(project.root, target));
    if (target.endsWith('/')) checkFolderTarget(project, target, path);
    else checkWritableFile(project, `the generates target "${target}"`, path, [project.publicSchemaFile], 'generated/types.ts');
    roots.push(target.endsWith('/') ? `${path}/` : path);
  }
  // graphql-codegen checks the config's shape, and finds its plugins and presets, as it runs: that is the project's configuration too.
  const asConfigError = (error: unknown) =>
    error instanceof Error && /Invalid Codegen Configuration|Unable to find (template plugin|preset) matching/.test(error.message)
      ? new ProjectConfigError(`${codegenConfigName(project, codegenConfigFile)}: ${codegenErrorText(error, project.root)}`)
      : new Error(codegenErrorText(error, project.root));
  const { result, error } = await codegen.executeCodegen({ ...config, schema: printed, cwd: project.root, silent: true }).catch((thrown: unknown) => {
    throw asConfigError(thrown);
  });
  if (error) throw asConfigError(error);
  const hooked = await withFileHooks(project.root, config.hooks as FileHooks | undefined, result);
  for (const output of hooked.sort((a, b) => a.filename.localeCompare(b.filename))) {
    files.set(projectPath(project, resolve(project.root, output.filename)), output.content);
  }
  for (const [path, manifest] of folderManifests(files, roots.filter((root) => root.endsWith('/')))) files.set(path, manifest);
  return { files, roots };
}

function codegenConfigName(project: Project, file: string): string {
  return `the config's codegen.config (${projectPath(project, file)})`;
}

/** The project's graphql-codegen config; a missing or unreadable one is the project's configuration to fix (exit 2). */
async function loadCodegenConfig(codegen: CodegenCli, project: Project, file: string): Promise<{ generates?: Record<string, unknown> } & Record<string, unknown>> {
  const named = codegenConfigName(project, file);
  if (!existsSync(file)) throw new ProjectConfigError(`${named} does not exist; write a graphql-codegen config there, or point codegen.config at yours`);
  try {
    return (await codegen.loadCodegenConfig({ configFilePath: file })).config;
  } catch (error) {
    throw new ProjectConfigError(`${named}: ${(error instanceof Error ? error.message : String(error)).trim()}`);
  }
}

/**
 * A folder target is codegen's to write, and to remove from what it generated there before: it must be
 * a folder of its own inside the project, holding none of the project's own files (its config, SDL,
 * codegen config, package.json, .git). Paths are compared as the file system resolves them (symbolic
 * links, a case-insensitive disk), as the writing will.
 */
function checkFolderTarget(project: Project, target: string, path: string): void {
  const refuse = (why: string) =>
    new ProjectConfigError(`the generates target "${target}" ${why}; docjoin codegen writes a folder target and removes what it generated there and no longer does, so give the output a folder of its own inside the project (e.g. generated/client/)`);
  const root = realPath(project.root);
  const folder = realPath(resolve(project.root, path));
  const inRoot = relative(root, folder);
  if (inRoot === '') throw refuse('is the project folder itself');
  if (isOutside(inRoot)) throw refuse('is outside the project folder');
  const held = ownFiles(project).find((file) => existsSync(file) && !isOutside(relative(folder, realPath(file))));
  if (held !== undefined) throw refuse(`holds ${projectPath(project, held)}`);
}

/**
 * A file codegen writes whole (`subject` names it, as the config sets it): it must not be one of the
 * project's own files, nor one of `alsoOwn` (the public schema docjoin writes itself), nor an SDL file
 * in a schema folder. `example`: a file of its own to suggest.
 */
function checkWritableFile(project: Project, subject: string, path: string, alsoOwn: readonly string[], example: string): void {
  const file = realPath(resolve(project.root, path));
  const own = [...ownFiles(project), ...alsoOwn].find((candidate) => realPath(candidate) === file);
  if (own !== undefined) {
    throw new ProjectConfigError(`${subject} is ${projectPath(project, own)}, which docjoin codegen would overwrite with generated code; give the output a file of its own (e.g. ${example})`);
  }
  // An SDL file in a schema folder would be read as part of the schema once written (the folder's SDL files all are).
  const folder = /\.(graphql|gql)$/.test(file) ? project.schemaFolders.find((schemaFolder) => realPath(schemaFolder) === dirname(file)) : undefined;
  if (folder !== undefined) {
    const outside = /\.(graphql|gql)$/.test(example) ? example : 'generated/schema.graphql';
    throw new ProjectConfigError(`${subject} is an SDL file in ${projectPath(project, folder)}/, whose SDL files the project reads as its schema; give the output a file outside that folder (e.g. ${outside})`);
  }
}

/** The project's own files and folders, which no codegen output may replace: its config, SDL, codegen config, package.json and .git. */
function ownFiles(project: Project): string[] {
  return [project.configFile, project.codegenConfigFile, ...project.schemaFiles, resolve(project.root, 'package.json'), resolve(project.root, '.git')].filter((file): file is string => file !== undefined);
}

/** The path as the file system resolves it: the real path of its nearest existing ancestor, and the rest. */
function realPath(path: string): string {
  const missing: string[] = [];
  let existing = path;
  while (!existsSync(existing)) {
    missing.unshift(basename(existing));
    const parent = dirname(existing);
    if (parent === existing) return path;
    existing = parent;
  }
  return join(realpathSync.native(existing), ...missing);
}

function loadCodegenCli(): CodegenCli {
  try {
    return require('@graphql-codegen/cli') as CodegenCli;
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes("'@graphql-codegen/cli'");
    if (!missing) throw error;
    throw new Error('the config names a graphql-codegen config (codegen.config), but @graphql-codegen/cli is not installed; npm install -D @graphql-codegen/cli');
  }
}

export function projectPath(project: Project, absolutePath: string): string {
  return relative(project.root, absolutePath).split('\\').join('/');
}
